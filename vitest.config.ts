import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { baselineWebAssembly } from './service/host/native-memory.ts';
import { runFolderInMemory } from './tests/helpers/run-folder-in-memory.ts';
import LongestFirst from './tests/helpers/sequencer.ts';
import { tiers } from './tests/tiers.ts';

// Node's compile cache for every process of the run (the workers, and the servers, commands and
// builds the tests start, which inherit this environment): a server then starts with about half
// the CPU, and a run starts a few hundred Node processes.
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'catalogue-tests-compile-cache');

// The run's scratch (databases, project copies, builds) in a folder of its own in memory, when
// the machine has room there and the run was given no TMPDIR: on disk, creating and removing
// those files cost a run about 20 s more of the kernel's CPU (tests/helpers/run-folder-in-memory.ts,
// docs/testing.md). The compile cache above stays on disk, kept from run to run.
if (process.env.TMPDIR === undefined) {
  const inMemory = runFolderInMemory();
  if (inMemory) {
    process.env.TMPDIR = inMemory.dir;
    process.once('exit', () => inMemory.remove());
  }
}

export default defineConfig({
  test: {
    // One project per tier (tests/tiers.ts, docs/testing.md): `npm test` runs them all,
    // `npm run test:<tier>` one of them.
    projects: tiers.map((tier) => ({
      test: {
        name: tier.name,
        include: tier.include,
        globalSetup: ['tests/helpers/global-setup.ts'],
        // The unit tier's files start no child process (tests/helpers/unit-setup.ts).
        setupFiles: ['tests/helpers/file-setup.ts', ...(tier.name === 'unit' ? ['tests/helpers/unit-setup.ts'] : [])],
        testTimeout: 30_000,
        // What a test waits for with expect.poll comes when the machine gets to it: a page's
        // script on a busy machine can take longer than Vitest's default second.
        expect: { poll: { timeout: 10_000 } },
        // A tier's files share its workers instead of each starting a process of its own: no
        // file leaves process-wide state a later one reads (an in-process server's settings stay
        // its own, tests/helpers/in-process.ts; what a file starts, it stops), and a process per
        // file cost about 95 s of the run's CPU (the worker's start, Vitest's and the file's
        // imports, the fixture site's modules loaded again). Workers are not shared across tiers:
        // the unit tier's have no child processes (tests/helpers/unit-setup.ts).
        isolate: false,
        // The workers host the embedded database as the Node host does (in-process servers,
        // handlers, commands): with the host's option for its WebAssembly, without which V8
        // compiles PGlite's busiest functions again about a second after it opens
        // (service/host/native-memory.ts).
        execArgv: [baselineWebAssembly],
        hookTimeout: 180_000,
      },
    })),
    // Two cores, three files at a time (tier by tier, the longest first: tests/helpers/sequencer.ts):
    // a browser file waits on Chromium and a storage file on its timeouts, so two files leave the
    // cores idle part of the time (npm test took 391 s with two at a time, 361 to 381 s with three,
    // when files of every tier ran side by side; tier by tier on 1 December, 702 s with two against
    // 657 and 700 s with three: docs/testing.md).
    maxWorkers: 3,
    // Test files and what they import are loaded by Node itself, as `node server.ts` loads the
    // site (TypeScript's types stripped, from the compile cache above), not through Vite's module
    // runner: nothing here needs Vite's transforms (no vi.mock, no import.meta.vitest). A worker
    // then starts its file with about 1.5 s less CPU (docs/testing.md).
    experimental: { viteModuleRunner: false, nodeLoader: false },
    sequence: { sequencer: LongestFirst },
    // The tier check stops a run at once, naming every outside program its tiers need and miss.
    reporters: ['default', './tests/helpers/tier-check.ts'],
  },
});
