/**
 * What the live functions of one process share: the settings, the catalogue (read on first use
 * from the content the build being served was made of, and kept per build: site-build.ts) and who
 * the client is. Every function reads these through here, on Vercel (one function per process)
 * and on the Node host (all of them in one).
 * Operational storage is in live-storage.ts, so functions that never touch it do not carry it.
 */
import path from 'node:path';
import { buildCatalogue, type Catalogue } from '../../domain/catalogue/index.ts';
import { readContent } from '../../domain/catalogue/content-files.ts';
import { readSettings, type Settings } from '../config.ts';
import { clientIp } from '../rules/client-ip.ts';
import { keptPerBuild } from './site-build.ts';

let settings: Settings | undefined;

/** The settings of this deployment; a wrong value throws SettingsError naming it. */
export function runtimeSettings(): Settings {
  settings ??= readSettings();
  return settings;
}

/** The catalogue as the site was built from it: the same files, schemas and cross-checks. */
export function catalogueFromContent(dir: string, current: Settings): Catalogue {
  const source = readContent(dir);
  const site = current.CONTACT_EMAIL ? { ...source.site, contactEmail: current.CONTACT_EMAIL } : source.site;
  return buildCatalogue({ ...source, site }, current.siteUrl);
}

/** The catalogue of the build being served: one per build, read from the content it was made of. */
export const runtimeCatalogue: () => Catalogue = keptPerBuild((build) => catalogueFromContent(build?.contentDir ?? path.resolve(process.env.CONTENT_DIR ?? 'content'), runtimeSettings()));

/**
 * The client's address as the host hands it over: Vercel sets X-Real-IP from the connection,
 * and the Node host (server.ts) sets it the same way, replacing whatever the client sent.
 */
export function clientOf(request: Request): string {
  return clientIp(request, 'vercel', undefined);
}
