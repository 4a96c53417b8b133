/**
 * No client can slow another: one loopback address floods the server with live URLs no one asked
 * for before (tests/helpers/fairness.ts) while a bystander on other addresses reads /v1 (a file,
 * a catalogue function answer, live departures). The bounds are generous, for a loaded two-core
 * machine; the precise figures are the benchmark's (docs/benchmarks.md). Then what makes it so,
 * one piece at a time: parameters no path declares make no new work, fresh renders are limited
 * per address with a 429 in each path's own form, and the flood is answered, never dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { renderRateLimit } from '../../service/rules/policy.ts';
import { fairnessWarmUp, measureFairness } from '../helpers/fairness.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { rawExchange, serialize } from './raw-http.ts';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  // A database the server creates itself, as a new site's: the memory measured is a new server's.
  dataDir = mkdtempSync(path.join(tmpdir(), 'fairness-data-'));
  server = await startServer(inject('fixtureSite'), { DATA_DIR: dataDir });
  // Opens the embedded store and loads each function before the clock starts.
  for (const path of fairnessWarmUp('sample-trek')) await (await fetch(`${server.url}${path}`)).arrayBuffer();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function get(path: string, address: string, headers: [string, string][] = []) {
  return rawExchange(serialize('GET', path, [['Host', `127.0.0.1:${server.port}`], ...headers]), {
    port: server.port,
    localAddress: address,
    timeoutMs: 10_000,
  });
}

describe('one address flooding unique live URLs', () => {
  it("leaves another client's /v1 fast, answers every flooding request, and keeps memory bounded", async () => {
    const result = await measureFairness({
      port: server.port,
      pid: server.process.pid!,
      seconds: 10,
      slug: 'sample-trek',
      floodAddress: '127.0.77.1',
      bystanderPaths: ['/v1/trips', '/v1/trips?type=trek', '/v1/departures', '/v1/peaks'],
    });
    const summary = JSON.stringify(result);
    console.log(
      `[fairness] bystander p50 ${result.bystander.p50.toFixed(1)} ms, p99 ${result.bystander.p99.toFixed(1)} ms over ${result.bystander.requests} requests; flood ${JSON.stringify(result.flood.statuses)}; RSS ${result.rssBeforeMiB?.toFixed(0)} → ${result.rssAfterMiB?.toFixed(0)} MiB`,
    );
    expect(result.bystander.statuses, summary).toEqual({ 200: result.bystander.requests });
    expect(result.bystander.requests, summary).toBeGreaterThan(50);
    // Goals: median under 20 ms, p99 under 250 ms (the benchmark's); here five and four times that.
    expect(result.bystander.p50, summary).toBeLessThan(100);
    expect(result.bystander.p99, summary).toBeLessThan(1000);
    // Every request of the flood was answered: renders up to the quota, then 429s.
    expect(result.flood.errors, summary).toBe(0);
    expect(result.flood.statuses['429'] ?? 0, summary).toBeGreaterThan(0);
    const fresh = Object.entries(result.flood.statuses)
      .filter(([status]) => status !== '429')
      .reduce((n, [, count]) => n + count, 0);
    expect(fresh, summary).toBeGreaterThan(0);
    expect(result.rssAfterMiB! - result.rssBeforeMiB!, summary).toBeLessThan(200);
  }, 90_000);

  it('refuses an address over its quota in the form of each path, with Retry-After, and serves everyone else', async () => {
    const address = '127.0.81.1';
    for (let i = 0; i < renderRateLimit.requests; i += 1) await get(`/treks/fill-${i}.md`, address);
    const forms: [string, RegExp][] = [
      ['/departures?trip=never-seen-a', /^text\/html/],
      ['/departures/block?trip=never-seen-b', /^text\/html/],
      ['/treks/never-seen-c.md', /^text\/markdown/],
      ['/treks/never-seen-d.ics', /^text\/plain/],
      ['/enquiry-sent?ref=enq-20260101-aaaaaaaaaa', /^text\/html/],
    ];
    for (const [path, type] of forms) {
      const refused = (await get(path, address)).responses[0]!;
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get('content-type'), path).toMatch(type);
      expect(Number(refused.headers.get('retry-after')), path).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('cache-control'), path).toBe('no-store');
      expect(refused.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(refused.body.toString(), path).toContain(`more than ${renderRateLimit.requests}`);
      const served = (await get(path, '127.0.78.1')).responses[0]!;
      expect([200, 404], path).toContain(served.status);
    }
    const markdown = (await get('/departures?trip=never-seen-e', address, [['Accept', 'text/markdown']])).responses[0]!;
    expect(markdown.status).toBe(429);
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/);
  }, 60_000);
});

describe('the render quota', () => {
  it('counts only fresh renders: parameters no path declares are answered from the kept copy', async () => {
    const address = '127.0.79.1';
    const statuses = new Set<number>();
    for (let i = 0; i < renderRateLimit.requests + 30; i += 1)
      statuses.add((await get(`/departures?z=${i}&utm_source=${i}`, address)).responses[0]!.status);
    expect([...statuses]).toEqual([200]);
  }, 60_000);

  it('counts each new departure search as a fresh render, on the board, its Markdown and its calendar alike', async () => {
    const address = '127.0.82.1';
    const answers: number[] = [];
    for (let i = 0; i < renderRateLimit.requests + 2; i += 1)
      answers.push((await get(`/departures?minSeats=2&maxPriceInr=${10000 + i}`, address)).responses[0]!.status);
    expect(answers.slice(0, renderRateLimit.requests).every((s) => s === 200)).toBe(true);
    expect(answers.slice(renderRateLimit.requests)).toEqual([429, 429]);
    // Its Markdown and calendar are searches of their own; another address has its own quota.
    expect((await get('/departures.md?minSeats=2&maxPriceInr=99999', address)).responses[0]!.status).toBe(429);
    expect((await get('/departures.ics?minSeats=2&maxPriceInr=99999', '127.0.82.2')).responses[0]!.status).toBe(200);
  }, 60_000);

  it(`lets ${renderRateLimit.requests} fresh renders a minute through from one address, then answers 429`, async () => {
    const address = '127.0.80.1';
    const answers: number[] = [];
    for (let i = 0; i < renderRateLimit.requests + 3; i += 1)
      answers.push((await get(`/expeditions/unknown-${i}.md`, address)).responses[0]!.status);
    expect(answers.slice(0, renderRateLimit.requests).every((s) => s === 404)).toBe(true);
    expect(answers.slice(renderRateLimit.requests)).toEqual([429, 429, 429]);
    // Another address has its own quota.
    expect((await get('/expeditions/unknown-0.md', '127.0.80.2')).responses[0]!.status).toBe(404);
  }, 60_000);
});
