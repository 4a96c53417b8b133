/**
 * Before each unit file (vitest.config.ts): the unit tier starts no child process, so its time
 * is its own process's on any machine, however busy (docs/testing.md). Starting one fails the
 * test that tried, naming what it started; such a test belongs in a tier above (tests/tiers.ts).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const starters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of starters) {
  Object.assign(childProcess, {
    [name]: (command: unknown) => {
      throw new Error(
        `The unit tier starts no child process (${name} ${String(command)}): move the test to a tier above (tests/tiers.ts).`,
      );
    },
  });
}
// The named exports (`import { spawn } from 'node:child_process'`) follow the module object.
syncBuiltinESMExports();
