/** The built fixture site served with embedded storage in a data folder of its own, for a test file, with the departures CLI pointed at it. */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { runCommand, type CliResult } from './cli.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

export interface LiveSite {
  /** The built fixture site's folder. */
  site: string;
  server: RunningServer;
  dataDir: string;
  /** The departures command (`npm run departures -- <args>`, run in this process) against the running server's database, through its bridge. */
  cli: (...args: string[]) => Promise<CliResult>;
}

/** Started before the file's tests and stopped after them; read the fields inside the tests. */
export function liveSite(name: string): LiveSite {
  // Real databases and processes on a shared machine: opening PGlite alone can take seconds.
  vi.setConfig({ testTimeout: 120_000 });
  const live = {
    cli: (...args: string[]) =>
      runCommand(live.site, args, { DATA_DIR: live.dataDir, OPERATIONAL_STORAGE: 'embedded' }),
  } as LiveSite;
  beforeAll(async () => {
    live.site = inject('fixtureSite');
    live.dataDir = newDataDir(`${name}-`);
    live.server = await startServer(live.site, { DATA_DIR: live.dataDir, OPERATIONAL_STORAGE: 'embedded' });
  }, 120_000);
  afterAll(async () => {
    await live.server?.stop();
    rmSync(live.dataDir, { recursive: true, force: true });
  });
  return live;
}
