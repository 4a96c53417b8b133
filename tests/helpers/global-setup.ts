/**
 * Each tier's setup (tests/tiers.ts), before its files run: checks for the outside programs the
 * tier starts (stopping at once, with one message, when one is missing; a tier that starts none
 * never looks); then what its files share: a new embedded database to copy
 * (tests/helpers/embedded-template.ts) and, for tiers whose files serve it, the fixture site,
 * each made once per run, whichever tier asks first, and removed after the last of them.
 */
import type { TestProject } from 'vitest/node';
import { tierNamed } from '../tiers.ts';
import { fixtureContent } from './content.ts';
import { createEmbeddedTemplate } from './embedded-template.ts';
import { buildProject, copyProject } from './project.ts';
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
  const result = buildProject(copy.dir, { SITE_URL: 'http://127.0.0.1:4321' });
  if (result.status !== 0) {
    copy.remove();
    throw new Error(`fixture site build failed:\n${result.output}`);
  }
  return copy;
}

export default async function setup(project: TestProject) {
  const tier = tierNamed(project.name);
  stopIfMissing([tier]);
  const releases: (() => void)[] = [];
  const [template, releaseTemplate] = await use('embeddedTemplate', createEmbeddedTemplate);
  releases.push(releaseTemplate);
  project.provide('embeddedTemplate', template);
  if (tier.fixtureSite) {
    const [site, releaseSite] = await use('fixtureSite', buildFixtureSite);
    releases.push(releaseSite);
    project.provide('fixtureSite', site);
  }
  return () => releases.forEach((release) => release());
}
