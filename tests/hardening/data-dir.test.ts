/**
 * DATA_DIR is readable and writable by the site's account only: the embedded database (whose
 * WAL holds enquirers' names and phone numbers), the enquiry outbox, the local signing key and
 * the bridge's files. Checked on real files: a server started with a fresh DATA_DIR under the
 * most permissive umask (0000), an enquiry sent through it; a DATA_DIR an earlier version left
 * 0755/0644; and prepareDataDir itself.
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { prepareDataDir } from '../../service/data-dir.ts';
import { startServer } from '../helpers/project.ts';

// What bounds a test that hangs, not its speed: servers that make or take over a database, which
// on a busy machine (the whole run on one core) take minutes. A start fails on its own terms
// (startBudget, tests/helpers/project.ts).
vi.setConfig({ testTimeout: 300_000 });

let scratch: string;
let umask: number;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'data-dir-'));
  // The servers started here inherit this: the worst case, where nothing but the code keeps files private.
  umask = process.umask(0o000);
});
afterAll(() => {
  process.umask(umask);
  rmSync(scratch, { recursive: true, force: true });
});

/** Every folder and file under `dir` (not following links), with its permission bits. */
function modes(dir: string): { path: string; mode: number; kind: 'dir' | 'file' | 'socket' | 'link' }[] {
  const found = [{ path: '.', mode: statSync(dir).mode & 0o777, kind: 'dir' as const }];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const info = lstatSync(full);
    const kind = info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : info.isSocket() ? 'socket' : 'file';
    found.push({ path: path.relative(dir, full) || '.', mode: info.mode & 0o777, kind } as never);
  }
  return found;
}

const open = (entries: ReturnType<typeof modes>) =>
  entries.filter((e) => e.kind !== 'link' && (e.mode & 0o077) !== 0).map((e) => `${e.path} ${e.mode.toString(8)}`);

async function sendEnquiry(url: string): Promise<void> {
  const response = await fetch(`${url}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 }),
  });
  expect(response.status).toBe(201);
}

describe('the data folder of a running site', () => {
  it('starts private: the database, an enquiry in the outbox, the signing key and the bridge', async () => {
    const dataDir = path.join(scratch, 'fresh', 'data');
    const server = await startServer(inject('fixtureSite'), { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded' });
    try {
      await sendEnquiry(server.url);
      expect((await fetch(`${server.url}/.well-known/jwks.json`)).status).toBe(200);
      const entries = modes(dataDir);
      const names = entries.map((e) => e.path);
      expect(names).toEqual(
        expect.arrayContaining([
          '.',
          'outbox',
          'pglite',
          'pglite.host.json',
          'pglite.bridge',
          'agent-signing-key.json',
        ]),
      );
      expect(names.some((name) => name.startsWith('outbox/') && name.endsWith('.eml'))).toBe(true);
      expect(names.some((name) => name.startsWith('pglite/pg_wal/'))).toBe(true);
      expect(open(entries)).toEqual([]);
      for (const entry of entries) {
        if (entry.kind === 'dir') expect(entry.mode, entry.path).toBe(0o700);
        if (entry.kind === 'file') expect(entry.mode, entry.path).toBe(0o600);
      }
    } finally {
      await server.stop();
    }
  });

  it('tightens a data folder an earlier version left open, when the server starts', async () => {
    const dataDir = path.join(scratch, 'earlier');
    const outside = path.join(scratch, 'outside.txt');
    writeFileSync(outside, 'not ours to change\n', { mode: 0o644 });
    mkdirSync(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o755 });
    mkdirSync(path.join(dataDir, 'archive', '2025'), { recursive: true, mode: 0o775 });
    writeFileSync(path.join(dataDir, 'outbox', 'enq_old.eml'), 'Subject: old\r\n', { mode: 0o644 });
    writeFileSync(path.join(dataDir, 'archive', '2025', 'notes.txt'), 'x', { mode: 0o666 });
    writeFileSync(path.join(dataDir, 'agent-signing-key.json'), '{}', { mode: 0o644 });
    symlinkSync(outside, path.join(dataDir, 'outside-link'));
    for (const dir of [dataDir, path.join(dataDir, 'outbox')]) chmodSync(dir, 0o755);
    chmodSync(path.join(dataDir, 'archive'), 0o775);
    expect(open(modes(dataDir)).length).toBe(7);

    const server = await startServer(inject('fixtureSite'), { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded' });
    try {
      expect(open(modes(dataDir))).toEqual([]);
      expect(statSync(path.join(dataDir, 'outbox', 'enq_old.eml')).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(dataDir, 'archive', '2025')).mode & 0o777).toBe(0o700);
      expect(statSync(outside).mode & 0o777).toBe(0o644); // a link is not followed out of DATA_DIR
    } finally {
      await server.stop();
    }
  });
});

describe('prepareDataDir', () => {
  it('creates DATA_DIR 0700, tightens what is in it, and makes later files 0600', () => {
    const dataDir = path.join(scratch, 'prepared', 'data');
    mkdirSync(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(dataDir, 'outbox', 'a.eml'), 'x', { mode: 0o644 });
    writeFileSync(path.join(dataDir, 'run.sh'), 'x', { mode: 0o755 });
    const before = process.umask();
    try {
      const prepared = prepareDataDir({ DATA_DIR: dataDir });
      expect(prepared.dir).toBe(path.resolve(dataDir));
      expect(prepared.tightened.sort()).toEqual(
        [
          dataDir,
          path.join(dataDir, 'outbox'),
          path.join(dataDir, 'outbox', 'a.eml'),
          path.join(dataDir, 'run.sh'),
        ].sort(),
      );
      expect(statSync(path.join(dataDir, 'run.sh')).mode & 0o777).toBe(0o700); // the owner's own bits stay
      writeFileSync(path.join(dataDir, 'later.txt'), 'x');
      mkdirSync(path.join(dataDir, 'later'));
      expect(statSync(path.join(dataDir, 'later.txt')).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(dataDir, 'later')).mode & 0o777).toBe(0o700);
      expect(prepareDataDir({ DATA_DIR: dataDir }).tightened).toEqual([]);
    } finally {
      process.umask(before);
    }
  });
});
