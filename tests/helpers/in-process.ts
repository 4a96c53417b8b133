/**
 * The built site's own server.ts started in the test's process (its `startServer`), for tests
 * that need a real server over HTTP but nothing a separate process gives (a kill, a signal, a
 * umask, a test of processes sharing the embedded database, memory measured alone, a server
 * that must answer while the test blocks in spawnSync, its log read): no second Node to boot,
 * and options the environment cannot carry (short timeouts) passed straight in. The commands a
 * test runs (the departures CLI) still reach its embedded database over the bridge, as beside
 * `npm start`.
 *
 * The copy's modules are loaded by Node itself, as `node server.ts` loads them (as every module
 * of the run is, vitest.config.ts): the site runs as it does in production, and each copy once
 * per process.
 * Its settings are the environment's with `env` over them, read when the server starts, as a child
 * started with that environment reads them; the process's own environment is left as it was, so
 * nothing set for one server reaches a later server, command or test file of the process. Each
 * server has its own (its functions' instance, service/functions/runtime.ts), so two servers of a
 * file may be set up differently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { seedEmbeddedDatabase } from './embedded-template.ts';
import { embedded, onFreePort } from './project.ts';

/** The copy's modules, loaded by Node itself: vitest.config.ts leaves the copies (catalogue-*) out of its transform. */
const nativeImport = (url: string) => import(/* @vite-ignore */ url) as Promise<Record<string, any>>;

export interface InProcessServer {
  url: string;
  port: number;
  server: Server;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the built site in `dir` in this process with `env` as its settings (on a free port,
 * with a data folder of its own unless `env` names one) and `options` given to startServer.
 */
export async function startInProcess(
  dir: string,
  env: Record<string, string> = {},
  options: Record<string, unknown> = {},
): Promise<InProcessServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'catalogue-data-'));
  if (!env.DATA_DIR && embedded(env)) seedEmbeddedDatabase(dataDir);
  let server!: Server;
  // A free port can be taken by another test between the probe and the bind: startServer then
  // fails with EADDRINUSE, having closed what it opened, and it starts again on another.
  const port = await onFreePort(async (free) => {
    const settings = {
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONTENT_DIR: path.join(dir, 'content'),
      ...env,
      PORT: String(free),
    };
    const { readSettings } = await nativeImport(pathToFileURL(path.join(dir, 'service', 'config.ts')).href);
    const { startServer } = await nativeImport(pathToFileURL(path.join(dir, 'server.ts')).href);
    server = await startServer({ settings: readSettings({ ...process.env, ...settings }), ...options });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    dataDir,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // The embedded database closes with the server; its folder goes once it has (a test file's
      // process may end without running its exit handlers, leaving the folder behind).
      if (env.DATA_DIR) return;
      const { closeHostedDatabases } = await nativeImport(
        pathToFileURL(path.join(dir, 'service', 'storage', 'embedded.ts')).href,
      );
      await closeHostedDatabases();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
