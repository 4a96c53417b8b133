/**
 * The real catalogue built as the Node host serves it (SITE_URL http://127.0.0.1:4321), once per
 * run for the files that serve it: the first file to ask builds it, in its own worker, and a file
 * that asks later, in any worker, waits for that build instead of making its own. The build is
 * recorded in the run's folder (tests/helpers/global-setup.ts), which removes it after the run.
 * A file that serves it must not change it: it serves with a data folder of its own.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { realContent } from './content.ts';
import { eventually } from './eventually.ts';
import { buildProject, copyProject, type BuildResult } from './project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    runFolder: string;
  }
}

export const realSiteUrl = 'http://127.0.0.1:4321';

interface RecordedBuild extends BuildResult {
  dir: string;
}

/** The claim of the file building it: the builder's pid, and the copy's folder as soon as it is made. */
const claimIn = (runFolder: string) => path.join(runFolder, 'real-site.building');

/** For the run's teardown: removes the copy, built or not, if a file made one. */
export function removeRealSite(runFolder: string): void {
  const copy = path.join(claimIn(runFolder), 'copy');
  if (existsSync(copy)) rmSync(readFileSync(copy, 'utf8'), { recursive: true, force: true });
}

/** The folder of the built copy; throws with the build's output if it failed. */
export async function realSite(): Promise<string> {
  const runFolder = inject('runFolder');
  const record = path.join(runFolder, 'real-site.json');
  const claim = claimIn(runFolder);
  let building = false;
  try {
    mkdirSync(claim);
    building = true;
  } catch {
    // Another file is building it.
  }
  if (building) {
    writeFileSync(path.join(claim, 'pid'), String(process.pid));
    const copy = copyProject({ content: realContent });
    writeFileSync(path.join(claim, 'copy'), copy.dir);
    const result = buildProject(copy.dir, { SITE_URL: realSiteUrl });
    writeFileSync(`${record}.partial`, JSON.stringify({ dir: copy.dir, ...result } satisfies RecordedBuild));
    // Whole or not at all for a file reading it meanwhile.
    renameSync(`${record}.partial`, record);
  }
  const made = await eventually(async () => JSON.parse(readFileSync(record, 'utf8')) as RecordedBuild, {
    // A build takes a minute or more of CPU on a busy machine; the wait ends at once if the process building it has gone.
    withinMs: 600_000,
    everyMs: 250,
    unless: () => builderAlive(claim, record),
  });
  if (made.status !== 0) throw new Error(`the real catalogue did not build:\n${made.output}`);
  return made.dir;
}

/** Throws once the process that claimed the build has gone without recording it (a build recorded is read, whoever made it). */
function builderAlive(claim: string, record: string): void {
  if (existsSync(record)) return;
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(claim, 'pid'), 'utf8'));
  } catch {
    return; // Claimed a moment ago; its pid follows.
  }
  try {
    process.kill(pid, 0);
  } catch {
    throw new Error(`the process building the real catalogue (pid ${pid}) ended before its build was recorded`);
  }
}
