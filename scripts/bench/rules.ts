/**
 * What the request rules cost. (a) In process: handleV1 alone against applyRules + handleV1
 * with the real in-process counters (a new client address per request, so nothing is refused).
 * (b) Over HTTP: a static page through server.ts against the same StaticFiles in a bare
 * node:http server without rules (scripts/bench/static-server.ts).
 */
import path from 'node:path';
import { applyRules } from '../../service/rules/index.ts';
import { apiRateLimit } from '../../service/rules/policy.ts';
import { createRateLimiter, MemoryCounterStore } from '../../service/rules/rate-limiter.ts';
import { handleV1 } from '../../service/v1/index.ts';
import { loadCatalogue, realContent } from '../../tests/helpers/content.ts';
import { interleaved, median, type LoadSettings } from './load.ts';
import { startChildServer, type ChildServer } from './processes.ts';
import { fixed, ratio, type Section } from './report.ts';
import { benchSiteUrl } from './site.ts';

const batch = 1000;

async function timeBatch(serve: (i: number) => Promise<void>, offset: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < batch; i += 1) await serve(offset + i);
  return Number(process.hrtime.bigint() - started) / batch / 1000;
}

/** Microseconds per request for each side, medians of interleaved batches. */
async function rulesInProcess(
  paths: string[],
  rounds = 15,
): Promise<{ path: string; handler: number; withRules: number }[]> {
  const deps = { catalogue: loadCatalogue(realContent, benchSiteUrl), departures: null };
  const limiter = createRateLimiter(apiRateLimit, new MemoryCounterStore());
  const results = [];
  let client = 0;
  for (const pathname of paths) {
    const url = `${benchSiteUrl}${pathname}`;
    const handlerOnly = async () => {
      const response = await handleV1(new Request(url), deps);
      if (response.status !== 200) throw new Error(`${pathname}: ${response.status}`);
      await response.arrayBuffer();
    };
    const withRules = async () => {
      client += 1;
      const request = new Request(url);
      const socketAddress = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
      const outcome = await applyRules(request, {
        siteUrl: benchSiteUrl,
        apiLimiter: limiter,
        trustProxy: 'none',
        socketAddress,
      });
      if (outcome.kind !== 'continue') throw new Error(`${pathname}: refused by the rules`);
      const response = await handleV1(request, deps);
      if (response.status !== 200) throw new Error(`${pathname}: ${response.status}`);
      await response.arrayBuffer();
    };
    await timeBatch(handlerOnly, 0);
    await timeBatch(withRules, 0);
    const a: number[] = [];
    const b: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) {
        a.push(await timeBatch(handlerOnly, 0));
        b.push(await timeBatch(withRules, 0));
      } else {
        b.push(await timeBatch(withRules, 0));
        a.push(await timeBatch(handlerOnly, 0));
      }
    }
    results.push({ path: pathname, handler: median(a), withRules: median(b) });
  }
  return results;
}

export async function rulesSection(
  server: ChildServer,
  siteDir: string,
  staticPath: string,
  load: LoadSettings,
): Promise<Section> {
  const micro = await rulesInProcess([
    '/v1/trips',
    '/v1/peaks/' + (loadCatalogue(realContent, benchSiteUrl).peaks[0]?.id ?? ''),
  ]);
  const bare = await startChildServer(path.join(siteDir, 'scripts', 'bench', 'static-server.ts'), { cwd: siteDir });
  let http;
  try {
    http = await interleaved(
      [
        { label: 'server', url: `${server.url}${staticPath}`, pids: [server.process.pid!] },
        { label: 'bare', url: `${bare.url}${staticPath}`, pids: [bare.process.pid!] },
      ],
      load,
    );
  } finally {
    await bare.stop();
  }
  const [s, b] = http;
  const bytes = Number(
    (
      await fetch(`${server.url}${staticPath}`, { headers: { 'Accept-Encoding': 'identity' } }).then((r) =>
        r.arrayBuffer(),
      )
    ).byteLength,
  );
  const rows = micro.map((m) => [
    `(a) in process: \`${m.path}\`, µs per request`,
    `${fixed(m.withRules, 1)} µs (${fixed(1e6 / m.withRules)} req/s)`,
    `${fixed(m.handler, 1)} µs (${fixed(1e6 / m.handler)} req/s)`,
    ratio(m.handler / m.withRules),
  ]);
  const flagged = s!.non2xx + s!.errors + b!.non2xx + b!.errors > 0 ? ' (non-2xx or errors seen)' : '';
  rows.push([
    `(b) over HTTP: \`${staticPath}\` (${fixed(bytes)} bytes), through server.ts / bare StaticFiles${flagged}`,
    `${fixed(s!.rps)} req/s, ${fixed(s!.cpuUs)} µs CPU per request, p50 ${fixed(s!.p50, 2)} ms, p99 ${fixed(s!.p99, 2)} ms`,
    `${fixed(b!.rps)} req/s, ${fixed(b!.cpuUs)} µs CPU per request, p50 ${fixed(b!.p50, 2)} ms, p99 ${fixed(b!.p99, 2)} ms`,
    ratio(s!.rps / b!.rps),
  ]);
  return {
    title: 'Cost of the request rules',
    about:
      '(a) In process, no HTTP: `handleV1` alone against `applyRules` (rate limit with the real `MemoryCounterStore`, a new client address per request so nothing is refused; negotiation; security and CORS headers) followed by `handleV1`, in interleaved batches of ' +
      `${batch} requests; single-threaded. (b) A static page through \`server.ts\` against the same \`StaticFiles\` in a bare node:http server without rules (\`scripts/bench/static-server.ts\`).`,
    header: ['Measure', 'With rules', 'Without rules', 'Ratio (throughput with / without)'],
    rows,
    findings: [
      `In process the rules add ${micro.map((m) => `${fixed(m.withRules - m.handler, 1)} µs to \`${m.path}\``).join(' and ')} (medians; negative means within noise). Over HTTP, server.ts serves a static page at ${ratio(s!.rps / b!.rps)} of the throughput of StaticFiles alone (the rules, the web Request built for them, and the headers they add).`,
    ],
  };
}
