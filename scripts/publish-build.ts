/**
 * The Node build's first and last steps (called by build-output.mjs): the build is made in
 * dist/next and published in one step, so a running server (`npm start`) never sees half of one.
 *
 *   begin    clears what a failed build left in dist/next, and notes the stamp of the sources
 *            (scripts/build-stamp.ts) and the fingerprint of the server code being built for;
 *   publish  adds the content the site was made of (the live functions read it, not content/,
 *            so /v1 queries and the pages always come from the same files), then build.json,
 *            moves the build to dist/builds/<id> and points dist/current at it by one rename. A
 *            running server takes it up whole (service/host/site-builds.ts); this step waits a
 *            moment for it and says so, or says plainly why it must be restarted. Builds no server
 *            uses any more are removed.
 *
 * Sources that change while the build runs could leave pages of the old content beside live
 * answers of the new: such a build is not published, and says so.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { readSettings } from '../service/config.ts';
import { catalogueFromContent } from '../service/host/build-catalogue.ts';
import {
  buildLayout,
  codeFingerprint,
  publishedBuild,
  restartReasons,
  runningServers,
  writeWhole,
  type BuildRecord,
  type ServedFacts,
  type ServingNote,
} from '../service/host/build-layout.ts';
import { buildStamp } from './build-stamp.ts';

export interface BuildStart {
  stamp: string;
  code: string;
}

/** Before Astro reads anything: an empty dist/next, and what the build is made from. */
export function beginBuild(root: string): BuildStart {
  const layout = buildLayout(root);
  rmSync(layout.staging, { recursive: true, force: true });
  return { stamp: buildStamp(root, readSettings()), code: codeFingerprint(root) };
}

/** A Vercel build writes dist/site and dist/live as folders: links left by a Node build are taken away, never written through. */
export function detachPublishedLinks(root: string): void {
  for (const link of Object.values(buildLayout(root).links)) if (isLink(link)) rmSync(link, { force: true });
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A failure the editor reads as a sentence: Astro prints an error without a stack as its message alone. */
class NotPublished extends Error {
  override name = 'NotPublished';
  constructor(message: string) {
    super(message);
    this.stack = '';
  }
}

/** The editors' files the live functions read, as the build read them: the records and the settings, no photographs. */
function keepContent(from: string, to: string): void {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => statSync(source).isDirectory() || /\.(md|yaml)$/.test(source),
  });
}

function newBuildId(builds: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return existsSync(path.join(builds, stamp)) ? `${stamp}-${process.pid}` : stamp;
}

/** Points `link` at `target` in one rename, replacing whatever link was there. */
function pointAt(link: string, target: string): void {
  const temporary = `${link}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  symlinkSync(target, temporary, 'junction');
  try {
    renameSync(temporary, link);
  } catch (error) {
    // Windows does not rename over a link: there the switch takes two steps (docs/deployment.md).
    if (process.platform !== 'win32') throw error;
    rmSync(link, { force: true });
    renameSync(temporary, link);
  }
}

/** dist/site and dist/live as links through dist/current (a folder left by an older build is replaced). */
function linkThroughCurrent(root: string): void {
  for (const [name, link] of Object.entries(buildLayout(root).links)) {
    const target = path.join('current', name);
    if (isLink(link) && readlinkSync(link) === target) continue;
    rmSync(link, { recursive: true, force: true });
    symlinkSync(target, link, 'junction');
  }
}

/** Removes the published builds that neither dist/current, the build before it, nor a running server names. */
function removeUnused(builds: string, keep: ReadonlySet<string>): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(builds)) {
    if (keep.has(name)) continue;
    rmSync(path.join(builds, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** How long the build waits for a running server to say it serves the new build. */
const takeUpWaitMs = 5_000;

/** Waits until each server that can take the build up says it serves it; those that have not by then are returned. */
async function awaitTakeUp(root: string, id: string, servers: ServingNote[]): Promise<Set<string>> {
  const waiting = new Set(servers.map((s) => s.address));
  const deadline = Date.now() + takeUpWaitMs;
  while (waiting.size > 0 && Date.now() < deadline) {
    await sleep(50);
    for (const note of runningServers(root)) if (note.build === id) waiting.delete(note.address);
  }
  return waiting;
}

export async function publishBuild(
  root: string,
  started: BuildStart,
  logger: AstroIntegrationLogger,
): Promise<BuildRecord> {
  const layout = buildLayout(root);
  const settings = readSettings();
  const contentDir = path.resolve(root, process.env.CONTENT_DIR ?? 'content');
  keepContent(contentDir, path.join(layout.staging, 'content'));
  if (buildStamp(root, settings) !== started.stamp) {
    throw new NotPublished(
      'The sources or the content changed while the site was being built, so its pages could disagree with its live answers. Nothing was published: a running server keeps the build it has. Run npm run build again.',
    );
  }
  // The functions will answer from it: a build whose catalogue they could not read is not published.
  catalogueFromContent(path.join(layout.staging, 'content'), settings);
  const facts: ServedFacts = { siteUrl: settings.siteUrl, code: started.code };
  mkdirSync(layout.builds, { recursive: true });
  const id = newBuildId(layout.builds);
  const record: BuildRecord = { id, builtAt: new Date().toISOString(), stamp: started.stamp, facts };
  writeWhole(path.join(layout.staging, 'build.json'), `${JSON.stringify(record, null, 1)}\n`);

  const previous = publishedBuild(root);
  renameSync(layout.staging, path.join(layout.builds, id));
  pointAt(layout.current, path.join('builds', id));
  linkThroughCurrent(root);
  logger.info(`Published build ${id} (dist/builds/${id}, served from dist/current).`);

  const servers = runningServers(root);
  const ready = servers.filter((s) => restartReasons(s.facts, facts).length === 0);
  const late = await awaitTakeUp(root, id, ready);
  for (const server of servers) {
    const where = `The server at ${server.address} (process ${server.pid})`;
    const reasons = restartReasons(server.facts, facts);
    if (reasons.length > 0) {
      logger.warn(
        `${where} cannot take this build up and keeps serving the one it has: ${reasons.join('; ')}. Restart it (stop npm start and start it again) to serve this build. npm start and npm run build read the same settings, from the environment and .env.`,
      );
    } else if (late.has(server.address)) {
      logger.warn(
        `${where} has not taken this build up within ${takeUpWaitMs / 1000} s; its log says why. Restart it to serve this build.`,
      );
    } else {
      logger.info(`${where} now serves this build, without a restart.`);
    }
  }

  const keep = new Set([
    id,
    ...(previous ? [path.basename(previous.dir)] : []),
    ...runningServers(root).flatMap((s) => (s.build ? [s.build] : [])),
  ]);
  const removed = removeUnused(layout.builds, keep);
  if (removed.length > 0)
    logger.info(
      `Removed ${removed.length} build${removed.length === 1 ? '' : 's'} no server uses: ${removed.join(', ')}.`,
    );
  return record;
}
