/**
 * The host's memory settings that must be in place when the process starts: V8's young
 * generation, how V8 compiles PGlite's WebAssembly, and how glibc's malloc (beneath V8's heap)
 * gives memory back.
 *
 * V8's young generation at 16 MiB (`--max-semi-space-size=8`; otherwise it grows to about 96 MiB
 * under a burst of requests and gives it back only after seconds idle).
 *
 * PGlite's WebAssembly compiled by V8's baseline compiler only (`--liftoff-only`). By default V8
 * recompiles the functions a running module uses most with its optimising compiler, in the
 * background; for PGlite's Postgres that happens about a second after the embedded database
 * opens and takes about 500 MiB for a fraction of a second. Measured on a fresh server with the
 * embedded database (this machine, two runs each): peak RSS 679 MiB by default against 155 to
 * 168 MiB; 1.4 s of CPU to start and open it against 0.6 to 0.9 s; a departures query 1.6 to
 * 1.9 ms either way (the data is a few hundred rows). The option takes effect only from the
 * command line: V8 reads it when the process starts, and Node refuses it in NODE_OPTIONS.
 *
 * `npm start` and `npm run serve` pass both, and a host started without them
 * (`node server.ts`) adds them.
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
 * Those figures are from before `--liftoff-only`, when the optimising compiler's zones were
 * among the blocks. With it, a server with the real catalogue and the embedded database rests at 153, 161
 * and 160 MiB with blocks from 16, 64 and 128 KiB mapped on their own, and at about 178 MiB
 * after 600 requests in each; the 16 KiB setting is kept, since a side-by-side bench of
 * 16 and 128 KiB showed no difference in CPU a request beyond its noise.
 * The setting costs CPU where V8 compiles: its optimising compilers (Maglev and TurboFan, on V8's
 * worker threads) take zone blocks of up to 32 KiB, each then mapped and given back on its own
 * (`strace -k` on a warming server, 1 December 2026: 391 mmap/munmap pairs in 5,000 requests with
 * 16 KiB, none with 64 KiB). That shows at start and while the compilers warm up, not once they
 * are done. 64 KiB keeps those blocks in malloc's arenas and rests higher, with little room left
 * under the 200 MiB goal, so 16 KiB stays; a change here is to be read from the bench's memory
 * at rest (scripts/bench/fairness.ts) and its CPU a request, side by side.
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

/** The Node option that leaves PGlite's WebAssembly to V8's baseline compiler. */
export const baselineWebAssembly = '--liftoff-only';

/** The Node options the host starts with: V8's young generation, and PGlite's WebAssembly left to the baseline compiler. */
export const hostNodeOptions: readonly string[] = ['--max-semi-space-size=8', baselineWebAssembly];

/** An option counts as given under its own name, whatever its value (`--max-semi-space-size=4` is a young generation given). */
const optionName = (option: string) => option.split('=')[0];

export function withHostMemorySettings(): void {
  if (typeof process.execve !== 'function') return;
  const linux = process.platform === 'linux';
  const mallocMissing = linux && Object.keys(mallocSettings).some((name) => process.env[name] === undefined);
  const given = new Set([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map(optionName));
  const optionsMissing = hostNodeOptions.filter((option) => !given.has(optionName(option)));
  if (!mallocMissing && optionsMissing.length === 0) return;
  process.execve(
    process.execPath,
    [process.execPath, ...optionsMissing, ...process.execArgv, ...process.argv.slice(1)],
    linux ? { ...mallocSettings, ...process.env } : { ...process.env },
  );
}
