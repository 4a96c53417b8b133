/**
 * The host's memory settings (service/host/native-memory.ts): a process started without them
 * starts itself again once with them (malloc's in its environment, V8's young generation and
 * baseline-only WebAssembly in its Node options), keeping its process id and arguments, and
 * settings already given win. Linux only here (glibc reads malloc's).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostNodeOptions, mallocSettings } from '../../service/host/native-memory.ts';

const module = path.resolve(import.meta.dirname, '..', '..', 'service', 'host', 'native-memory.ts');
const script = `
import { readFileSync } from 'node:fs';
const { withHostMemorySettings } = await import(${JSON.stringify(module)});
console.log('start', process.pid, JSON.stringify(process.argv.slice(1)));
withHostMemorySettings();
const environ = readFileSync('/proc/self/environ', 'utf8').split('\\0').filter((v) => v.startsWith('MALLOC_'));
console.log('running', process.pid, JSON.stringify(environ.sort()), JSON.stringify(process.argv.slice(1)), JSON.stringify(process.execArgv.filter((a) => a.startsWith('--max-semi') || a.startsWith('--liftoff'))));
`;

function run(env: Record<string, string | undefined>, nodeOptions: string[] = []) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('MALLOC_') && name !== 'NODE_OPTIONS'),
  );
  const result = spawnSync(
    process.execPath,
    [...nodeOptions, '--input-type=module', '-e', script, '--', 'kept', 'argument'],
    {
      env: { ...clean, ...env },
      encoding: 'utf8',
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim().split('\n');
}

describe.runIf(process.platform === 'linux')('the host started with its memory settings', () => {
  it('starts again once, with the same process id and arguments, and the settings in its environment', () => {
    const lines = run({});
    expect(lines).toHaveLength(3);
    const [first, second, running] = lines.map((line) => line.split(' '));
    expect(first![0]).toBe('start');
    expect(second![0]).toBe('start');
    expect(running![1]).toBe(first![1]);
    const expected = Object.entries(mallocSettings)
      .map(([name, value]) => `${name}=${value}`)
      .sort();
    expect(JSON.parse(running![2]!)).toEqual(expected);
    expect(JSON.parse(running![3]!)).toEqual(JSON.parse(first![2]!));
    expect(JSON.parse(running![3]!)).toContain('kept');
    expect(JSON.parse(running![4]!)).toEqual(hostNodeOptions);
  });

  it('keeps settings already given, and does not start again when all are there', () => {
    expect(run({ MALLOC_MMAP_THRESHOLD_: '131072' }).at(-1)).toContain('"MALLOC_MMAP_THRESHOLD_=131072"');
    const given = Object.fromEntries(Object.keys(mallocSettings).map((name) => [name, '1']));
    expect(run({ ...given, NODE_OPTIONS: '--max-semi-space-size=4' }, ['--liftoff-only'])).toHaveLength(2);
    // Only what is missing is added: the young generation given in NODE_OPTIONS stays at its size.
    const added = run({ ...given, NODE_OPTIONS: '--max-semi-space-size=4' });
    expect(added).toHaveLength(3);
    expect(JSON.parse(added[2]!.split(' ')[4]!)).toEqual(['--liftoff-only']);
  });
});
