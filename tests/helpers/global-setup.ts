/**
 * Each tier's setup (tests/tiers.ts), before its files run: checks for the outside programs the
 * tier starts (stopping at once, with one message, when one is missing; a tier that starts none
 * never looks), then, for tiers whose files serve it, the fixture site and a new embedded
 * database to copy (tests/helpers/embedded-template.ts): made once per run, whichever tier asks
 * first, and removed after the last of them.
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

interface SharedSite {
  dir: string;
  embeddedTemplate: string;
  users: number;
  remove(): void;
}

// Every tier's setup runs in the one main process, each through its own copy of this module.
const key = Symbol.for('catalogue.tests.fixtureSite');
const holder = globalThis as { [key]?: SharedSite };

async function fixtureSite(): Promise<SharedSite> {
  if (holder[key]) return holder[key];
  const copy = copyProject({ content: fixtureContent });
  const result = buildProject(copy.dir, { SITE_URL: 'http://127.0.0.1:4321' });
  if (result.status !== 0) {
    copy.remove();
    throw new Error(`fixture site build failed:\n${result.output}`);
  }
  const template = await createEmbeddedTemplate();
  holder[key] = {
    dir: copy.dir,
    embeddedTemplate: template.dir,
    users: 0,
    remove: () => {
      copy.remove();
      template.remove();
    },
  };
  return holder[key];
}

export default async function setup(project: TestProject) {
  const tier = tierNamed(project.name);
  stopIfMissing([tier]);
  if (!tier.fixtureSite) return;
  const site = await fixtureSite();
  site.users += 1;
  project.provide('fixtureSite', site.dir);
  project.provide('embeddedTemplate', site.embeddedTemplate);
  return () => {
    site.users -= 1;
    if (site.users > 0) return;
    delete holder[key];
    site.remove();
  };
}
