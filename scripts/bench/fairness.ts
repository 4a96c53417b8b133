/**
 * The fairness scenario (tests/helpers/fairness.ts) on a fresh server.ts with the real content,
 * embedded storage and the real counter store: a bystander reading /v1 alone, then three times
 * during a flood of unique live URLs from one address over 32 connections, with the server's
 * resident memory at rest, at the end of each flood and after a pause. Goals: the bystander's
 * median under 20 ms and p99 under 250 ms during a flood; resident memory at rest at most
 * 200 MiB, after each flood (once it is over) at most 300 MiB, and not rising from one flood to
 * the next.
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

const fairnessGoals = { p50: 20, p99: 250, restMiB: 200, floodMiB: 300 };

const floods = [1, 2, 3];
/** Idle time before memory is read at rest, and after each flood. */
const pauseSeconds = 10;
const pause = () => new Promise((r) => setTimeout(r, pauseSeconds * 1000));

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
    await pause();
    const atRest = residentMiB(pid);
    rows.push([
      'Bystander alone',
      fixed(alone.requests),
      ms(alone.p50),
      ms(alone.p99),
      ms(alone.max),
      '—',
      `${fixed(atRest)} MiB (at rest)`,
      '—',
      '—',
    ]);
    const results: FairnessResult[] = [];
    const settled: number[] = [];
    for (const round of floods) {
      const result = await measureFairness({
        port: server.port,
        pid,
        seconds,
        slug,
        bystanderPaths,
        floodAddress: `127.0.77.${round}`,
      });
      results.push(result);
      await pause();
      settled.push(residentMiB(pid));
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
        `${fixed(settled.at(-1)!)} MiB`,
      ]);
      console.log(
        `[bench] fairness flood ${round}: bystander p50 ${ms(result.bystander.p50)} ms, p99 ${ms(result.bystander.p99)} ms; RSS ${fixed(result.rssAfterMiB!)} MiB, ${fixed(settled.at(-1)!)} MiB ${pauseSeconds} s later`,
      );
    }
    const worst = (pick: (r: FairnessResult) => number) => Math.max(...results.map(pick));
    const verdict = (value: number, goal: number, unit: string, under = true) =>
      `${fixed(value, 1)} ${unit} against a goal ${under ? 'under' : 'of at most'} ${goal} ${unit}: ${(under ? value < goal : value <= goal) ? 'met' : 'not met'}`;
    findings.push(
      `Bystander median during a flood, the worst of ${floods.length}: ${verdict(
        worst((r) => r.bystander.p50),
        fairnessGoals.p50,
        'ms',
      )}.`,
    );
    findings.push(
      `Bystander p99 during a flood, the worst of ${floods.length}: ${verdict(
        worst((r) => r.bystander.p99),
        fairnessGoals.p99,
        'ms',
      )}.`,
    );
    findings.push(
      `Resident memory at rest (embedded storage open, every function loaded): ${verdict(atRest, fairnessGoals.restMiB, 'MiB', false)}.`,
    );
    const rising = settled.slice(1).some((v, i) => v > settled[i]! + 8);
    findings.push(
      `Resident memory ${pauseSeconds} s after each flood: ${settled.map((v) => `${fixed(v)} MiB`).join(', ')}, the largest ${verdict(
        Math.max(...settled),
        fairnessGoals.floodMiB,
        'MiB',
        false,
      )}; ${rising ? 'rising from one flood to the next (more than 8 MiB)' : 'not rising from one flood to the next (within 8 MiB)'}.`,
    );
    findings.push(
      `Resident memory at the very end of a flood, the largest: ${fixed(worst((r) => r.rssAfterMiB!))} MiB (the flood's last answers and the garbage they left in V8's heap, given back within the ${pauseSeconds} s that follow).`,
    );
    const refused = results.every((r) => r.bystander.statuses['200'] === r.bystander.requests);
    findings.push(
      refused
        ? 'The bystander was answered 200 every time.'
        : 'The bystander got answers other than 200 (see the rows).',
    );
  } finally {
    await server.stop();
  }
  return {
    title: 'Fairness and memory: one address floods unique live URLs',
    about: `A fresh \`server.ts\` (real content, embedded storage, the real counter store). The flood: ${seconds} s over 32 connections from one address, each request a live URL no one asked for before (unknown query parameters, unknown trip filters and slugs, enquiry references; \`tests/helpers/fairness.ts\`), asking for Brotli, in a worker thread. The bystander: \`${bystanderPaths.join('`, `')}\` in turn, one request at a time with 20 ms between, from addresses of its own. Resident memory (RSS) of the server process at rest (after the warm-up, the bystander alone and ${pauseSeconds} s idle), before each flood, at its end, and ${pauseSeconds} s after it.`,
    header: [
      'Scenario',
      'Bystander requests',
      'p50 ms',
      'p99 ms',
      'max ms',
      'Flood answered',
      'RSS before',
      'RSS at the end',
      `RSS ${pauseSeconds} s later`,
    ],
    rows,
    findings,
  };
}
