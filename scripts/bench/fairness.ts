/**
 * The fairness scenario (tests/helpers/fairness.ts) on a fresh server.ts with the real content,
 * embedded storage and the real counter store: a bystander reading /v1 alone, then twice
 * during a flood of unique live URLs from one address over 32 connections, with the server's
 * resident memory before and after each flood. Goals: the bystander's median under 20 ms and
 * p99 under 250 ms during a flood, and resident memory under 600 MiB after it.
 */
import {
  bystanderRun,
  fairnessWarmUp,
  measureFairness,
  residentMiB,
  type FairnessResult,
} from '../../tests/helpers/fairness.ts';
import { fixed, type Section } from './report.ts';
import { startBenchServer } from './site.ts';

export const fairnessGoals = { p50: 20, p99: 250, rssMiB: 600 };

export async function fairnessSection(siteDir: string, slug: string, peak: string, seconds: number): Promise<Section> {
  const server = await startBenchServer(siteDir);
  const bystanderPaths = ['/v1/trips', `/v1/peaks/${peak}`, '/v1/trips?type=trek', '/v1/departures'];
  const ms = (n: number) => fixed(n, 1);
  const rows: string[][] = [];
  const findings: string[] = [];
  try {
    // Every function loaded and the embedded store open before the clock starts, as on a running site.
    for (const p of [...bystanderPaths, ...fairnessWarmUp(slug)])
      await (await fetch(`${server.url}${p}`)).arrayBuffer();
    const pid = server.process.pid!;
    const alone = await bystanderRun(server.port, bystanderPaths, Math.min(seconds, 10));
    rows.push([
      'Bystander alone',
      fixed(alone.requests),
      ms(alone.p50),
      ms(alone.p99),
      ms(alone.max),
      '—',
      `${fixed(residentMiB(pid))} MiB`,
      '—',
    ]);
    const floods: FairnessResult[] = [];
    for (const round of [1, 2]) {
      const result = await measureFairness({
        port: server.port,
        pid,
        seconds,
        slug,
        bystanderPaths,
        floodAddress: `127.0.77.${round}`,
      });
      floods.push(result);
      const answers = Object.entries(result.flood.statuses)
        .map(([status, count]) => `${fixed(count)}×${status}`)
        .join(', ');
      rows.push([
        `During flood ${round} (${fixed(result.flood.rps)} req/s answered)`,
        fixed(result.bystander.requests),
        ms(result.bystander.p50),
        ms(result.bystander.p99),
        ms(result.bystander.max),
        `${answers}${result.flood.errors ? `, ${result.flood.errors} unanswered` : ''}`,
        `${fixed(result.rssBeforeMiB!)} MiB`,
        `${fixed(result.rssAfterMiB!)} MiB`,
      ]);
      console.log(
        `[bench] fairness flood ${round}: bystander p50 ${ms(result.bystander.p50)} ms, p99 ${ms(result.bystander.p99)} ms; RSS ${fixed(result.rssAfterMiB!)} MiB`,
      );
    }
    const worst = (pick: (r: FairnessResult) => number) => Math.max(...floods.map(pick));
    const verdict = (value: number, goal: number, unit: string) =>
      `${fixed(value, 1)} ${unit} against a goal under ${goal} ${unit}: ${value < goal ? 'met' : 'not met'}`;
    findings.push(
      `Bystander median during a flood, the worse of two: ${verdict(
        worst((r) => r.bystander.p50),
        fairnessGoals.p50,
        'ms',
      )}.`,
    );
    findings.push(
      `Bystander p99 during a flood, the worse of two: ${verdict(
        worst((r) => r.bystander.p99),
        fairnessGoals.p99,
        'ms',
      )}.`,
    );
    findings.push(
      `Resident memory after the floods, the larger: ${verdict(
        worst((r) => r.rssAfterMiB!),
        fairnessGoals.rssMiB,
        'MiB',
      )}.`,
    );
    const refused = floods.every((r) => r.bystander.statuses['200'] === r.bystander.requests);
    findings.push(
      refused
        ? 'The bystander was answered 200 every time.'
        : 'The bystander got answers other than 200 (see the rows).',
    );
  } finally {
    await server.stop();
  }
  return {
    title: 'Fairness: one address floods unique live URLs',
    about: `A fresh \`server.ts\` (real content, embedded storage, the real counter store). The flood: ${seconds} s over 32 connections from one address, each request a live URL no one asked for before (unknown query parameters, unknown trip filters and slugs, enquiry references; \`tests/helpers/fairness.ts\`), asking for Brotli, in a worker thread. The bystander: \`${bystanderPaths.join('`, `')}\` in turn, one request at a time with 20 ms between, from addresses of its own. Resident memory (RSS) of the server process before and after each flood.`,
    header: [
      'Scenario',
      'Bystander requests',
      'p50 ms',
      'p99 ms',
      'max ms',
      'Flood answered',
      'RSS before',
      'RSS after',
    ],
    rows,
    findings,
  };
}
