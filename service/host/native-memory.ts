/**
 * The host's memory settings that must be in place when the process starts: V8's young
 * generation, and how glibc's malloc (beneath V8's heap) gives memory back.
 *
 * V8's young generation at 16 MiB (`--max-semi-space-size=8`; otherwise it grows to about 96 MiB
 * under a burst of requests and gives it back only after seconds idle): `npm start` and
 * `npm run serve` pass it, and a host started without it (`node server.ts`, as the tests start
 * it) adds it.
 *
 * malloc:
 * Measured (scripts/bench/fairness.ts, and RSS at rest of a fresh server): with glibc's defaults
 * a fresh server rests at about 370 MiB, about 150 MiB of it left behind by PGlite's first start
 * (its initdb) in freed blocks malloc keeps. With blocks from 64 KiB mapped on their own
 * (returned whole when freed) and the heap's free top returned from 128 KiB (both fixed rather
 * than raised by malloc as it goes), it rests at about 215 MiB, at no measurable cost per
 * request; with blocks from 16 KiB mapped on their own (V8's compiler zones for PGlite's
 * WebAssembly, up to 32 KiB a block, among them), at about 195 MiB (211–219 MiB with 64 KiB in
 * the same runs). No request's own work allocates blocks that large: files and kept answers are
 * written from buffers made once. Fewer arenas (MALLOC_ARENA_MAX=2) saved another 10 MiB or so but cost 2 to 3 µs of
 * CPU a request (the main thread and V8's helper threads then share arenas), so it is not set.
 *
 * Both are read once, at process start; a host started without them starts itself again at
 * once with them: process.execve keeps the process id, arguments and standard streams, and
 * settings already given (in the environment, in the Node options) win. The malloc settings are
 * for Linux (glibc); on Windows, where there is no execve, nothing changes.
 */
export const mallocSettings: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '16384',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** The Node option that sizes V8's young generation for the host. */
export const youngGeneration = '--max-semi-space-size=8';

export function withHostMemorySettings(): void {
  if (typeof process.execve !== 'function') return;
  const linux = process.platform === 'linux';
  const mallocMissing = linux && Object.keys(mallocSettings).some((name) => process.env[name] === undefined);
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const youngMissing = !given.some((option) => option.startsWith('--max-semi-space-size'));
  if (!mallocMissing && !youngMissing) return;
  process.execve(
    process.execPath,
    [process.execPath, ...(youngMissing ? [youngGeneration] : []), ...process.execArgv, ...process.argv.slice(1)],
    linux ? { ...mallocSettings, ...process.env } : { ...process.env },
  );
}
