/**
 * The project's .env file, read by every command that reads settings (service/env-file.ts): a
 * setting written there reaches the command, one set in the environment wins, and one set blank
 * counts as unset, as readSettings reads it. Node's parser reads it (after a byte-order mark);
 * a value cut at a `#` and secrets other accounts can read are said when it is read.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../../service/config.ts';
import { loadEnvFile } from '../../service/env-file.ts';

const names = [
  'CATALOGUE_TEST_FROM_FILE',
  'CATALOGUE_TEST_SET',
  'CATALOGUE_TEST_BLANK',
  'CATALOGUE_TEST_FIRST',
  'CATALOGUE_TEST_HASH',
  'CATALOGUE_TEST_QUOTED',
  'CATALOGUE_TEST_COMMENTED',
  'AGENT_SIGNING_KEY',
  'DATABASE_URL',
];
const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-env-'));
afterEach(() => {
  for (const name of names) delete process.env[name];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('.env', () => {
  it('fills in what the environment does not set, and leaves alone what it does', () => {
    const file = path.join(dir, '.env');
    writeFileSync(
      file,
      '# a comment\nCATALOGUE_TEST_FROM_FILE=file\nCATALOGUE_TEST_SET=file\nCATALOGUE_TEST_BLANK="from file"\n',
    );
    process.env.CATALOGUE_TEST_SET = 'environment';
    process.env.CATALOGUE_TEST_BLANK = '';
    loadEnvFile(file);
    expect(process.env.CATALOGUE_TEST_FROM_FILE).toBe('file');
    expect(process.env.CATALOGUE_TEST_SET).toBe('environment');
    expect(process.env.CATALOGUE_TEST_BLANK).toBe('from file');
  });

  it('gives the build and the server one site address: PORT in .env makes SITE_URL for both', () => {
    const file = path.join(dir, 'port.env');
    writeFileSync(file, 'PORT=4999\n');
    const saved = { SITE_URL: process.env.SITE_URL, PORT: process.env.PORT };
    process.env.SITE_URL = '';
    delete process.env.PORT;
    try {
      loadEnvFile(file);
      expect(readSettings().siteUrl).toBe('http://localhost:4999');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  /** Loads `text` as a .env file of mode `mode`, returning what it said. */
  function load(name: string, text: string, mode = 0o600): string[] {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    chmodSync(file, mode);
    const said: string[] = [];
    loadEnvFile(file, (line) => said.push(line));
    return said;
  }

  it('reads the first line of a file an editor began with a byte-order mark', () => {
    expect(load('bom.env', '\uFEFFCATALOGUE_TEST_FIRST=first\nCATALOGUE_TEST_SET=second\n')).toEqual([]);
    expect(process.env.CATALOGUE_TEST_FIRST).toBe('first');
    expect(process.env.CATALOGUE_TEST_SET).toBe('second');
  });

  it('names a value cut at an unquoted #, never its text; a quoted # and a comment after a space are as meant', () => {
    const said = load(
      'hash.env',
      [
        'CATALOGUE_TEST_HASH=pa#ss-word',
        'CATALOGUE_TEST_QUOTED="pa#ss"',
        'CATALOGUE_TEST_COMMENTED=plain # why it is set',
      ].join('\n'),
    );
    expect(process.env.CATALOGUE_TEST_HASH).toBe('pa'); // Node's rule, as documented
    expect(process.env.CATALOGUE_TEST_QUOTED).toBe('pa#ss');
    expect(process.env.CATALOGUE_TEST_COMMENTED).toBe('plain');
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('hash.env line 1: CATALOGUE_TEST_HASH stops at "#"');
    expect(said[0]).toContain('CATALOGUE_TEST_HASH="…"');
    // What follows the #, never said; a hyphen cannot come in the temporary folder's random name that the message also gives.
    expect(said[0]).not.toContain('ss-word');
  });

  it('warns when a file holding secrets can be read by other accounts, naming it and the fix', () => {
    const secrets = 'AGENT_SIGNING_KEY={"kty":"OKP"}\nDATABASE_URL=postgres://app:secret@db.example.com/x\n';
    const file = path.join(dir, 'secrets.env');
    const said = load('secrets.env', secrets, 0o644);
    expect(said).toEqual([
      `[settings] ${file} holds secrets (AGENT_SIGNING_KEY, the password in DATABASE_URL) and other accounts on this machine can read it (mode 644): run chmod 600 ${file}`,
    ]);
    expect(load('private.env', secrets, 0o600)).toEqual([]);
    expect(load('public-settings.env', 'CATALOGUE_TEST_FIRST=1\nDATABASE_URL=postgres://app@db/x\n', 0o644)).toEqual(
      [],
    );
  });

  it('changes nothing without the file', () => {
    loadEnvFile(path.join(dir, 'none.env'));
    expect(process.env.CATALOGUE_TEST_FROM_FILE).toBeUndefined();
  });
});
