/** The settings: one schema (service/config.ts), and .env.example documents exactly its variables. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettings, settingsSchema, SettingsError } from '../../service/config.ts';
import { directAddressSettings } from '../../service/storage/connection.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The variables .env.example names, set or commented out (`NAME=…` or `# NAME=…`). */
function documented(): string[] {
  const text = readFileSync(path.join(root, '.env.example'), 'utf8');
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
}

describe('settings', () => {
  it('.env.example documents every setting of the schema, and no other', () => {
    expect([...new Set(documented())].sort()).toEqual(Object.keys(settingsSchema.shape).sort());
  });

  it('reads the defaults with nothing set', () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({
      PORT: 4321,
      HOST: '127.0.0.1',
      siteUrl: 'http://localhost:4321',
      CONTENT_DIR: 'content',
      OPERATIONAL_STORAGE: 'embedded',
      DATA_DIR: '.data',
    });
    expect(settings.counters).toEqual({ upstash: null, redisUrl: undefined, onVercel: false });
    expect(settings.agentAuth).toEqual({
      anonymousEnabled: true,
      trustedIssuers: [],
      signingKey: null,
      previousKeys: null,
    });
  });

  it('takes the shared counters under either pair of names, trimmed', () => {
    expect(
      readSettings({ KV_REST_API_URL: ' https://kv.example \n', KV_REST_API_TOKEN: 't\n' }).counters.upstash,
    ).toEqual({ url: 'https://kv.example', token: 't' });
    expect(
      readSettings({
        UPSTASH_REDIS_REST_URL: 'https://u.example',
        UPSTASH_REDIS_REST_TOKEN: 'u',
        KV_REST_API_URL: 'https://kv.example',
        KV_REST_API_TOKEN: 't',
      }).counters.upstash,
    ).toEqual({ url: 'https://u.example', token: 'u' });
  });

  it('takes the direct address beside a pooled one under either name, for migrations and the tools', () => {
    const pooled = 'postgres://u@ep-1-pooler.example/db';
    const direct = 'postgres://u@ep-1.example/db';
    const base = { OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: pooled };
    expect(readSettings(base).directDatabaseUrl).toBeUndefined();
    expect(readSettings({ ...base, POSTGRES_URL_NON_POOLING: direct }).directDatabaseUrl).toBe(direct);
    expect(
      readSettings({ ...base, DATABASE_URL_UNPOOLED: direct, POSTGRES_URL_NON_POOLING: 'postgres://other' })
        .directDatabaseUrl,
    ).toBe(direct);
    // The tools open the direct address; the site keeps the pooled one.
    const settings = readSettings({ ...base, DATABASE_URL_UNPOOLED: direct });
    expect(directAddressSettings(settings).DATABASE_URL).toBe(direct);
    expect(settings.DATABASE_URL).toBe(pooled);
    expect(directAddressSettings(readSettings(base)).DATABASE_URL).toBe(pooled);
  });

  it('stops at a bad value with a sentence naming it, but keeps a bad AGENT_* setting for agent registration alone', () => {
    expect(() => readSettings({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readSettings({ OPERATIONAL_STORAGE: 'postgres' })).toThrow(/DATABASE_URL/);
    const settings = readSettings({ AGENT_TRUSTED_ISSUERS: 'not a pair' });
    expect(settings.agentAuth).toBeInstanceOf(SettingsError);
    expect((settings.agentAuth as SettingsError).message).toMatch(/AGENT_TRUSTED_ISSUERS/);
  });

  it('checks every URL among the settings at start, naming the one at fault and the form it takes', () => {
    const refused: [string, string][] = [
      // A password with a raw # is no URL: what a .env value cut at the # leaves is not one either.
      ['DATABASE_URL', 'postgres://app:pa#ss@db/x'],
      ['DATABASE_URL', 'postgres://app:pa'],
      ['DATABASE_URL', 'mysql://app@db/x'],
      ['DATABASE_URL', 'db.example.com'],
      ['REDIS_URL', 'localhost:6379'],
      ['REDIS_URL', 'http://127.0.0.1:6379'],
      ['UPSTASH_REDIS_REST_URL', 'example.upstash.io'],
      ['KV_REST_API_URL', 'redis://example.upstash.io'],
      ['RESEND_BASE_URL', 'ftp://api.resend.com'],
      ['SITE_URL', 'javascript:alert(1)'],
      ['SITE_URL', 'example.com'],
    ];
    for (const [name, value] of refused) {
      expect(
        () => readSettings({ OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: 'postgres://db/x', [name]: value }),
        `${name}=${value}`,
      ).toThrow(new RegExp(`^Invalid settings:\\n- ${name}: (is not a URL;|must be) .*URL such as`));
    }
    const accepted = {
      OPERATIONAL_STORAGE: 'postgres',
      DATABASE_URL: 'postgres://app:pa%23ss@db.example.com:5432/x',
      REDIS_URL: 'rediss://:secret@cache.example.com:6380',
      UPSTASH_REDIS_REST_URL: 'https://example.upstash.io',
      RESEND_BASE_URL: 'http://127.0.0.1:9999',
      SITE_URL: 'https://treks.example.com/',
    };
    expect(readSettings(accepted)).toMatchObject({
      DATABASE_URL: accepted.DATABASE_URL,
      siteUrl: 'https://treks.example.com',
    });
    // libpq's form for a Unix socket: no host in the address, its folder as ?host=.
    expect(readSettings({ DATABASE_URL: 'postgresql:///catalogue?host=/var/run/postgresql' }).DATABASE_URL).toMatch(
      /^postgresql:/,
    );
  });
});
