/**
 * Pages, Markdown twins and /v1 through the local server against the bytes baseline: the same
 * status, headers and body sent from memory by a bare node:http server. The load comes from
 * many client addresses, so every request passes the real counter store and none is refused.
 */
import path from 'node:path';
import { fixed, ratio, type Section } from './report.ts';
import {
  interleaved,
  loadProfiles,
  sliceWords,
  type Contender,
  type LoadProfileName,
  type LoadSettings,
  type Medians,
} from './load.ts';
import { cores, startChildServer, type ChildServer } from './processes.ts';
import { record, startBytesServer, startNeverLimitingServer } from './site.ts';

export interface Target {
  label: string;
  path: string;
  /** Also measure handleV1 alone on this path (scripts/bench/api-server.ts). */
  handler?: boolean;
  /** Also measure the server with the counter store that never limits, to split out the counter's cost. */
  split?: boolean;
}

const ms = (n: number) => fixed(n, n < 10 ? 2 : 1);

/** The headline goal: the server's CPU time per request at most this many times the baseline's for the same bytes. */
const cpuGoal = 1.25;

/**
 * Each round's CPU ratio, in the order the rounds ran: a round runs every contender for the same
 * seconds, taking turns, so the spread of these says how far the shared machine moved the median.
 */
function roundRatios(server: Medians, baseline: Medians): string {
  return server.cpuUsByRound.map((us, i) => ratio(us / baseline.cpuUsByRound[i]!)).join(', ');
}

export function comparisonRow(label: string, server: Medians, baseline: Medians, bytes: number): string[] {
  const flagged = server.non2xx + server.errors > 0 ? ` (${server.non2xx} non-2xx, ${server.errors} errors)` : '';
  return [
    `${label}${flagged}`,
    fixed(bytes),
    `${fixed(server.cpuUs, 1)} / ${fixed(baseline.cpuUs, 1)}`,
    ratio(server.cpuUs / baseline.cpuUs),
    roundRatios(server, baseline),
    fixed(server.rps),
    fixed(baseline.rps),
    ratio(server.rps / baseline.rps),
    `${ms(server.p50)} / ${ms(baseline.p50)}`,
    `${ms(server.p99)} / ${ms(baseline.p99)}`,
  ];
}

export const comparisonHeader = [
  'Path',
  'Body bytes',
  'CPU µs per request, server / baseline',
  'CPU ratio',
  'CPU ratio by round',
  'Server req/s',
  'Baseline req/s',
  'Throughput ratio',
  'p50 ms server / baseline',
  'p99 ms server / baseline',
];

export async function httpSection(
  server: ChildServer,
  siteDir: string,
  targets: Target[],
  settings: LoadSettings,
  profileName: LoadProfileName,
): Promise<Section> {
  const profile = loadProfiles[profileName];
  const load: LoadSettings = { ...settings, ...profile };
  const recordings = [];
  for (const t of targets) {
    const r = await record(server.url, t.path);
    if (r.status !== 200) throw new Error(`${t.path} answered ${r.status}; the benchmark needs a 200`);
    recordings.push(r);
  }
  const baseline = await startBytesServer(recordings);
  const handlerOnly = await startChildServer(path.join(import.meta.dirname, 'api-server.ts'), {
    cwd: import.meta.dirname,
    readyPath: '/v1/',
  });
  const neverLimiting = await startNeverLimitingServer(siteDir);
  await (await fetch(`${neverLimiting.url}/v1/departures`)).arrayBuffer();
  const rows: string[][] = [];
  const cpuRatios: { label: string; value: number }[] = [];
  const splits: string[] = [];
  const handlerRatios: string[] = [];
  try {
    for (const [i, t] of targets.entries()) {
      const contenders: Contender[] = [
        { label: 'server', url: `${server.url}${t.path}`, pids: [server.process.pid!] },
        { label: 'baseline', url: `${baseline.url}${t.path}`, pids: [baseline.process.pid!] },
      ];
      if (t.split)
        contenders.push({
          label: 'never-limiting',
          url: `${neverLimiting.url}${t.path}`,
          pids: [neverLimiting.process.pid!],
        });
      if (t.handler)
        contenders.push({ label: 'handler', url: `${handlerOnly.url}${t.path}`, pids: [handlerOnly.process.pid!] });
      const figures = await interleaved(contenders, load);
      const [s, b] = figures;
      const n = figures.find((f) => f.label === 'never-limiting');
      const h = figures.find((f) => f.label === 'handler');
      const bytes = Buffer.from(recordings[i]!.bodyBase64, 'base64').length;
      rows.push(comparisonRow(`${t.label}: \`${t.path}\``, s!, b!, bytes));
      if (n) {
        rows.push(
          comparisonRow('… split: the same server with a counter store that never limits (bench only)', n, b!, bytes),
        );
        splits.push(`\`${t.path}\` ${fixed(s!.cpuUs - n.cpuUs, 1)} µs`);
      }
      if (h) {
        rows.push(comparisonRow('… split: handleV1 alone in a bare node:http server', h, b!, bytes));
        handlerRatios.push(`\`${t.path}\` ${ratio(h.rps / b!.rps)}`);
      }
      cpuRatios.push({ label: t.path, value: s!.cpuUs / b!.cpuUs });
      console.log(
        `[bench] ${profileName} ${t.path}: ${fixed(s!.rps)} vs ${fixed(b!.rps)} req/s, ${fixed(s!.cpuUs)} vs ${fixed(b!.cpuUs)} µs CPU per request`,
      );
    }
  } finally {
    await baseline.stop();
    await handlerOnly.stop();
    await neverLimiting.stop();
  }
  return {
    title: `Pages, Markdown twins and /v1 against the bytes baseline: ${profile.about}`,
    about: `Load profile \`${profileName}\`: ${profile.about}, ${load.rounds} rounds of ${load.seconds} s per contender (${sliceWords(load)}), medians. Each path through \`server.ts\` as \`npm start\` runs it (the request rules with the real in-process counter store, then a built file or a live function of \`functions/\`, routed by the same table as on Vercel), against \`scripts/bench/bytes-server.ts\` answering the same status, headers and body from memory. The load comes from many client addresses (a fresh 127.x.y.z with each new connection), so every request is counted and none refused. Uncompressed (the client sends only \`Host\`). The headline: CPU = the server process's own CPU time per request (all threads, from /proc), and CPU ratio = server / baseline, goal ${ratio(cpuGoal)} or less. Every server runs on core ${cores?.server ?? '(unpinned)'} and the load generator on core ${cores?.load ?? '(unpinned)'} (\`taskset\`), so the throughput columns say what one core of each does, not what the load generator allows. Split rows below some paths: the same server with the bench-only counter store that never limits (\`scripts/bench/counter-store.ts\`), and \`handleV1\` alone in a bare node:http server (\`scripts/bench/api-server.ts\`), each against the same baseline.`,
    header: comparisonHeader,
    rows,
    findings: [
      ...cpuRatios.map(
        (g) =>
          `\`${g.label}\`: ${ratio(g.value)}× the baseline's CPU per request, goal ${ratio(cpuGoal)}× or less: ${g.value <= cpuGoal ? 'met' : 'not met'}.`,
      ),
      ...(splits.length
        ? [
            `The real counter store costs, in server CPU per request: ${splits.join(', ')} (the never-limiting store still runs the rest of the rules).`,
          ]
        : []),
      ...(handlerRatios.length
        ? [
            `handleV1 alone, without the request rules and the host, reaches ${handlerRatios.join(', ')} of the baseline.`,
          ]
        : []),
    ],
  };
}
