/**
 * Load runs against servers on 127.0.0.1, from many loopback client addresses
 * (tests/helpers/loopback-load.ts): each connection moves to a fresh 127.x.y.z address after 100
 * requests, so the real per-client quota of 120 a minute is counted for every request and never
 * reached. The machine is shared and noisy, so a candidate is never measured alone: each round
 * runs every contender for the same seconds, in slices of a quarter of a second that the
 * contenders take in turn (the order rotating from slice to slice and round to round), so that
 * what another tenant of the machine does within a round weighs on all of them alike: its spells
 * last seconds, so slices of a second each, three or four contenders taking turns, put the
 * contenders of one round in different spells. The figures reported are medians over the rounds,
 * and a ratio is the median of the rounds' own ratios, each between contenders measured side by
 * side. Beside throughput, the server's own CPU time per request is read from /proc, which
 * tells a server at its limit from a load generator at its own.
 */
import { readFileSync } from 'node:fs';
import { freshAddresses, percentile, runLoad } from '../../tests/helpers/loopback-load.ts';

export interface LoadSettings {
  rounds: number;
  /** Each contender's seconds of load in a round. */
  seconds: number;
  /** The slices those seconds are run in, the contenders taking turns (default: four a second). */
  slices?: number;
  connections: number;
  /** Requests on one connection before it closes and the next opens from a fresh address (default 100). */
  requestsPerConnection?: number;
}

/**
 * The two shapes of load every HTTP path is held to. Both open a new connection, from a fresh
 * client address, every 100 requests, so the per-client quota is counted and never reached.
 * `steady`: 10 connections, the bench's own; `fewer`: 8 clients, as an outside bench loads a
 * server, where each request shares its server turn with fewer others, so what a request costs
 * by itself (and a connection's setup) weighs more.
 */
export const loadProfiles = {
  steady: {
    connections: 10,
    requestsPerConnection: 100,
    about: '10 connections, a new one (from a fresh address) every 100 requests',
  },
  fewer: {
    connections: 8,
    requestsPerConnection: 100,
    about: '8 clients, each opening a new connection (from a fresh address) every 100 requests',
  },
} as const;
export type LoadProfileName = keyof typeof loadProfiles;

export interface RunFigures {
  /** Completed requests per second over the run. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Answers outside 2xx, and socket errors or timeouts: a run with either is flagged. */
  non2xx: number;
  errors: number;
  /** Server CPU time per request in microseconds, and its share of one core over the run (NaN when unknown). */
  cpuUs: number;
  cpuShare: number;
  /**
   * CPU time per request in the contender's quietest slice (the one with the least CPU per
   * request), with the work the round's requests left for between slices spread over them as in
   * `cpuUs`. Another tenant of the machine only ever adds to a slice's CPU, so this is what the
   * contender costs in the quietest second the run had (NaN when unknown).
   */
  quietestCpuUs: number;
}

export interface Contender {
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** The processes serving it, for their CPU time. */
  pids?: number[];
}

/**
 * The medians over the rounds, the CPU time per request of each round in the order run (for the
 * spread of a ratio), and the quietest slice of all the rounds (`quietestCpuUs`, the least).
 */
export type Medians = RunFigures & { label: string; cpuUsByRound: number[] };

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** CPU seconds used so far by these processes, all their threads (user and system time). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  // /proc counts in USER_HZ, which Linux fixes at 100 a second for user space.
  return ticks / 100;
}

/** What one stretch of load against one contender gave, before it is summed into a round. */
export interface Slice {
  requests: number;
  seconds: number;
  /** The contender's CPU seconds over the slice (NaN when its processes are unknown). */
  cpu: number;
  latencies: Float64Array;
  non2xx: number;
  errors: number;
}

async function loadSlice(
  contender: Contender,
  seconds: number,
  connections: number,
  requestsPerConnection = 100,
): Promise<Slice> {
  const url = new URL(contender.url);
  const cpuBefore = contenderCpu(contender);
  const result = await runLoad({
    port: Number(url.port),
    path: url.pathname + url.search,
    headers: contender.headers ?? {},
    connections,
    durationMs: seconds * 1000,
    address: freshAddresses(),
    requestsPerAddress: requestsPerConnection,
  });
  const cpu = contenderCpu(contender) - cpuBefore;
  let non2xx = 0;
  for (const [status, count] of result.statuses) if (status < 200 || status > 299) non2xx += count;
  const { requests, latencies, errors } = result;
  return { requests, seconds: result.seconds, cpu, latencies, non2xx, errors };
}

/**
 * One contender's round: its slices summed, latencies pooled. CPU per request is the CPU its
 * processes used over the whole round, between its slices too, over the requests of its slices:
 * what a server puts off while it waits for its next turn (V8 collects garbage and shrinks its
 * heap once requests stop coming) is still work those requests made.
 */
