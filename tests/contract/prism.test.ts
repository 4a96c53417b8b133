/**
 * Every documented example, sent through Stoplight Prism in validation-proxy mode in front of the
 * running fixture site: the README's requests, the developer page's, the parameter examples of
 * /openapi.json and the request examples of /enquiry-openapi.json, these both as JSON and as the
 * trip pages' web form posts them (answered with a redirect or a page, not JSON). Prism checks
 * each request and each response against the published document; with `--errors` it answers any
 * violation with its own problem, and it logs every violation. Neither may happen, with one
 * exception Prism makes itself: it follows a redirect (stoplightio/prism#1977, open), so the
 * form's 303 is never shown to it, and that answer is checked against the document directly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { freePort, projectRoot } from '../helpers/project.ts';
import { builtSiteUrl } from '../agents/built-site.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { eventually, whileRunning } from '../helpers/eventually.ts';

interface Prism {
  url: string;
  log: () => string;
  process: ChildProcess;
}

interface Example {
  source: string;
  method: 'GET' | 'POST';
  /** The documented address, on the documented origin. */
  url: string;
  body?: string;
  /** The body's type, when it is not JSON: the web form's. */
  form?: boolean;
}

const siteDir = inject('fixtureSite');
const documentedOrigin = builtSiteUrl(siteDir);
let server: InProcessServer;
let dataDir: string;
let v1: Prism;
let enquiries: Prism;

/** `prism proxy <document> <upstream> --errors`, listening on a free loopback port. */
async function startPrism(document: string, upstream: string): Promise<Prism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(projectRoot, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'proxy',
      document,
      upstream,
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (d) => (log += String(d)));
  child.stderr?.on('data', (d) => (log += String(d)));
  await eventually(async () => expect(log, 'prism did not start').toContain('Prism is listening'), {
    withinMs: 90_000,
    everyMs: 200,
    unless: whileRunning(child, () => `prism exited:\n${log}`),
  });
  return { url: `http://127.0.0.1:${port}`, log: () => log, process: child };
}

beforeAll(async () => {
  dataDir = newDataDir('prism-enquiries-');
  // Behind Vercel's client-address header, so each enquiry can come from an address of its own (5 per address per 10 minutes).
  server = await startInProcess(siteDir, { SITE_URL: documentedOrigin, DATA_DIR: dataDir, TRUST_PROXY: 'vercel' });
  const files = path.join(siteDir, 'dist', 'site');
  // Prism serves the document's paths relative to its server, and forwards them under the upstream.
  [v1, enquiries] = await Promise.all([
    startPrism(path.join(files, 'openapi.json'), `${server.url}/v1`),
    startPrism(path.join(files, 'enquiry-openapi.json'), server.url),
  ]);
}, 180_000);
afterAll(async () => {
  for (const prism of [v1, enquiries]) prism?.process.kill('SIGTERM');
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The text of an HTML page, as a reader copies a command from it. */
const pageText = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** curl commands of a text: `curl -s[i] [-X POST '<url>' -H '…' -d '<json>' | '<url>']`. */
function curlExamples(source: string, text: string, origin: string): Example[] {
  const examples: Example[] = [];
  for (const line of text.split('\n')) {
    if (!/^\s*curl /.test(line) || /-H 'Accept: text\/markdown'/.test(line)) continue;
    const url = /'?(https?:\/\/[^\s']+)'?/.exec(line)?.[1];
    if (!url || !(url.startsWith(`${origin}/v1`) || url === `${origin}/api/bookings`)) continue;
    const body = /-d '([^']+)'/.exec(line)?.[1];
    examples.push({
      source,
      method: /-X POST/.test(line) ? 'POST' : 'GET',
      url: url.replace(origin, documentedOrigin),
      ...(body ? { body } : {}),
    });
  }
  return examples;
}

