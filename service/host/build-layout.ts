/**
 * Where the Node host's builds of the site live, and what a build and a running server say about
 * themselves: read by the build that publishes (scripts/publish-build.ts) and by the server that
 * takes builds up (site-builds.ts).
 *
 *   dist/next/                  the build being made: Astro writes site/, the last step live/
 *                               and compressed/ (each compressible file's .br and .gz)
 *   dist/builds/<id>/           a published build: site/, live/, compressed/, content/ (the
 *                               editors' files it was made of, which the live functions read)
 *                               and build.json
 *   dist/current                a link to the build to serve; publishing replaces it in one rename
 *   dist/site, dist/live        links through current, for the tools that read the last build
 *   dist/serving/<pid>-<port>.json   each running server: its settings, its code, the build it serves
 *
 * A Vercel build (DEPLOY_TARGET=vercel) writes dist/site and dist/live themselves: a deploy is
 * one build, made whole before it is served.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { processEnded } from '../storage/processes.ts';

/** Where a build is made, relative to the project folder (astro.config.mjs writes the site there). */
export const stagingDir = path.join('dist', 'next');

export function buildLayout(root: string) {
  const dist = path.join(root, 'dist');
  return {
    dist,
    staging: path.join(root, stagingDir),
    builds: path.join(dist, 'builds'),
    current: path.join(dist, 'current'),
    serving: path.join(dist, 'serving'),
    /** The links the tools read, each to its folder of the current build. */
    links: { site: path.join(dist, 'site'), live: path.join(dist, 'live') },
  };
}

/**
 * What must be the same in a server and a build for the server to take the build up. Anything
 * else a build changes (files, routes, catalogue, frames, the functions made from them) is swapped whole.
 */
export interface ServedFacts {
  /** The origin every absolute address is written with (SITE_URL, or localhost with PORT). */
  siteUrl: string;
  /** The code a server runs (codeFingerprint): a server keeps the code it started with. */
  code: string;
}

/** What a published build says about itself (its build.json). */
export interface BuildRecord {
  id: string;
  builtAt: string;
  /** The sources and settings it was made from (scripts/build-stamp.ts): npm start builds again when they differ. */
  stamp: string;
  facts: ServedFacts;
}

export function readBuildRecord(dir: string): BuildRecord {
  return JSON.parse(readFileSync(path.join(dir, 'build.json'), 'utf8')) as BuildRecord;
}

/** Writes `file` whole or not at all: a reader sees the old file or the new one. */
export function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** The folder of the published build `dist/current` names (its real path), or null when there is none. */
export function publishedBuild(root: string): { link: string; dir: string } | null {
  const { current } = buildLayout(root);
  try {
    return { link: readlinkSync(current), dir: realpathSync(current) };
  } catch {
    return null;
  }
}

/** The code a server process runs: the host, the functions and the library, and the dependencies' versions. */
const serverCode = ['server.ts', 'functions', 'service', 'domain', 'package-lock.json'];

function filesUnder(file: string, out: string[]): void {
  if (!existsSync(file)) return;
  if (!lstatSync(file).isDirectory()) {
    out.push(file);
    return;
  }
  for (const name of readdirSync(file).sort()) filesUnder(path.join(file, name), out);
}

/** A hash of the server's code, by content: the same checkout gives the same fingerprint. */
export function codeFingerprint(root: string): string {
  const files: string[] = [];
  for (const entry of serverCode) filesUnder(path.join(root, entry), files);
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${path.relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Why a server cannot take a build up, in words for its log and for the build's report: each a
 * part of the server that stays as it started, and would disagree with the build's files.
 */
export function restartReasons(server: ServedFacts, build: ServedFacts): string[] {
  const reasons: string[] = [];
  if (server.siteUrl !== build.siteUrl)
    reasons.push(
      `it serves ${server.siteUrl} but the build was made for ${build.siteUrl} (SITE_URL, or PORT when SITE_URL is not set)`,
    );
  if (server.code !== build.code)
    reasons.push(
      'its code (server.ts, functions/, service/, domain/ or the dependencies) is not the code the build was made with',
    );
  return reasons;
}

/** What a running server says about itself in dist/serving/, for the builds published beside it. */
export interface ServingNote {
  pid: number;
  /** When that process started, where the system says (a later process on the same pid is not it). */
  started?: string | undefined;
  address: string;
  facts: ServedFacts;
  /** The published build it serves, or null for one served as it lies in dist/. */
  build: string | null;
  /** The last build published beside it that it would not take up, and why. */
  refused?: { build: string; why: string } | undefined;
}

export function servingNoteFile(root: string, pid: number, port: number): string {
  return path.join(buildLayout(root).serving, `${pid}-${port}.json`);
}

export function writeServingNote(file: string, note: ServingNote): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeWhole(file, `${JSON.stringify(note)}\n`);
}

/** The notes of the servers running from this folder; those of servers that have ended (stopped, killed) are removed. */
export function runningServers(root: string): ServingNote[] {
  const { serving } = buildLayout(root);
  if (!existsSync(serving)) return [];
  return readdirSync(serving)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const file = path.join(serving, name);
      try {
        const note = JSON.parse(readFileSync(file, 'utf8')) as ServingNote;
        if (!processEnded(note.pid, note.started)) return [note];
      } catch {
        // a note being replaced, or not one of ours
        return [];
      }
      rmSync(file, { force: true });
      return [];
    });
}

export function removeServingNote(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