export function roundFigures(slices: Slice[], roundCpu: number): RunFigures {
  const sum = (pick: (s: Slice) => number) => slices.reduce((n, s) => n + pick(s), 0);
  const requests = sum((s) => s.requests);
  const seconds = sum((s) => s.seconds);
  const cpu = sum((s) => s.cpu);
  const latencies = new Float64Array(sum((s) => s.latencies.length));
  let at = 0;
  for (const s of slices) {
    latencies.set(s.latencies, at);
    at += s.latencies.length;
  }
  /** CPU seconds over `n` requests, as microseconds a request. */
  const usEach = (cpuSeconds: number, n: number) => (cpuSeconds / Math.max(1, n)) * 1e6;
  // What the round's processes did between its slices, per request of the round.
  const betweenUs = usEach(Math.max(0, roundCpu - cpu), requests);
  const sliceUs = slices.filter((s) => s.requests > 0).map((s) => usEach(s.cpu, s.requests));
  return {
    rps: requests / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    cpuUs: usEach(roundCpu, requests),
    cpuShare: cpu / seconds,
    quietestCpuUs: sliceUs.length ? Math.min(...sliceUs) + betweenUs : NaN,
  };
}

/** CPU seconds used so far by a contender's processes (NaN when they are unknown). */
const contenderCpu = (c: Contender) => (c.pids?.length ? cpuSeconds(c.pids) : NaN);

/** How many slices each contender's seconds in a round are run in. */
const sliceCount = (settings: LoadSettings) => Math.max(1, Math.round(settings.slices ?? settings.seconds * 4));

/** How a round's seconds are taken, for the report. */
export function sliceWords(settings: LoadSettings): string {
  const n = sliceCount(settings);
  return n === 1
    ? 'each at a stretch'
    : `in ${n} slices of ${+(settings.seconds / n).toFixed(2)} s, the contenders taking turns`;
}

/** Each contender loaded for `seconds`, one after the other, the figures discarded: the JIT settles, the answers are kept. */
export async function warmUp(contenders: Contender[], settings: LoadSettings, seconds = 1): Promise<void> {
  for (const c of contenders) await loadSlice(c, seconds, settings.connections, settings.requestsPerConnection);
}

/**
 * One round: every contender for `settings.seconds`, in slices the contenders take in turn, the
 * order rotating from slice to slice and, by `round`, from round to round; each contender's
 * figures, in the order given.
 */
export async function oneRound(contenders: Contender[], settings: LoadSettings, round: number): Promise<RunFigures[]> {
  const slices = sliceCount(settings);
  const taken = contenders.map(() => [] as Slice[]);
  const cpuAtStart = contenders.map(contenderCpu);
  for (let turn = 0; turn < slices; turn += 1) {
    for (let i = 0; i < contenders.length; i += 1) {
      const index = (i + round + turn) % contenders.length;
      taken[index]!.push(
        await loadSlice(
          contenders[index]!,
          settings.seconds / slices,
          settings.connections,
          settings.requestsPerConnection,
        ),
      );
    }
  }
  return taken.map((t, index) => roundFigures(t, contenderCpu(contenders[index]!) - cpuAtStart[index]!));
}

/** A contender's medians over its rounds (`runs`, in the order run). */
export function mediansOf(label: string, runs: RunFigures[]): Medians {
  const mid = (pick: (x: RunFigures) => number) => median(runs.map(pick));
  return {
    label,
    rps: mid((x) => x.rps),
    p50: mid((x) => x.p50),
    p99: mid((x) => x.p99),
    non2xx: runs.reduce((n, x) => n + x.non2xx, 0),
    errors: runs.reduce((n, x) => n + x.errors, 0),
    cpuUs: mid((x) => x.cpuUs),
    cpuUsByRound: runs.map((x) => x.cpuUs),
    cpuShare: mid((x) => x.cpuShare),
    quietestCpuUs: Math.min(...runs.map((x) => x.quietestCpuUs)),
  };
}

/** Each round's CPU per request of a contender over another's, in the order the rounds ran: the two measured side by side. */
export function roundCpuRatios(contender: Medians, baseline: Medians): number[] {
  return contender.cpuUsByRound.map((us, round) => us / baseline.cpuUsByRound[round]!);
}

/**
 * A contender's CPU per request over another's: the median of the rounds' own ratios. Not the
 * ratio of the two medians, which can pair one contender's round with the other's from a
 * different spell of the machine.
 */
export function cpuRatio(contender: Medians, baseline: Medians): number {
  return median(roundCpuRatios(contender, baseline));
}

/**
 * Every contender for the same seconds in each round (after one discarded warm-up second each),
 * in slices the contenders take in turn; medians over the rounds per contender.
 */
export async function interleaved(contenders: Contender[], settings: LoadSettings): Promise<Medians[]> {
  await warmUp(contenders, settings);
  const runs = contenders.map(() => [] as RunFigures[]);
  for (let round = 0; round < settings.rounds; round += 1) {
    const figures = await oneRound(contenders, settings, round);
    figures.forEach((f, index) => runs[index]!.push(f));
  }
  return contenders.map((c, i) => mediansOf(c.label, runs[i]!));
}
