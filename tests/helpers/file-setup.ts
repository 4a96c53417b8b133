/**
 * Before each test file, in its process: what the run's setup made for it
 * (tests/helpers/global-setup.ts); after it, a check that it left the process's environment and
 * working folder as it found them. The files of a tier share their workers (vitest.config.ts), so
 * a setting one file left behind would reach every later file's servers and commands.
 */
import { afterAll, inject } from 'vitest';
import { useEmbeddedTemplate } from './embedded-template.ts';

useEmbeddedTemplate(inject('embeddedTemplate'));

const environment = { ...process.env };
/** What a library sets for itself when it first loads, once per process: libvips (under sharp) its own folder. */
const setOnLoad = new Set(['VIPSHOME']);
const folder = process.cwd();

afterAll(() => {
  const names = new Set([...Object.keys(environment), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => process.env[name] !== environment[name] && !setOnLoad.has(name)).sort();
  for (const name of changed) {
    if (environment[name] === undefined) delete process.env[name];
    else process.env[name] = environment[name];
  }
  const now = process.cwd();
  const moved = now !== folder;
  if (moved) process.chdir(folder);
  if (changed.length > 0 || moved)
    throw new Error(
      `This file left the process changed for the files after it in its worker: ${[
        ...(changed.length > 0 ? [`the environment (${changed.join(', ')})`] : []),
        ...(moved ? [`the working folder (${folder} to ${now})`] : []),
      ].join(' and ')}. Restore it in the test, or give the setting to the server or command that reads it.`,
    );
});
