/**
 * How the host's native memory (glibc's malloc, beneath V8's heap) is kept from only growing.
 * Measured (scripts/bench/fairness.ts, and RSS at rest of a fresh server): with glibc's defaults
 * a fresh server rests at about 370 MiB, about 150 MiB of it left behind by PGlite's first start
 * (its initdb) in freed blocks malloc keeps. With blocks from 64 KiB mapped on their own
 * (returned whole when freed) and the heap's free top returned from 128 KiB (both fixed rather
 * than raised by malloc as it goes), it rests at about 215 MiB, at no measurable cost per
 * request. Fewer arenas (MALLOC_ARENA_MAX=2) saved another 10 MiB or so but cost 2 to 3 µs of
 * CPU a request (the main thread and V8's helper threads then share arenas), so it is not set.
 *
 * glibc reads these settings once, at process start; a host started without them (`npm start`,
 * `node server.ts`) starts itself again at once with them: process.execve keeps the process id,
 * arguments and standard streams, and settings already in the environment win. Elsewhere
 * (macOS, Windows, musl) nothing changes.
 */
export const mallocSettings: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

export function withMallocSettings(): void {
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return;
  if (Object.keys(mallocSettings).every((name) => process.env[name] !== undefined)) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...mallocSettings, ...process.env });
}
