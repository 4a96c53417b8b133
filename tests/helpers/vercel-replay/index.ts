/**
 * Starts the replayed Vercel deployment (serve.ts) of a project copy's `.vercel/output` as its
 * own Node.js process on a free loopback port, in the copy's folder, and waits until it answers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, whenServing, type RunningServer } from '../project.ts';
import { routerModule } from './router-package.ts';

export { replayTool } from './router-package.ts';

/**
 * What the replay takes Vercel to do where Vercel's documentation does not say it; each is
 * named in docs/deployment.md ("What the replay assumes") with how to confirm it on a deployment.
 */
export const replayAssumptions = [
  "important hit-phase headers win over a static file's own headers",
  "a static file with no Cache-Control of its own gets Vercel's default last",
  'headers the routing middleware adds are kept where the file or function sets none',
  'the routing middleware runs once per request',
  "a continue route in the error phase runs before Vercel's own error route",
  'a 304 from the CDN carries no Content-Type',
] as const;

/** `env` may depend on the port the replay listens on (a SITE_URL naming it, say). */
export async function startReplay(
  projectDir: string,
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
): Promise<RunningServer> {
  // Fetched and bundled here, once, so the server's own start is quick.
  await routerModule();
  const port = await freePort();
  const settings = typeof env === 'function' ? env(port) : env;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'catalogue-replay-data-'));
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'serve.ts'), path.join(projectDir, '.vercel', 'output'), String(port)],
    {
      cwd: projectDir,
      env: { ...process.env, VERCEL: '1', DATA_DIR: dataDir, ...settings },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return whenServing(child, port, dataDir);
}
