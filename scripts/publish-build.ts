/**
 * The Node build's first and last steps (called by build-output.mjs): the build is made in
 * dist/next and published in one step, so a running server (`npm start`) never sees half of one.
 *
 *   begin    works out the address the build is for: beside a running server (dist/serving/),
 *            the one it serves, so it takes the build up; a build it could not take up (made
 *            for another address, or beside a server running other code) stops here, with one
 *            line saying what to run. Then it clears what a failed build left in dist/next, and
 *            notes the stamp of the sources (scripts/build-stamp.ts) and the fingerprint of the
 *            server code being built for;
 *   publish  adds the content the site was made of (the live functions read it, not content/,
 *            so /v1 queries and the pages always come from the same files), then build.json,
 *            moves the build to dist/builds/<id> and points dist/current at it by one rename. A
 *            running server takes it up whole (service/host/site-builds.ts); this step waits for
 *            it and says so. A build a running server does not take up fails (it exits non-zero),
 *            saying why and what to run. Builds no server uses any more are removed.
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
import { readSettings, type Settings } from '../service/config.ts';
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
  /** The site address the build is made for. */
  siteUrl: string;
}

/**
 * Before Astro reads anything: the address the build is for (every part of the build reads it
 * through SITE_URL), an empty dist/next, and what the build is made from.
 */
export function beginBuild(root: string): BuildStart {
  const code = codeFingerprint(root);
  const siteUrl = siteBesideServers(root, readSettings(), code, addressGiven(process.env));
  process.env.SITE_URL = siteUrl;
  const layout = buildLayout(root);
  rmSync(layout.staging, { recursive: true, force: true });
  return { stamp: buildStamp(root, readSettings()), code, siteUrl };
}

/** Which setting gave the site address, in the environment or .env (blank counts as unset, as readSettings reads it). */
function addressGiven(env: Record<string, string | undefined>): 'SITE_URL' | 'PORT' | null {
  if (env.SITE_URL) return 'SITE_URL';
  return env.PORT ? 'PORT' : null;
}

const serverAt = (server: ServingNote) => `The server at ${server.address} (process ${server.pid})`;

/**
 * The address a Node build is made for: beside servers running from `root`, the one they serve,
 * so they take the build up. A build none could take up is refused before it begins, in one line
 * saying what to run: when the servers serve different addresses, when one runs other code than
 * this folder's, or when SITE_URL or PORT names another address than theirs.
 */
export function siteBesideServers(
  root: string,
  settings: Pick<Settings, 'siteUrl'>,
  code: string,
  given: 'SITE_URL' | 'PORT' | null,
): string {
  const servers = runningServers(root);
  const [server] = servers;
  if (!server) return settings.siteUrl;
  if (servers.some((s) => s.facts.siteUrl !== server.facts.siteUrl))
    throw new BuildFailure(
      `Servers running from this folder serve different addresses (${servers.map((s) => `${s.facts.siteUrl} at ${s.address}, process ${s.pid}`).join('; ')}), and no build can be taken up by all of them: stop all but one, then run npm run build again.`,
    );
  const older = servers.find((s) => s.facts.code !== code);
  if (older)
    throw new BuildFailure(
      `${serverAt(older)} runs other code than this folder has now (server.ts, functions/, service/, domain/ or the dependencies changed since it started), so it cannot take a new build up: stop it and run npm start, which builds first.`,
    );
  if (given && settings.siteUrl !== server.facts.siteUrl)
    throw new BuildFailure(
      `${serverAt(server)} serves ${server.facts.siteUrl}, but ${given} asks for a build for ${settings.siteUrl}, which it would not take up: run SITE_URL=${server.facts.siteUrl} npm run build, or stop that server first.`,
    );
  return server.facts.siteUrl;
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
export class BuildFailure extends Error {
  override name = 'BuildFailure';
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

/** How long the build waits, at most, for a running server to say whether it serves the new build. */
const takeUpWaitMs = 20_000;

/**
 * Waits until each running server says it serves the build `id`, or that it will not (its note's
 * `refused`); returns, by address, why each that does not serve it by then does not.
 */
async function awaitTakeUp(root: string, id: string, servers: ServingNote[]): Promise<Map<string, string>> {
  const waiting = new Map(
    servers.map((s) => [s.address, `has not taken it up within ${takeUpWaitMs / 1000} s; its log says why`]),
  );
  const deadline = Date.now() + takeUpWaitMs;
  const answered = new Set<string>();
  while (answered.size < waiting.size && Date.now() < deadline) {
    await sleep(50);
    for (const note of runningServers(root)) {
      if (!waiting.has(note.address) || answered.has(note.address)) continue;
      if (note.build === id) {
        waiting.delete(note.address);
      } else if (note.refused?.build === id) {
        waiting.set(note.address, `keeps serving the build it has: ${note.refused.why}`);
        answered.add(note.address);
      }
    }
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
  const contentDir = path.resolve(root, settings.CONTENT_DIR);
  keepContent(contentDir, path.join(layout.staging, 'content'));
  if (buildStamp(root, settings) !== started.stamp) {
    throw new BuildFailure(
      'The sources or the content changed while the site was being built, so its pages could disagree with its live answers. Nothing was published: a running server keeps the build it has. Run npm run build again.',
    );
  }
  // The functions will answer from it: a build whose catalogue they could not read is not published.
  catalogueFromContent(path.join(layout.staging, 'content'), settings);
  const facts: ServedFacts = { siteUrl: settings.siteUrl, code: started.code };
  // A server started while this build ran may serve another address: then nothing is published.
  for (const server of runningServers(root)) {
    const reasons = restartReasons(server.facts, facts);
    if (reasons.length > 0)
      throw new BuildFailure(
        `Nothing was published: ${serverAt(server)} started while the site was being built and could not take this build up (${reasons.join('; ')}). Run npm run build again.`,
      );
  }
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
  const missed = await awaitTakeUp(root, id, servers);
  for (const server of servers)
    if (!missed.has(server.address)) logger.info(`${serverAt(server)} now serves this build, without a restart.`);

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
  const [address, why] = [...missed][0] ?? [];
  const server = servers.find((s) => s.address === address);
  if (server)
    throw new BuildFailure(
      `Build ${id} was published, but ${serverAt(server).replace(/^The/, 'the')} ${why}. Restart it (stop npm start and start it again) to serve this build.`,
    );
  return record;
}
