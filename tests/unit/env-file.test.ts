/**
 * The project's .env file, read by every command that reads settings (service/env-file.ts): a
 * setting written there reaches the command, one set in the environment wins, and one set blank
 * counts as unset, as readSettings reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../../service/config.ts';
import { loadEnvFile } from '../../service/env-file.ts';

const names = ['CATALOGUE_TEST_FROM_FILE', 'CATALOGUE_TEST_SET', 'CATALOGUE_TEST_BLANK'];
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

  it('changes nothing without the file', () => {
    loadEnvFile(path.join(dir, 'none.env'));
    expect(process.env.CATALOGUE_TEST_FROM_FILE).toBeUndefined();
  });
});
