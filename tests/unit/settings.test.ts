/**
 * The settings: one schema (service/config.ts), and .env.example documents exactly its
 * variables; the code reads them through it, the build's scripts and the live functions included.
 */
import { globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { assetSecurityRoute } from '../../scripts/build-output.mjs';
import { buildStamp } from '../../scripts/build-stamp.ts';
import { readSettings, settingsSchema, SettingsError } from '../../service/config.ts';
import { liveFunction } from '../../service/functions/live-function.ts';
import { directAddressSettings } from '../../service/storage/connection.ts';
import { internalError } from '../../service/v1/internal-error.ts';

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

describe('every setting read through the schema', () => {
  /** The files of the project's code, from the root. */
  const code = [
    'astro.config.mjs',
    'middleware.ts',
    'server.ts',
    ...['domain', 'functions', 'scripts', 'service', 'src'].flatMap((dir) =>
      globSync(`${dir}/**/*.{ts,mjs,astro}`, { cwd: root }),
    ),
  ];

  it('reads no setting from process.env outside service/config.ts', () => {
    const names = Object.keys(settingsSchema.shape).join('|');
    // A read, not a write (`process.env.SITE_URL = …` hands a setting on to what the build starts).
    const read = new RegExp(`process\\.env(?:\\.|\\[')(${names})\\b(?!'?\\]? = )`, 'g');
    const found = code
      // The bench's bare node:http stand-ins are the baseline the site is measured against, not the site.
      .filter((file) => file !== 'service/config.ts' && !file.startsWith('scripts/bench/'))
      .flatMap((file) =>
        [...readFileSync(path.join(root, file), 'utf8').matchAll(read)].map((m) => `${file}: ${m[0]}`),
      );
    expect(code.length).toBeGreaterThan(200);
    expect(found).toEqual([]);
  });

  it('builds the security headers of the files the middleware skips for the site SITE_URL gives, HSTS only over https', () => {
    const hsts = (siteUrl: string) => 'Strict-Transport-Security' in assetSecurityRoute({ siteUrl }).headers;
    // SITE_URL unset: the site is http://localhost:$PORT, and says nothing of https.
    expect(hsts(readSettings({}).siteUrl)).toBe(false);
    expect(hsts(readSettings({ SITE_URL: 'http://127.0.0.1:4321' }).siteUrl)).toBe(false);
    expect(hsts(readSettings({ SITE_URL: 'https://treks.example.com' }).siteUrl)).toBe(true);
  });

  it('stamps a build with the content of CONTENT_DIR as the settings give it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'build-stamp-'));
    try {
      for (const [folder, text] of [
        ['content', 'a'],
        ['other-content', 'b'],
      ] as const) {
        mkdirSync(path.join(dir, folder));
        writeFileSync(path.join(dir, folder, 'trip.md'), text);
      }
      const stamp = (CONTENT_DIR: string) =>
        buildStamp(dir, { siteUrl: 'http://localhost:4321', CONTACT_EMAIL: undefined, CONTENT_DIR });
      expect(stamp('other-content')).not.toBe(stamp('content'));
      writeFileSync(path.join(dir, 'other-content', 'trip.md'), 'c');
      expect(stamp('other-content')).not.toBe(stamp('content'));
      const before = stamp('content');
      writeFileSync(path.join(dir, 'content', 'trip.md'), 'd');
      expect(stamp('content')).not.toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers a live function's unexpected failure under /v1 as the /v1 handler does, for the build's own site", async () => {
    const failing = liveFunction(
      'catalogue',
      { id: null, catalogue: () => ({ siteUrl: 'https://treks.example.com' }) as Catalogue },
      () => Promise.reject(new Error('a bug')),
    );
    const quiet = console.error;
    console.error = () => undefined;
    try {
      const response = await failing.fetch(new Request('http://127.0.0.1:4321/v1/trips'));
      expect(response.status).toBe(500);
      expect((await response.json()).error).toEqual({
        code: 'internal_error',
        status: 500,
        message: internalError().message,
        hint: internalError().hint,
        documentationUrl: 'https://treks.example.com/developers#errors',
      });
    } finally {
      console.error = quiet;
    }
  });
});
