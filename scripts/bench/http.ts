/**
 * Pages, Markdown twins and /v1 through the local server against the bytes baseline: the same
 * status, headers and body sent from memory by a bare node:http server. The load comes from
 * many client addresses, so every request passes the real counter store and none is refused.
 */
import path from 'node:path';
import { fixed, ratio, type Section } from './report.ts';
import type { Recording } from './bytes-server.ts';
import {
  cpuRatio,
  loadProfiles,
  mediansOf,
  oneRound,
  roundCpuRatios,
  sliceWords,
  warmUp,
  type Contender,
  type LoadProfileName,
  type LoadSettings,
  type Medians,
  type RunFigures,
} from './load.ts';
import { cores, startChildServer, type ChildServer } from './processes.ts';
import { openEmbeddedStore, record, startBenchServer, startBytesServer, startNeverLimitingServer } from './site.ts';

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
 * seconds, taking turns, so the spread of these says how far the shared machine moved the median
 * (and, where each round has processes of its own, as in httpSection, how far the pairs differ).
 */
function roundRatios(server: Medians, baseline: Medians): string {
  return roundCpuRatios(server, baseline).map(ratio).join(', ');
}

export function comparisonRow(label: string, server: Medians, baseline: Medians, bytes: number): string[] {
  const flagged = server.non2xx + server.errors > 0 ? ` (${server.non2xx} non-2xx, ${server.errors} errors)` : '';
  return [
    `${label}${flagged}`,
    fixed(bytes),
    `${fixed(server.cpuUs, 1)} / ${fixed(baseline.cpuUs, 1)}`,
    ratio(cpuRatio(server, baseline)),
    roundRatios(server, baseline),
    `${fixed(server.quietestCpuUs, 1)} / ${fixed(baseline.quietestCpuUs, 1)}`,
    ratio(server.quietestCpuUs / baseline.quietestCpuUs),
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
  'Quietest slice: CPU µs per request, server / baseline',
  'Quietest slice: CPU ratio',
  'Server req/s',
  'Baseline req/s',
  'Throughput ratio',
  'p50 ms server / baseline',
  'p99 ms server / baseline',
];

/** The processes of one round, all started fresh for it: the server, the baseline, and the servers of the split rows. */
interface RoundProcesses {
  server: ChildServer;
  baseline: ChildServer;
  handlerOnly: ChildServer;
  neverLimiting: ChildServer;
}

async function startRound(siteDir: string, recordings: Recording[]): Promise<RoundProcesses> {
  const started: ChildServer[] = [];
  const start = async (starting: Promise<ChildServer>) => {
    const child = await starting;
    started.push(child);
    return child;
  };
  try {
    const server = await start(startBenchServer(siteDir));
    const baseline = await start(startBytesServer(recordings));
    const handlerOnly = await start(
      startChildServer(path.join(import.meta.dirname, 'api-server.ts'), {
        cwd: import.meta.dirname,
        readyPath: '/v1/',
      }),
    );
    const neverLimiting = await start(startNeverLimitingServer(siteDir));
    for (const s of [server, neverLimiting]) await openEmbeddedStore(s);
    return { server, baseline, handlerOnly, neverLimiting };
  } catch (error) {
    await Promise.all(started.map((child) => child.stop()));
    throw error;
  }
}

/** Who is measured on a path: the server and the baseline, and the split rows the path asks for. */
function contendersOf(t: Target, p: RoundProcesses): Contender[] {
  const on = (label: string, child: ChildServer): Contender => ({
    label,
    url: `${child.url}${t.path}`,
    pids: [child.process.pid!],
  });
  return [
    on('server', p.server),
    on('baseline', p.baseline),
    ...(t.split ? [on('never-limiting', p.neverLimiting)] : []),
    ...(t.handler ? [on('handler', p.handlerOnly)] : []),
  ];
}

/**
 * Every path against the bytes baseline under one load profile. Each round starts its processes
 * afresh (a server, a baseline, the split rows' servers), loads every path once to warm them all,
 * then measures each path in turns; the medians are over rounds, and so over processes: a ratio
 * moves with the pair of processes it comes from (docs/benchmarks.md), and one pair no longer
 * decides every path of a run. `recorder` is the server whose answers the baseline sends.
 */
export async function httpSection(
  recorder: ChildServer,
  siteDir: string,
  targets: Target[],
  settings: LoadSettings,
  profileName: LoadProfileName,
): Promise<Section> {
  const profile = loadProfiles[profileName];
  const load: LoadSettings = { ...settings, ...profile };
  const recordings: Recording[] = [];
  for (const t of targets) {
    const r = await record(recorder.url, t.path);
    if (r.status !== 200) throw new Error(`${t.path} answered ${r.status}; the benchmark needs a 200`);
    recordings.push(r);
  }
  const runs = targets.map(() => new Map<string, RunFigures[]>());
  for (let round = 0; round < load.rounds; round += 1) {
    const processes = await startRound(siteDir, recordings);
    try {
      // Every path once before any is measured, as a server that has served them all is.
      for (const t of targets) await warmUp(contendersOf(t, processes), load);
      for (const [i, t] of targets.entries()) {
        const contenders = contendersOf(t, processes);
        const figures = await oneRound(contenders, load, round);
        contenders.forEach((c, k) => runs[i]!.set(c.label, [...(runs[i]!.get(c.label) ?? []), figures[k]!]));
        const [s, b] = figures;
        console.log(
          `[bench] ${profileName} round ${round + 1} of ${load.rounds} ${t.path}: ${fixed(s!.cpuUs)} vs ${fixed(b!.cpuUs)} µs CPU per request`,
        );
      }
    } finally {
      await Promise.all(Object.values(processes).map((child: ChildServer) => child.stop()));
    }
  }
  const rows: string[][] = [];
  const cpuRatios: { label: string; value: number; quietest: number }[] = [];
  const splits: string[] = [];
  const handlerRatios: string[] = [];
  for (const [i, t] of targets.entries()) {
    const medians = (label: string) => {
      const r = runs[i]!.get(label);
      return r ? mediansOf(label, r) : undefined;
    };
    const s = medians('server')!;
    const b = medians('baseline')!;
    const n = medians('never-limiting');
    const h = medians('handler');
    const bytes = Buffer.from(recordings[i]!.bodyBase64, 'base64').length;
    rows.push(comparisonRow(`${t.label}: \`${t.path}\``, s, b, bytes));
    if (n) {
      rows.push(
        comparisonRow('… split: the same server with a counter store that never limits (bench only)', n, b, bytes),
      );
      splits.push(`\`${t.path}\` ${fixed(s.cpuUs - n.cpuUs, 1)} µs`);
    }
    if (h) {
      rows.push(comparisonRow('… split: handleV1 alone in a bare node:http server', h, b, bytes));
      handlerRatios.push(`\`${t.path}\` ${ratio(h.rps / b.rps)}`);
    }
    cpuRatios.push({ label: t.path, value: cpuRatio(s, b), quietest: s.quietestCpuUs / b.quietestCpuUs });
    console.log(
      `[bench] ${profileName} ${t.path}: ${fixed(s.rps)} vs ${fixed(b.rps)} req/s, ${fixed(s.cpuUs)} vs ${fixed(b.cpuUs)} µs CPU per request`,
    );
  }
  return {
    title: `Pages, Markdown twins and /v1 against the bytes baseline: ${profile.about}`,
    about: `Load profile \`${profileName}\`: ${profile.about}, ${load.rounds} rounds of ${load.seconds} s per contender (${sliceWords(load)}), each round with processes started afresh for it and every path loaded once before any is measured, medians over the rounds. Each path through \`server.ts\` as \`npm start\` runs it (the request rules with the real in-process counter store, then a built file or a live function of \`functions/\`, routed by the same table as on Vercel), against \`scripts/bench/bytes-server.ts\` answering the same status, headers and body from memory. The load comes from many client addresses (a fresh 127.x.y.z with each new connection), so every request is counted and none refused. Uncompressed (the client sends only \`Host\`). The headline: CPU = the server process's own CPU time per request (all threads, from /proc), and CPU ratio = the median of the rounds' own ratios, server / baseline (each round's pair measured side by side), goal ${ratio(cpuGoal)} or less. Beside it, each contender's quietest slice of all the rounds (its least CPU per request in one slice, with what the round left for between its slices spread over its requests): another tenant of the machine only ever adds to a slice's CPU, so these are what each one costs in the quietest slice the run had. Every server runs on core ${cores?.server ?? '(unpinned)'} and the load generator on core ${cores?.load ?? '(unpinned)'} (\`taskset\`), so the throughput columns say what one core of each does, not what the load generator allows. Split rows below some paths: the same server with the bench-only counter store that never limits (\`scripts/bench/counter-store.ts\`), and \`handleV1\` alone in a bare node:http server (\`scripts/bench/api-server.ts\`), each against the same baseline.`,
    header: comparisonHeader,
    rows,
    findings: [
      ...cpuRatios.map(
        (g) =>
          `\`${g.label}\`: ${ratio(g.value)}× the baseline's CPU per request, goal ${ratio(cpuGoal)}× or less: ${g.value <= cpuGoal ? 'met' : 'not met'} (quietest slices: ${ratio(g.quietest)}×).`,
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