function documentExamples(): Example[] {
  const files = path.join(siteDir, 'dist', 'site');
  const examples: Example[] = [];
  const api = JSON.parse(readFileSync(path.join(files, 'openapi.json'), 'utf8'));
  const base = api.servers[0].url as string;
  for (const [template, item] of Object.entries<
    Record<string, { parameters: { name?: string; in?: string; example?: string | number }[] }>
  >(api.paths)) {
    const params = item.get!.parameters.filter((p) => p.name);
    const pathValue = params.find((p) => p.in === 'path')?.example;
    const at = template.replace(/\{[^}]+\}/, encodeURIComponent(String(pathValue ?? '')));
    examples.push({ source: 'openapi.json', method: 'GET', url: `${base}${at}` });
    for (const p of params.filter((q) => q.in === 'query' && q.example !== undefined)) {
      examples.push({
        source: 'openapi.json',
        method: 'GET',
        url: `${base}${at}?${new URLSearchParams({ [p.name!]: String(p.example) })}`,
      });
    }
  }
  const enquiry = JSON.parse(readFileSync(path.join(files, 'enquiry-openapi.json'), 'utf8'));
  const content = enquiry.paths['/api/bookings'].post.requestBody.content;
  expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
  for (const example of Object.values<{ value: Record<string, unknown> }>(content['application/json'].examples)) {
    examples.push({
      source: 'enquiry-openapi.json',
      method: 'POST',
      url: `${enquiry.servers[0].url}/api/bookings`,
      body: JSON.stringify(example.value),
    });
    examples.push({
      source: 'enquiry-openapi.json (as the web form posts it)',
      method: 'POST',
      url: `${enquiry.servers[0].url}/api/bookings`,
      body: asForm(example.value),
      form: true,
    });
  }
  return examples;
}

/** Fields as the trip page's form posts them: every field of the form, as text, the ones left blank empty. */
function asForm(fields: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const name of ['tripSlug', 'name', 'phone', 'email', 'groupSize', 'preferredDeparture', 'message', 'website'])
    form.set(name, fields[name] === undefined ? '' : `${fields[name] as string | number}`);
  return form.toString();
}

let enquiryAddress = 0;

