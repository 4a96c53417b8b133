/**
 * Retries an assertion until it holds: the one way the suite waits for something to happen (a
 * server to answer, a line in a log, storage to come back, a live output that may keep a
 * storage read for up to a second, service/departures/recent-reads.ts).
 *
 * It gives up after `withinMs` of the clock, or sooner when `unless` throws (a process that
 * exited, a server that has used its budget of CPU without answering), with the error of the
 * last try or of `unless`. A wait whose end the machine's load moves gives a generous
 * `withinMs` and says in `unless` what really means "never".
 */
export interface Patience {
  /** The longest wait by the clock; 10 s unless given (a generous bound: a wait that succeeds ends at once). */
  withinMs?: number;
  /** The pause between tries; 150 ms unless given. */
  everyMs?: number;
  /** Asked before each try: throws to end the wait at once. */
  unless?: () => void;
}

export async function eventually<T>(check: () => Promise<T>, patience: number | Patience = {}): Promise<T> {
  const { withinMs = 10_000, everyMs = 150, unless } = typeof patience === 'number' ? { withinMs: patience } : patience;
  const deadline = Date.now() + withinMs;
  for (;;) {
    unless?.();
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}

/** Fails with `message` once `child` has exited: for `unless`. */
export function whileRunning(child: { exitCode: number | null; signalCode?: string | null }, message: () => string) {
  return (): void => {
    if (child.exitCode !== null || (child.signalCode ?? null) !== null) throw new Error(message());
  };
}
