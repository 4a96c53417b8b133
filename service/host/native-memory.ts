/**
 * How the host's native memory (glibc's malloc, beneath V8's heap) is kept from only growing.
 * Measured with scripts/bench/fairness.ts: with glibc's defaults a fresh server rests at about
 * 370 MiB, about 130 MiB of it left behind by PGlite's first start (its initdb) in freed blocks
 * malloc keeps, and the main heap holds what a flood made long after it ends. With large blocks
 * mapped on their own (returned whole when freed), the heap's free top returned from 128 KiB,
 * and two arenas instead of eight per core (the libuv pool's compressions and V8's helper
 * threads otherwise each hold their own), it rests at about 215 MiB.
 *
 * glibc reads these settings once, at process start; a host started without them (`npm start`,
 * `node server.ts`) starts itself again at once with them: process.execve keeps the process id,
 * arguments and standard streams, and settings already in the environment win. Elsewhere
 * (macOS, Windows, musl) nothing changes.
 */
export const mallocSettings: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

export function withMallocSettings(): void {
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return;
  if (Object.keys(mallocSettings).every((name) => process.env[name] !== undefined)) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...mallocSettings, ...process.env });
}
