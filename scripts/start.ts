/**
 * `npm start`: build the site when the sources or the site address changed since the last
 * build, then serve it with server.ts.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSettings, SettingsError } from '../service/config.ts';
import { loadEnvFile } from '../service/env-file.ts';

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist', '.build-stamp');
/** What a complete build leaves behind (service/host/router.ts reads it). */
const builtMarker = path.join(root, 'dist', 'live', 'static-routes.json');

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/** Changes whenever a source file, the content or the build-time settings change. */
export function buildStamp(siteUrl: string): string {
  const files: string[] = [];
  const contentDir = process.env.CONTENT_DIR ?? 'content';
  for (const dir of ['domain', 'src', 'service', 'public', contentDir]) walk(path.resolve(root, dir), files);
  for (const file of ['astro.config.mjs', 'package-lock.json', 'scripts/build-output.mjs']) files.push(path.join(root, file));
  const hash = createHash('sha256').update(`${siteUrl}\n${contentDir}\n`);
  for (const file of files.sort()) {
    if (!existsSync(file)) continue;
    const info = statSync(file);
    hash.update(`${path.relative(root, file)}:${info.size}:${info.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

try {
  const settings = readSettings();
  const stamp = buildStamp(settings.siteUrl);
  const built = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && existsSync(builtMarker);
  if (!built) {
    console.log(`Building the site for ${settings.siteUrl} …`);
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { stdio: 'inherit', cwd: root, env: { ...process.env, SITE_URL: settings.siteUrl } });
    if (result.status !== 0) process.exit(result.status ?? 1);
    writeFileSync(stampFile, stamp);
  }
  const { startServer } = await import('../server.ts');
  await startServer({ settings });
  console.log(`Serving the site and API on ${settings.siteUrl} (listening on ${settings.HOST}:${settings.PORT})`);
} catch (error) {
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
}
