/**
 * Retries an assertion until it holds or `withinMs` passes: for live outputs that may keep a
 * storage read for up to a second (service/departures/recent-reads.ts).
 */
export async function eventually<T>(check: () => Promise<T>, withinMs = 4000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}
