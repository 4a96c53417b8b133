/**
 * Each tier's setup (tests/tiers.ts), before its files run: checks for the outside programs the
 * tier starts (stopping at once, with one message, when one is missing; a tier that starts none
 * never looks); then what its files share: a new embedded database to copy
 * (tests/helpers/embedded-template.ts) and, for tiers whose files serve it, the fixture site,
 * made side by side, each once per run, whichever tier asks first, and removed after the last of
 * them; and the run's folder, where files leave what they make for each other (the real
 * catalogue's build, tests/helpers/real-site.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { tierNamed } from '../tiers.ts';
import { fixtureContent } from './content.ts';
import { createEmbeddedTemplate } from './embedded-template.ts';
import { buildProjectBeside, copyProject } from './project.ts';
import { removeRealSite } from './real-site.ts';
import { stopIfMissing } from './tier-check.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    fixtureSite: string;
  }
}

interface Shared {
  /** Resolves to the folder; made at the first ask. */
  made: Promise<string>;
  users: number;
  remove(): void;
}

// Every tier's setup runs in the one main process, each through its own copy of this module.
const key = Symbol.for('catalogue.tests.shared');
const holder = globalThis as { [key]?: Map<string, Shared> };
const shared = (holder[key] ??= new Map());

/** The thing `name` (made by `make` at the first ask), for one more user; the returned function lets it go, removing it after the last. */
async function use(name: string, make: () => Promise<{ dir: string; remove(): void }>): Promise<[string, () => void]> {
  let entry = shared.get(name);
  if (!entry) {
    const making = make();
    entry = { made: making.then((m) => m.dir), users: 0, remove: () => void making.then((m) => m.remove()) };
    shared.set(name, entry);
  }
  entry.users += 1;
  const dir = await entry.made;
  const current = entry;
  return [
    dir,
    () => {
      current.users -= 1;
      if (current.users > 0) return;
      shared.delete(name);
      current.remove();
    },
  ];
}

async function buildFixtureSite(): Promise<{ dir: string; remove(): void }> {
  const copy = copyProject({ content: fixtureContent });
  const result = await buildProjectBeside(copy.dir, { SITE_URL: 'http://127.0.0.1:4321' });
  if (result.status !== 0) {
    copy.remove();
    throw new Error(`fixture site build failed:\n${result.output}`);
  }
  return copy;
}

/** A folder for what files make for each other during the run (tests/helpers/real-site.ts), and everything recorded there. */
function makeRunFolder(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-run-'));
  const remove = () => {
    removeRealSite(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  return Promise.resolve({ dir, remove });
}

export default async function setup(project: TestProject) {
  const tier = tierNamed(project.name);
  stopIfMissing([tier]);
  // Both at once: the build is a process of its own, the template is made in this one.
  const [[template, releaseTemplate], [runFolder, releaseRunFolder], site] = await Promise.all([
    use('embeddedTemplate', createEmbeddedTemplate),
    use('runFolder', makeRunFolder),
    tier.fixtureSite ? use('fixtureSite', buildFixtureSite) : undefined,
  ]);
  const releases = [releaseTemplate, releaseRunFolder];
  project.provide('embeddedTemplate', template);
  project.provide('runFolder', runFolder);
  if (site) {
    const [dir, releaseSite] = site;
    releases.push(releaseSite);
    project.provide('fixtureSite', dir);
  }
  return () => releases.forEach((release) => release());
}