async function throughPrism(
  example: Example,
): Promise<{ status: number; type: string | null; body: string; location: string | null }> {
  const url = new URL(example.url);
  const prism = url.pathname.startsWith('/v1') ? v1 : enquiries;
  const pathname = url.pathname.startsWith('/v1') ? url.pathname.slice('/v1'.length) || '/' : url.pathname;
  const headers: Record<string, string> = {};
  if (example.body) headers['Content-Type'] = example.form ? 'application/x-www-form-urlencoded' : 'application/json';
  // A browser posting the form names the page's origin.
  if (example.form) headers.Origin = documentedOrigin;
  if (example.method === 'POST') headers['X-Real-IP'] = `192.0.2.${(enquiryAddress += 1)}`;
  const res = await fetch(`${prism.url}${pathname}${url.search}`, {
    method: example.method,
    headers,
    redirect: 'manual',
    ...(example.body ? { body: example.body } : {}),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: await res.text(),
    location: res.headers.get('location'),
  };
}

describe('Prism validation proxy', () => {
  it('sees no request or response violation for any documented example', async () => {
    const readme = curlExamples(
      'README.md',
      readFileSync(path.join(projectRoot, 'README.md'), 'utf8'),
      'http://localhost:4321',
    );
    const developers = curlExamples(
      '/developers',
      pageText(await (await fetch(`${server.url}/developers`)).text()),
      documentedOrigin,
    );
    const examples = [...readme, ...developers, ...documentExamples().filter((e) => !e.form)];
    expect(readme.length).toBeGreaterThanOrEqual(3);
    expect(developers.filter((e) => e.method === 'POST')).toHaveLength(1);
    const logged = [v1.log().length, enquiries.log().length];

    const problems: string[] = [];
    for (const example of examples) {
      const answer = await throughPrism(example);
      const refusedByPrism =
        answer.type?.startsWith('application/problem+json') || /stoplight\.io\/prism\/errors/.test(answer.body);
      if (refusedByPrism)
        problems.push(
          `${example.source}: ${example.method} ${example.url} -> ${answer.status} ${answer.body.slice(0, 800)}`,
        );
      if (example.method === 'POST' && answer.status !== 201)
        problems.push(`${example.source}: POST ${example.url} -> ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    const violations = [v1, enquiries].flatMap((prism, i) =>
      prism
        .log()
        .slice(logged[i])
        .split('\n')
        .filter((line) => /Violation|NO_PATH_MATCHED|UNPROCESSABLE|VIOLATIONS/.test(line)),
    );
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
    console.log(
      `${examples.length} documented examples through Prism, none refused: ${readme.length} from the README, ${developers.length} from the developer page, ${examples.length - readme.length - developers.length} from the OpenAPI documents`,
    );
  }, 180_000);

  it('accepts the 304 of a conditional GET: no Content-Type, as documented', async () => {
    for (const pathname of ['/trips', '/peaks?openPeak=true']) {
      const first = await fetch(`${v1.url}${pathname}`);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).not.toBe('');
      const again = await fetch(`${v1.url}${pathname}`, { headers: { 'If-None-Match': etag } });
      expect(again.status, pathname).toBe(304);
      expect(again.headers.get('content-type'), pathname).toBeNull();
    }
  });

  it('refuses what the documents do not allow, so its silence means something', async () => {
    const wrong = await throughPrism({
      source: 'test',
      method: 'GET',
      url: `${documentedOrigin}/v1/trips?difficulty=hard`,
    });
    expect(wrong.status).toBe(422);
    const incomplete = await throughPrism({
      source: 'test',
      method: 'POST',
      url: `${documentedOrigin}/api/bookings`,
      body: JSON.stringify({ tripSlug: 'sample-trek' }),
    });
    expect(incomplete.status).toBe(422);
    const incompleteForm = await throughPrism({
      source: 'test',
      method: 'POST',
      url: `${documentedOrigin}/api/bookings`,
      body: asForm({ tripSlug: 'sample-trek', name: 'Asha Rao', groupSize: 'two' }),
      form: true,
    });
    expect(incompleteForm.status).toBe(422);
  });

  it("sees no violation in the web form's requests, nor in the pages that answer its refusals", async () => {
    const document = JSON.parse(readFileSync(path.join(siteDir, 'dist', 'site', 'enquiry-openapi.json'), 'utf8'));
    const forms = documentExamples().filter((e) => e.form);
    expect(forms).toHaveLength(2);
    for (const example of forms) {
      // Prism checks the form, forwards it, and follows the 303 to the enquiry's page: the GET's
      // 200 is what it holds against the POST's answers (stoplightio/prism#1977). Nothing else.
      const answer = await throughPrism(example);
      const problem = JSON.parse(answer.body) as { validation: { location: string[]; message: string }[] };
      expect(problem.validation).toEqual([
        {
          location: ['response'],
          severity: 'Error',
          message: expect.stringMatching(
            /^Unable to match the returned status code with those defined in the document/,
          ),
        },
      ]);
      // The answer it did not see, as the document describes it.
      const direct = await fetch(`${server.url}/api/bookings`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: documentedOrigin,
          'X-Real-IP': `192.0.2.${(enquiryAddress += 1)}`,
        },
        body: example.body ?? '',
      });
      const documented = document.paths['/api/bookings'].post.responses['303'];
      expect(direct.status).toBe(303);
      expect(direct.headers.get('location')).toMatch(new RegExp(documented.headers.Location.schema.pattern));
      expect(direct.headers.get('cache-control')).toBe(document.components.headers.CacheControl.schema.const);
      expect(direct.headers.get('content-type')).toBeNull();
    }
    // Refusals are pages, which Prism does see: a field the endpoint refuses (no such group size for this trip), and a form posted from another site.
    const refused = await throughPrism({
      source: 'test',
      method: 'POST',
      url: `${documentedOrigin}/api/bookings`,
      body: asForm({ tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 99 }),
      form: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.type).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('Your enquiry was not sent');
    const crossSite = await fetch(`${enquiries.url}/api/bookings`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://elsewhere.example',
        'X-Real-IP': '192.0.2.200',
      },
      body: asForm({ tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 }),
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await crossSite.text()).not.toContain('stoplight.io/prism/errors');
  });
});
