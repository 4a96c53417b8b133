/**
 * `npm start`: build the site when the sources or the settings written into it changed since the
 * build being served was made, then serve it with server.ts. The server takes up any later
 * `npm run build` without a restart (service/host/site-builds.ts). SIGTERM or SIGINT stops the
 * build, or the server gracefully (service/host/shutdown.ts); the script line runs this with
 * `exec`, so no shell stands between npm and this process (docs/deployment.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { readSettings, SettingsError } from '../service/config.ts';
import { loadEnvFile } from '../service/env-file.ts';
import { publishedBuild, readBuildRecord } from '../service/host/build-layout.ts';
import { stopOnSignals } from '../service/host/shutdown.ts';
import { buildStamp } from './build-stamp.ts';
import { withHostMemorySettings } from '../service/host/native-memory.ts';

// The server runs in this process: malloc's settings first, read at process start (service/host/native-memory.ts).
withHostMemorySettings();

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

const root = path.resolve(import.meta.dirname, '..');

/** The stamp of the published build (scripts/build-stamp.ts), or null when there is none to serve. */
function publishedStamp(): string | null {
  const published = publishedBuild(root);
  if (!published) return null;
  try {
    return readBuildRecord(published.dir).stamp;
  } catch {
    return null;
  }
}

/** `astro build` as a child; a signal to this process stops it too (a supervisor signals only this pid). */
async function build(siteUrl: string, signalled: Promise<NodeJS.Signals>): Promise<number> {
  // The build reads the same settings (the environment, then .env); the address is passed as worked out here.
  const child = spawn(process.execPath, [path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, SITE_URL: siteUrl },
  });
  void signalled.then((signal) => child.kill(signal));
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

try {
  const settings = readSettings();
  const stopping = stopOnSignals(settings.SHUTDOWN_GRACE_MS);
  let stopped = false;
  void stopping.signalled.then(() => (stopped = true));
  if (publishedStamp() !== buildStamp(root, settings)) {
    console.log(`Building the site for ${settings.siteUrl} …`);
    const status = await build(settings.siteUrl, stopping.signalled);
    if (stopped) process.exit(0);
    if (status !== 0) process.exit(status);
  }
  const { serveUntilStopped } = await import('../server.ts');
  await serveUntilStopped(settings, stopping);
} catch (error) {
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
}
