/**
 * Values a request puts into an answer are text, in every format: every parameter a page, file,
 * function or MCP tool writes back (the departure search's filters on the board, its Markdown
 * and its calendar; a trip's slug in its twin, calendar and enquiry page; the departure of an
 * enquiry form; an enquiry's reference; an agent's claim code; the fields of an enquiry sent by
 * the plain form, by JSON and by the MCP tool; /v1 filters and ids; MCP tools, resources and
 * prompts; agent registration and token requests; the not-found notes) is sent values made of
 * newlines, links, headings, emphasis, code, tables, HTML, entities, iCalendar line breaks and
 * JSON quotes (fast-check, from a fixed seed), and the answer must have the same structure as the
 * answer to a plain value of the same length: the same Markdown tokens (marked's lexer), the same
 * HTML elements and attributes (Chromium's parser), the same calendar lines, the same JSON
 * members, the same MCP content. document-structure.ts says what "structure" is for each.
 *
 * Each request comes from a loopback address of its own, so no quota answers instead.
 */
import fc from 'fast-check';
import { marked } from 'marked';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { boardFilterNames } from '../../service/departures/board-filters.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { clientAt } from '../helpers/loopback-client.ts';
import { launchChromium } from '../site/site.ts';
import { calendarStructure, htmlStructures, jsonStructure, markdownStructure } from './document-structure.ts';

/** Runs of each probe; the seed makes a failure replayable. */
const runs = Number(process.env.REFLECTED_RUNS ?? 20);
const seed = Number(process.env.REFLECTED_SEED ?? 20261128);

let server: InProcessServer;
let browser: Browser;
let page: Page;
/** The MCP server's template of a trek's Markdown resource (`…/treks/{slug}.md`). */
let trekResource: string;
/**
 * The site's not-found answers (the Markdown note, the HTML page): built files, the same for every
 * address. A path no route takes is answered with one of them whatever it holds, which repeats
 * nothing of it, however its twin is routed.
 */
const notFoundAnswers = new Set<string>();

