/**
 * What a build of the site is made from, as one hash: every source file (by name, size and time),
 * the content and the settings baked into the pages. Each published build records the stamp it
 * was made from (dist/builds/<id>/build.json); `npm start` builds again when the stamp of the
 * sources now differs, and a build whose sources changed while it ran is not published.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../service/config.ts';

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/** Changes whenever a source file, the content or the settings written into the pages change. */
export function buildStamp(
  root: string,
  settings: Pick<Settings, 'siteUrl' | 'CONTACT_EMAIL' | 'CONTENT_DIR'>,
): string {
  const files: string[] = [];
  const contentDir = settings.CONTENT_DIR;
  for (const dir of ['domain', 'src', 'service', 'public', contentDir]) walk(path.resolve(root, dir), files);
  for (const file of ['astro.config.mjs', 'package-lock.json', 'scripts/build-output.mjs', 'scripts/publish-build.ts'])
    files.push(path.join(root, file));
  const hash = createHash('sha256').update(`${settings.siteUrl}\n${settings.CONTACT_EMAIL ?? ''}\n${contentDir}\n`);
  for (const file of files.sort()) {
    if (!existsSync(file)) continue;
    const info = statSync(file);
    hash.update(`${path.relative(root, file)}:${info.size}:${info.mtimeMs}\n`);
  }
  return hash.digest('hex');
}
