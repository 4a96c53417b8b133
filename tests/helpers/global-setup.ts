/**
 * Before any test: checks that the outside programs the suite starts are installed (stopping at
 * once, with one message, when one is not), then builds the fixture site once for every test
 * file that needs a running server.
 */
import type { TestProject } from 'vitest/node';
import { buildProject, copyProject } from './project.ts';
import { fixtureContent } from './content.ts';
import { missingRequirementsMessage } from './requirements.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    fixtureSite: string;
  }
}

export default function setup(project: TestProject) {
  const missing = missingRequirementsMessage();
  if (missing) {
    // One plain message and an exit, not a stack trace: nothing can run until the programs are installed.
    process.stderr.write(`\n${missing}\n\n`);
    process.exit(1);
  }
  const copy = copyProject({ content: fixtureContent });
  const result = buildProject(copy.dir, { SITE_URL: 'http://127.0.0.1:4321' });
  if (result.status !== 0) {
    copy.remove();
    throw new Error(`fixture site build failed:\n${result.output}`);
  }
  project.provide('fixtureSite', copy.dir);
  return () => copy.remove();
}
