/**
 * `npm start`: build the site when the sources or the settings written into it changed since the
 * build being served was made, then serve it with server.ts. The server takes up any later
 * `npm run build` without a restart (service/host/site-builds.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { readSettings, SettingsError } from '../service/config.ts';
import { loadEnvFile } from '../service/env-file.ts';
import { publishedBuild, readBuildRecord } from '../service/host/build-layout.ts';
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

try {
  const settings = readSettings();
  if (publishedStamp() !== buildStamp(root, settings)) {
    console.log(`Building the site for ${settings.siteUrl} …`);
    // The build reads the same settings (the environment, then .env); the address is passed as worked out here.
    const result = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'],
      { stdio: 'inherit', cwd: root, env: { ...process.env, SITE_URL: settings.siteUrl } },
    );
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const { startServer } = await import('../server.ts');
  await startServer({ settings });
  console.log(`Serving the site and API on ${settings.siteUrl} (listening on ${settings.HOST}:${settings.PORT})`);
} catch (error) {
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
}
