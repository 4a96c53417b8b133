/**
 * Load runs with autocannon against servers on 127.0.0.1. The machine is shared and noisy, so a
 * candidate is never measured alone: each round runs every contender once, the order rotating
 * from round to round, and the figures reported are medians over the rounds.
 */
import autocannon from 'autocannon';

export interface LoadSettings {
  rounds: number;
  seconds: number;
  connections: number;
}

export interface RunFigures {
  /** Mean requests per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  /** Answers outside 2xx, and socket errors or timeouts: a run with either is flagged. */
  non2xx: number;
  errors: number;
}

export interface Contender {
  label: string;
  url: string;
  headers?: Record<string, string>;
}

export interface Medians {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and errors summed over every round. */
  non2xx: number;
  errors: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function loadRun(contender: Contender, seconds: number, connections: number): Promise<RunFigures> {
  const result = await autocannon({ url: contender.url, headers: contender.headers ?? {}, duration: seconds, connections, timeout: 10 });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Every contender once per round (after one discarded warm-up each); medians per contender. */
export async function interleaved(contenders: Contender[], settings: LoadSettings): Promise<Medians[]> {
  for (const c of contenders) await loadRun(c, 1, settings.connections);
  const runs = contenders.map(() => [] as RunFigures[]);
  for (let round = 0; round < settings.rounds; round += 1) {
    for (let i = 0; i < contenders.length; i += 1) {
      const index = (i + round) % contenders.length;
      runs[index]!.push(await loadRun(contenders[index]!, settings.seconds, settings.connections));
    }
  }
  return contenders.map((c, i) => {
    const r = runs[i]!;
    return {
      label: c.label,
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      non2xx: r.reduce((n, x) => n + x.non2xx, 0),
      errors: r.reduce((n, x) => n + x.errors, 0),
    };
  });
}
