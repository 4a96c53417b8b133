/**
 * A counter store that fails is logged once per interval (with how many hits failed since),
 * and its recovery once, so an outage neither floods the log nor goes unnoticed.
 */
const storeFailureLogIntervalMs = 60_000;
const storeOutage = { since: 0, loggedAt: 0, failures: 0 };

export function reportStoreFailure(error: unknown): void {
  const now = Date.now();
  storeOutage.failures += 1;
  if (storeOutage.since === 0) storeOutage.since = now;
  if (now - storeOutage.loggedAt < storeFailureLogIntervalMs) return;
  const reason = error instanceof Error ? error.message : String(error);
  console.error(
    `[rate-limit] counter store unavailable, not limiting (uncounted requests so far: ${storeOutage.failures}): ${reason}`,
  );
  storeOutage.loggedAt = now;
}

export function reportStoreHealthy(): void {
  if (storeOutage.since === 0) return;
  console.info(
    `[rate-limit] counter store reachable again after ${Math.round((Date.now() - storeOutage.since) / 1000)} s (uncounted requests: ${storeOutage.failures})`,
  );
  storeOutage.since = 0;
  storeOutage.loggedAt = 0;
  storeOutage.failures = 0;
}
