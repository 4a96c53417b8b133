/**
 * Test-only preload for a server under test (NODE_OPTIONS="--expose-gc --import=<this file>"):
 * on SIGUSR2 it runs a full garbage collection and prints the live heap and resident memory,
 * so a test can tell memory still in use (a leak) from heap V8 has reserved and not yet given
 * back (which resident memory alone cannot).
 */
process.on('SIGUSR2', () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
  const { heapUsed, external, rss } = process.memoryUsage();
  process.stderr.write(`[heap-probe] used=${heapUsed} external=${external} rss=${rss}\n`);
});