beforeAll(async () => {
  server = await startInProcess(inject('fixtureSite'), { OPERATIONAL_STORAGE: 'embedded' });
  browser = await launchChromium();
  page = await browser.newPage();
  const templates = JSON.parse((await send(mcpCall('resources/templates/list', {}))).text) as {
    result: { resourceTemplates: { uriTemplate: string }[] };
  };
  trekResource = templates.result.resourceTemplates.map((t) => t.uriTemplate).find((t) => t.includes('/treks/'))!;
  for (const ask of [
    { path: '/zz-no-such-page.md' },
    { path: '/zz-no-such-page' },
    { path: '/zz-no-such-page', headers: { Accept: 'text/markdown' } },
  ])
    notFoundAnswers.add((await send(ask)).text);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Format = 'markdown' | 'html' | 'calendar' | 'json' | 'mcp' | 'text';

interface Ask {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Probe {
  name: string;
  format: Format;
  ask(value: string): Ask;
  /**
   * The plain value the answer is compared with (`plain` unless said): one that every rule
   * before the value is written treats as it treats the value itself (its length, its pattern,
   * the route its path takes), so the two answers differ only where the value is written.
   */
  twin?: (value: string) => string;
}

/** The departure search's filters and the board's older two (board-filters.ts): every one set to the value at once. */
const search = (value: string, names: readonly string[] = boardFilterNames) =>
  new URLSearchParams(names.map((name) => [name, value])).toString();
const segment = (value: string) => encodeURIComponent(value);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const sameSite = { 'Sec-Fetch-Site': 'same-origin' };
const formPost = { 'Content-Type': 'application/x-www-form-urlencoded', ...sameSite };
const jsonPost = { 'Content-Type': 'application/json' };

const mcpCall = (method: string, params: unknown): Ask => ({
  path: '/mcp',
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2025-11-25',
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
});
const tool = (name: string, args: Record<string, unknown>) => mcpCall('tools/call', { name, arguments: args });

/** As long, so every length rule treats the two alike. */
const plain = (value: string) => 'z'.repeat(value.length);
/** A slug where the value is one (a trip slug's pattern), else as long and never one (a capital letter). */
const slugAlike = (value: string) => (/^[a-z0-9-]+$/.test(value) ? plain(value) : 'Z'.repeat(value.length));
/**
 * For a path: a slug (`[a-z0-9-]+`, which the hosts' rewrites route to the function) where the
 * value is one, else text that is not, with the value's dots and slashes where they are (a dot
 * makes a path a file's, an escaped slash or a backslash is an address no router takes), so the
 * twin's path is routed as the value's.
 */
const routedAlike = (value: string) =>
  /^[a-z0-9-]+$/.test(value) ? plain(value) : value.replace(/[a-z0-9-]/g, 'z').replace(/[^z./\\]/g, ' ');

/** For an enquiry: plain, but with the value's direction controls, which an enquiry refuses (by name) wherever they are. */
const enquiryAlike = (value: string) => value.replace(/[^\u202a-\u202e\u2066-\u2069]/gu, 'z');

const probes: Probe[] = [
  { name: 'departures.md, every filter', format: 'markdown', ask: (v) => ({ path: `/departures.md?${search(v)}` }) },
  {
    name: 'departures.md, the region alone',
    format: 'markdown',
    ask: (v) => ({ path: `/departures.md?${search(v, ['region'])}` }),
  },
  {
    name: 'the board as Markdown, every filter',
    format: 'markdown',
    ask: (v) => ({ path: `/departures?${search(v)}`, headers: { Accept: 'text/markdown' } }),
  },
  {
    name: 'the board, every filter',
    format: 'html',
    ask: (v) => ({ path: `/departures?${search(v)}`, headers: { Accept: 'text/html' } }),
  },
  {
    name: 'the board, the region alone',
    format: 'html',
    ask: (v) => ({ path: `/departures?${search(v, ['region'])}`, headers: { Accept: 'text/html' } }),
  },
  { name: 'departures.ics, every filter', format: 'calendar', ask: (v) => ({ path: `/departures.ics?${search(v)}` }) },
  { name: 'the departures block', format: 'text', ask: (v) => ({ path: `/departures/block?trip=${segment(v)}` }) },
  {
    name: "a trek's twin",
    format: 'markdown',
    ask: (v) => ({ path: `/treks/${segment(v)}.md` }),
    twin: routedAlike,
  },
  {
    name: "an expedition's twin",
    format: 'markdown',
    ask: (v) => ({ path: `/expeditions/${segment(v)}.md` }),
    twin: routedAlike,
  },
  {
    name: 'a trip page asked for as Markdown',
    format: 'markdown',
    ask: (v) => ({ path: `/treks/${segment(v)}`, headers: { Accept: 'text/markdown' } }),
    twin: routedAlike,
  },
  {
    name: 'a trip page with no page built',
    format: 'html',
    ask: (v) => ({ path: `/treks/${segment(v)}` }),
    twin: routedAlike,
  },
  {
    name: "a trip's calendar",
    format: 'text',
    ask: (v) => ({ path: `/treks/${segment(v)}.ics` }),
    twin: routedAlike,
  },
  {
    name: "a trip's enquiry form, the departure",
    format: 'html',
    ask: (v) => ({ path: `/treks/sample-trek/enquire?departure=${segment(v)}` }),
  },
  {
    name: "a trip's enquiry form, the slug",
    format: 'html',
    ask: (v) => ({ path: `/treks/${segment(v)}/enquire` }),
    twin: routedAlike,
  },
  { name: 'the thank-you page', format: 'html', ask: (v) => ({ path: `/enquiry-sent?ref=${segment(v)}` }) },
  { name: 'the claim page', format: 'html', ask: (v) => ({ path: `/agent/claim?user_code=${segment(v)}` }) },
  {
    name: 'the claim page, a code typed',
    format: 'html',
    ask: (v) => ({ path: '/agent/claim', method: 'POST', headers: formPost, body: form({ user_code: v }) }),
  },
  {
    name: 'an enquiry by the plain form',
    twin: enquiryAlike,
    format: 'html',
    ask: (v) => ({
      path: '/api/bookings',
      method: 'POST',
      headers: formPost,
      body: form({
        tripSlug: v,
        name: v,
        phone: v,
        email: v,
        groupSize: v,
        preferredDeparture: v,
        message: v,
      }),
    }),
  },
  {
    name: 'an enquiry as JSON',
    twin: enquiryAlike,
    format: 'json',
    ask: (v) => ({
      path: '/api/bookings',
      method: 'POST',
      headers: jsonPost,
      body: JSON.stringify({ tripSlug: v, name: v, phone: v, email: v, groupSize: v, message: v }),
    }),
  },
  { name: '/v1/trips filters', format: 'json', ask: (v) => ({ path: `/v1/trips?${search(v, ['region', 'type'])}` }) },
  {
    name: '/v1/departures filters',
    format: 'json',
    ask: (v) => ({ path: `/v1/departures?${search(v, ['region'])}` }),
  },
  { name: '/v1 trip id', format: 'json', ask: (v) => ({ path: `/v1/trips/${segment(v)}` }), twin: routedAlike },
  { name: '/v1 peak id', format: 'json', ask: (v) => ({ path: `/v1/peaks/${segment(v)}` }), twin: routedAlike },
  {
    name: 'a Markdown address that is not there',
    format: 'markdown',
    ask: (v) => ({ path: `/${segment(v)}.md` }),
    twin: routedAlike,
  },
  {
    name: 'a page that is not there, as Markdown',
    format: 'markdown',
    ask: (v) => ({ path: `/treks-${segment(v)}`, headers: { Accept: 'text/markdown' } }),
    twin: routedAlike,
  },
  {
    name: 'agent registration',
    format: 'json',
    ask: (v) => ({ path: '/agent/auth', method: 'POST', headers: jsonPost, body: JSON.stringify({ type: v }) }),
  },
  {
    name: 'a token request',
    format: 'json',
    ask: (v) => ({
      path: '/oauth/token',
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: v, assertion: v }),
    }),
  },
  { name: 'MCP list_departures, the region', format: 'mcp', ask: (v) => tool('list_departures', { region: v }) },
  {
    name: 'MCP list_departures, the trip',
    format: 'mcp',
    ask: (v) => tool('list_departures', { trip: v }),
    twin: slugAlike,
  },
  { name: 'MCP list_trips, the region', format: 'mcp', ask: (v) => tool('list_trips', { region: v }) },
  { name: 'MCP get_trip', format: 'mcp', ask: (v) => tool('get_trip', { slug: v }), twin: routedAlike },
  { name: 'MCP get_peak', format: 'mcp', ask: (v) => tool('get_peak', { id: v }), twin: routedAlike },
  {
    name: 'MCP send_enquiry',
    twin: enquiryAlike,
    format: 'mcp',
    ask: (v) => tool('send_enquiry', { tripSlug: v, name: v, phone: '+91 98765 43210', groupSize: 2, message: v }),
  },
  {
    name: 'MCP a trip resource',
    format: 'mcp',
    ask: (v) => mcpCall('resources/read', { uri: trekResource.replace('{slug}', segment(v)) }),
  },
  {
    name: 'MCP the enquire prompt',
    format: 'mcp',
    ask: (v) => mcpCall('prompts/get', { name: 'enquire', arguments: { tripSlug: v } }),
  },
];

/** Pieces of text that mean something in one format or another. */
const pieces = [
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  '\t',
  '\u2028',
  '\u000b',
  '[Book now](https://evil.example/pay)',
  '![x](https://evil.example/x.png)',
  '<https://evil.example>',
  'https://evil.example/pay',
  'www.evil.example',
  'pay@evil.example',
  '[ref]: https://evil.example',
  '# X',
  '## X',
  '> quote',
  '- item',
  '1. item',
  '---',
  '===',
  '```',
  '`code`',
  '*em*',
  '**strong**',
  '_em_',
  '~~gone~~',
  '| a | b |',
  '\\',
  '&amp;',
  '&#60;b&#62;',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><b>x</b>',
  "'",
  '"',
  '</title>',
  '<!--',
  '\r\nBEGIN:VEVENT\r\nSUMMARY:Pay now\r\nEND:VEVENT',
  ';',
  ',',
  ':',
  '"}',
  'नमस्ते',
  '\u202e',
];

/** A value of pieces, between plain letters (so trimming changes neither it nor its plain twin). */
const hostile = fc
  .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 3 })
  .map((parts) => `zz${parts.join('')}zz`);

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function send(ask: Ask): Promise<Answer> {
  const res = await clientAt()(`${server.url}${ask.path}`, {
    method: ask.method ?? 'GET',
    headers: ask.headers ?? {},
    ...(ask.body !== undefined ? { body: ask.body } : {}),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The MCP answer's JSON, and each text it holds as Markdown. */
function mcpStructure(text: string): string {
  const body = JSON.parse(text) as { result?: { content?: { type: string; text?: string }[] } };
  const texts = (body.result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '');
  return [jsonStructure(text), ...texts.map(markdownStructure)].join('\n--\n');
}

async function structures(format: Format, answers: Answer[]): Promise<string[]> {
  if (format === 'html')
    return htmlStructures(
      page,
      answers.map((a) => a.text),
    );
  const one: Record<Exclude<Format, 'html'>, (text: string) => string> = {
    markdown: markdownStructure,
    calendar: calendarStructure,
    json: jsonStructure,
    mcp: mcpStructure,
    text: (text) => `${text.split(/\r\n|\n|\r/).length} lines`,
  };
  return answers.map((a) => one[format](a.text));
}

describe('values a request gives are text in every answer', () => {
  for (const probe of probes) {
    it(`${probe.name} (${probe.format})`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(hostile, async (value) => {
          const twin = (probe.twin ?? plain)(value);
          const [given, alike] = await Promise.all([send(probe.ask(value)), send(probe.ask(twin))]);
          if (given.status === 404 && notFoundAnswers.has(given.text)) return;
          expect(given.status, JSON.stringify(value)).toBe(alike.status);
          expect(given.type, JSON.stringify(value)).toBe(alike.type);
          const [a, b] = await structures(probe.format, [given, alike]);
          expect(a, JSON.stringify(value)).toBe(b);
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
    });
  }

  it('departures.md shows a link, blank lines and a heading in the region as the text they are', async () => {
    const region = 'zz%0A%0A%5BBook%20now%5D(https%3A%2F%2Fevil.example%2Fpay)%0A%0A%23%20X';
    for (const ask of [
      { path: `/departures.md?region=${region}` },
      { path: `/departures?region=${region}`, headers: { Accept: 'text/markdown' } },
    ]) {
      const { status, text } = await send(ask);
      expect(status).toBe(200);
      const rendered = await marked.parse(text);
      // The region as it is matched: in lower case.
      expect(rendered).toContain('<h1>Departures: region “zz [book now](https://evil.example/pay) # x”</h1>');
      expect(rendered).toContain('Filtered to: region “zz [book now](https://evil.example/pay) # x”');
      expect(rendered).not.toContain('href="https://evil.example');
      expect(rendered.match(/<h1>/g)).toHaveLength(1);
    }
  });
});
