/**
 * The deployment as Vercel builds it: the real `vercel build` (the `vercel` CLI from npm, run
 * offline on a copy of the project) must produce a static site with a few small live
 * functions, one routing middleware, and routes that send each live path to its function; and
 * that output, replayed through an implementation of Vercel's routing phases (with the built
 * middleware and functions running), must answer the request table exactly as the Node host
 * does (tests/helpers/two-hosts.ts). Built once, for every assertion of this file. The replayed
 * output also passes the MCP conformance suite and shows the MCP App view to a host in Chromium
 * (the official client and the ext-apps AppBridge: tests/helpers/mcp-app-flow.ts), as the Node
 * host does (tests/site/mcp-app.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, type ProjectCopy } from '../helpers/project.ts';
import { vercelBuild } from '../helpers/vercel-build.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';
import { functionFiles, functionSize, readBuildOutput, route, type BuildOutput } from '../helpers/vercel-output.ts';
import type { FunctionBundle } from '../../scripts/vercel/function-bundles.ts';
import { pictureCacheFolder } from '../../src/lib/picture-cache.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { replayAssumptions, replayTool, startReplay } from '../helpers/vercel-replay/index.ts';
import { compareHosts, type TableRun } from '../helpers/two-hosts.ts';
import { conformanceProblems, conformanceVersion, runConformance } from '../../scripts/interop/conformance.ts';
import { startPostgres, type TestPostgres } from '../departures/postgres.ts';
import { startRedis, type RunningRedis } from '../helpers/redis.ts';
import { startUpstashRest, type UpstashRest } from '../helpers/upstash-rest.ts';
import { rawExchange, serialize } from '../hardening/raw-http.ts';
import { sameSiteRedirectGuard } from '../../service/host/static-routes.ts';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { openHost } from '../../scripts/interop/mcp-app-host/index.ts';
import { runCli } from '../departures/cli.ts';
import { startFakeResend, type FakeResend } from '../bookings/resend-fake.ts';
import { departureViewFlow } from '../helpers/mcp-app-flow.ts';
import { launchChromium } from '../site/site.ts';

const catalogue = loadCatalogue(realContent);
let copy: ProjectCopy;
let build: { status: number; output: string };
let output: BuildOutput;

beforeAll(() => {
  const built = vercelBuild(realContent);
  copy = built.copy;
  build = built;
  if (build.status === 0) output = readBuildOutput(copy.dir);
}, 300_000);
afterAll(() => copy?.remove());

const entries = readdirSync(path.join(projectRoot, 'functions'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `api/${f.replace(/\.ts$/, '')}`)
  .sort();

/** What the build says each bundle carries (scripts/vercel/function-bundles.ts). */
const bundles = () =>
  JSON.parse(readFileSync(path.join(copy.dir, '.vercel', 'function-bundles.json'), 'utf8')) as FunctionBundle[];

describe('vercel build', () => {
  it('succeeds', () => {
    expect(build.status, build.output).toBe(0);
  });

  it('makes one function per entry of functions/, at most six, at /api/<name>, and the routing middleware', () => {
    const live = output.functions.filter((f) => f !== 'middleware');
    expect(live).toEqual(entries);
    expect(live.length).toBeLessThanOrEqual(6);
    expect(output.functions).toContain('middleware');
  });

  it('keeps every function under 15 MB, without PGlite or sharp', () => {
    for (const name of output.functions) {
      expect(functionSize(output, name), name).toBeLessThan(15 * 1024 * 1024);
      const files = functionFiles(output, name);
      expect(
        files.some((f) => f.includes('@electric-sql/pglite')),
        `${name} carries PGlite`,
      ).toBe(false);
      expect(
        files.some((f) => /(^|\/)(sharp|@img)\//.test(f)),
        `${name} carries sharp`,
      ).toBe(false);
    }
  });

  it('bundles each function into one file with what it reads: the catalogue, the page frames and the MCP App view of the build', () => {
    for (const name of entries) {
      // One file loaded at a cold start; the content, read only where the settings are not the
      // build's; the MCP function's view, read when a client that shows views asks for it; and
      // what some paths load later (the database and counter clients, mail).
      const files = functionFiles(output, name);
      expect(
        files.filter((f) => !f.startsWith('later/')),
        name,
      ).toEqual([
        '.vc-config.json',
        'content.json',
        'index.mjs',
        ...(name === 'api/mcp' ? ['mcp-app/departure-search.html'] : []),
      ]);
      expect(files.length, name).toBeLessThan(30);
      const vc = JSON.parse(
        readFileSync(path.join(output.dir, 'functions', `${name}.func`, '.vc-config.json'), 'utf8'),
      );
      expect(vc, name).toMatchObject({ runtime: 'nodejs24.x', handler: 'index.mjs', launcherType: 'Nodejs' });
    }
    const departures = readFileSync(path.join(output.dir, 'functions', 'api/departures.func', 'index.mjs'), 'utf8');
    expect(departures).toContain('Hampta Pass Trek');
    expect(departures).toContain('<!--live-main-->');
    // The view as the build made it, beside the function; built beside the frames, never published as a file of the site.
    expect(
      readFileSync(path.join(output.dir, 'functions', 'api/mcp.func', 'mcp-app', 'departure-search.html'), 'utf8'),
    ).toBe(readFileSync(path.join(copy.dir, 'dist', 'live', 'mcp-app', 'departure-search.html'), 'utf8'));
    expect([...output.staticFiles].some((f) => f.includes('mcp-app'))).toBe(false);
  });

  it('gives each function only the packages it uses: the catalogue function no storage, mail, counters or framework', () => {
    const carried = Object.fromEntries(bundles().map((b) => [b.name, Object.keys(b.packages)]));
    // PostgreSQL's client, and Vercel's hold on its pool (attachDatabasePool) while connections are idle.
    const storage = ['pg', '@vercel/functions', '@electric-sql/pglite'];
    const mail = ['resend'];
    const counters = ['redis', '@redis/client', '@upstash/redis'];
    const never = ['astro', 'sharp', 'satori', '@electric-sql/pglite'];
    const without = (name: string, packages: string[]) =>
      expect(
        carried[name]!.filter((p) => packages.includes(p)),
        name,
      ).toEqual([]);
    without('api/catalogue', [...storage, ...mail, ...counters, ...never, 'jose', '@modelcontextprotocol/server']);
    without('api/departures', [...mail, ...never, 'jose', '@modelcontextprotocol/server']);
    without('api/bookings', [...never, 'jose', '@modelcontextprotocol/server']);
    without('api/agent-auth', [...mail, ...never, '@modelcontextprotocol/server']);
    without('api/mcp', [...never, 'jose']);
    // And what each does use, it carries.
    expect(carried['api/departures']).toContain('pg');
    expect(carried['api/departures']).toContain('@vercel/functions');
    expect(carried['api/bookings']).toContain('resend');
    expect(carried['api/agent-auth']).toContain('jose');
    expect(carried['api/mcp']).toContain('@modelcontextprotocol/server');
  });

  it('builds no content schema in the catalogue and departures functions, which answer from the catalogue the build made', () => {
    // Messages only the peak and trip schemas (domain/schemas/) hold: a function that has them builds those schemas at its start.
    const schemaTexts = [
      "cannot be measured against the record's position",
      'an expedition must name the peak it climbs',
    ];
    for (const name of ['api/catalogue', 'api/departures']) {
      const dir = path.join(output.dir, 'functions', `${name}.func`);
      for (const file of functionFiles(output, name).filter((f) => f.endsWith('.mjs'))) {
        const code = readFileSync(path.join(dir, file), 'utf8');
        for (const text of schemaTexts) expect(code.includes(text), `${name}/${file} holds "${text}"`).toBe(false);
      }
    }
  });

  it('installs without emptying node_modules, where Vercel keeps the drawn social cards between deploys', () => {
    // npm ci would remove node_modules, and node_modules/.cache with it, before every build.
    const { installCommand } = JSON.parse(readFileSync(path.join(projectRoot, 'vercel.json'), 'utf8')) as {
      installCommand: string;
    };
    expect(installCommand).toMatch(/^npm install\b/);
    expect(pictureCacheFolder.split(path.sep).slice(0, 2)).toEqual(['node_modules', '.cache']);
    expect(output.staticFiles.has('/images/social/hampta-pass-trek.png')).toBe(true);
  });

  it('runs the request rules once: exactly one routing-middleware route, before the filesystem', () => {
    const routes = output.config.routes;
    const middleware = routes.filter((r) => r.middlewarePath);
    expect(middleware).toHaveLength(1);
    expect(routes.indexOf(middleware[0]!)).toBeLessThan(routes.findIndex((r) => r.handle === 'filesystem'));
    const vc = JSON.parse(
      readFileSync(path.join(output.dir, 'functions', 'middleware.func', '.vc-config.json'), 'utf8'),
    );
    expect(vc.runtime).toBe('nodejs24.x');
  });

  it('publishes the catalogue pages and the /v1 catalogue answers as static files', () => {
    for (const file of [
      '/index.html',
      '/treks.html',
      '/expeditions.html',
      '/peak-data.html',
      '/developers.html',
      '/departures.html',
    ].filter((f) => f !== '/departures.html')) {
      expect(output.staticFiles.has(file), file).toBe(true);
    }
    for (const page of catalogue.trips) expect(output.staticFiles.has(`${page.path}.html`), page.path).toBe(true);
    for (const file of [
      '/v1/index.json',
      '/v1/trips.json',
      '/v1/peaks.json',
      '/llms.txt',
      '/openapi.json',
      '/peak-data/peaks.json',
    ]) {
      expect(output.staticFiles.has(file), file).toBe(true);
    }
    for (const page of catalogue.trips) expect(output.staticFiles.has(`/v1/trips/${page.trip.slug}.json`)).toBe(true);
    for (const peak of catalogue.peaks) expect(output.staticFiles.has(`/v1/peaks/${peak.id}.json`)).toBe(true);
    // The frames of the live pages are the functions', never published.
    expect([...output.staticFiles].some((f) => f.includes('live-shells'))).toBe(false);
  });

  it('routes the live paths to their functions and the catalogue to its files', () => {
    expect(route(output, '/api/bookings')).toEqual({ kind: 'function', name: 'api/bookings' });
    expect(route(output, '/v1/departures')).toEqual({ kind: 'function', name: 'api/departures' });
    expect(route(output, '/oauth/token')).toEqual({ kind: 'function', name: 'api/agent-auth' });
    expect(route(output, '/agent/identity')).toEqual({ kind: 'function', name: 'api/agent-auth' });
    expect(route(output, '/.well-known/oauth-authorization-server')).toEqual({
      kind: 'function',
      name: 'api/agent-auth',
    });
    expect(route(output, '/mcp')).toEqual({ kind: 'function', name: 'api/mcp' });
    expect(route(output, '/departures')).toEqual({ kind: 'function', name: 'api/departures' });
    expect(route(output, '/departures.md')).toEqual({ kind: 'function', name: 'api/departures' });
    expect(route(output, '/treks/hampta-pass-trek.md')).toEqual({ kind: 'function', name: 'api/departures' });
    expect(route(output, '/treks/hampta-pass-trek/enquire')).toEqual({ kind: 'function', name: 'api/departures' });
    expect(route(output, '/departures/block')).toEqual({ kind: 'function', name: 'api/departures' });
    expect(route(output, '/v1/trips/no-such-trip')).toEqual({ kind: 'function', name: 'api/catalogue' });
    expect(route(output, '/treks/hampta-pass-trek')).toEqual({
      kind: 'static',
      file: '/treks/hampta-pass-trek.html',
      status: 200,
    });
    expect(route(output, '/v1/trips.json')).toEqual({ kind: 'static', file: '/v1/trips.json', status: 200 });
    // No page there: the departures function moves it to the right section.
    expect(route(output, '/treks/kang-yatse-ii-expedition')).toEqual({ kind: 'function', name: 'api/departures' });
  });

  it('gives published files their media type and Markdown files their token count', () => {
    const hit = output.config.routes.slice(output.config.routes.findIndex((r) => r.handle === 'hit'));
    const headersOf = (file: string) => hit.find((r) => r.src && new RegExp(r.src).test(file))?.headers ?? {};
    expect(output.config.overrides?.['.well-known/api-catalog']?.contentType).toContain('application/linkset+json');
    expect(Number(headersOf('/index.md')['X-Markdown-Tokens'])).toBeGreaterThan(10);
    // Every release of the peak dataset at its own address, typed as the current file of that name.
    for (const [file, type] of [
      ['/peak-data/2.1.0/peaks.geojson', 'application/geo+json'],
      ['/peak-data/2.1.0/peaks.csv', 'text/csv; charset=utf-8'],
      [`/peak-data/${catalogue.site.dataset.version}/peaks.csvt`, 'text/csv; charset=utf-8'],
      ['/peak-data/2.0.0/peaks.json', undefined],
    ] as const) {
      expect(output.staticFiles.has(file), file).toBe(true);
      expect(output.config.overrides?.[file.slice(1)]?.contentType, file).toBe(type);
    }
  });
});

describe('vercel build output', () => {
  const staticRoutes = () => output.config.routes;
  const phase = (name: string) => {
    const routes = staticRoutes();
    const start = routes.findIndex((r) => r.handle === name);
    const end = routes.findIndex((r, i) => i > start && r.handle);
    return start < 0 ? [] : routes.slice(start + 1, end < 0 ? undefined : end);
  };

  it('types every static file whose extension does not tell its type in overrides', () => {
    for (const file of output.staticFiles) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      if (name.includes('.')) continue;
      expect(output.config.overrides?.[file.slice(1)]?.contentType, file).toBeTruthy();
    }
  });

  it('keeps the routing middleware off the built assets', () => {
    const middleware = staticRoutes().find((r) => r.middlewarePath)!;
    const matches = (p: string) => new RegExp(middleware.src!).test(p);
    for (const file of output.staticFiles) {
      if (/^\/(_astro|images|styles)\//.test(file) || file === '/favicon.svg') expect(matches(file), file).toBe(false);
    }
    for (const p of [
      '/',
      '/treks/hampta-pass-trek',
      '/v1/trips',
      '/llms.txt',
      '/.well-known/api-catalog',
      '/index.md',
      '/no-such-page.md',
    ])
      expect(matches(p), p).toBe(true);
  });

  it('sends a missing Markdown path to the Markdown note first in the error phase', () => {
    const first = phase('error').find((r) => r.src && new RegExp(r.src).test('/no-such-page.md'))!;
    expect(first.dest && output.staticFiles.has(first.dest)).toBe(true);
    expect(readFileSync(path.join(output.dir, 'static', first.dest!), 'utf8')).toBe(
      readFileSync(path.join(output.dir, 'static', '404.md'), 'utf8'),
    );
  });

  it('prints no type error, no warning about the Node.js version, and one line for the site', () => {
    expect(build.output).not.toMatch(/error TS\d+/);
    expect(build.output).not.toContain('will automatically upgrade');
    expect(build.output).not.toContain('generating static routes');
    expect(build.output).toMatch(
      /^Built \d+ pages and \d+ other files in dist\/site, a Vercel Build Output with \d+ media-type overrides and \d+ routes in [\d.]+ s\.$/m,
    );
  });
});

describe(`the Vercel output replayed (${replayTool}) answers as the Node host does`, () => {
  let postgres: TestPostgres;
  let redis: RunningRedis;
  const upstash: UpstashRest[] = [];
  let node: RunningServer;
  let vercel: RunningServer;
  let table: TableRun;

  beforeAll(async () => {
    postgres = await startPostgres();
    redis = await startRedis();
    // One database, and counters shared by every instance of each host (Upstash, as production).
    const database = await postgres.createDatabase('two_hosts');
    for (const db of [0, 1]) upstash.push(await startUpstashRest(`${redis.url}/${db}`));
    const env = { SITE_URL: 'https://example.test', OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: database };
    const counters = (u: UpstashRest) => ({ UPSTASH_REDIS_REST_URL: u.url, UPSTASH_REDIS_REST_TOKEN: u.token });
    node = await startServer(copy.dir, { ...env, ...counters(upstash[0]!) });
    vercel = await startReplay(copy.dir, { ...env, ...counters(upstash[1]!) });
    table = await compareHosts([
      { name: 'node', url: node.url },
      { name: 'vercel', url: vercel.url },
    ]);
  }, 240_000);
  afterAll(async () => {
    await node?.stop();
    await vercel?.stop();
    for (const u of upstash) await u.close();
    await redis?.remove();
    postgres?.remove();
  });

  it(`answers the whole table alike, under these assumptions about Vercel: ${replayAssumptions.join('; ')}`, () => {
    expect(table.size).toBeGreaterThan(80);
    expect(table.differences, `${table.differences.length} differences in ${table.size} requests`).toEqual([]);
  });

  it('keeps the clean-URL redirects on the site on both hosts: a path that starts with // or /\\ never leads elsewhere', async () => {
    const routes = output.config.routes;
    const guard = routes.findIndex((r) => r.src === sameSiteRedirectGuard.src && r.continue);
    const cleanUrls = routes.findIndex((r) => r.status === 308 && r.headers?.Location === '/$1');
    expect(guard, 'the guard is in the Build Output').toBeGreaterThanOrEqual(0);
    expect(guard, 'and runs before the clean-URL redirects').toBeLessThan(cleanUrls);
    for (const host of [node, vercel]) {
      for (const path of [
        '//evil.example/x.html',
        '/\\evil.example/x.html',
        '///evil.example/index.html',
        '//evil.example/index',
      ]) {
        const exchange = await rawExchange(
          serialize('GET', path, [
            ['Host', `127.0.0.1:${host.port}`],
            ['Connection', 'close'],
          ]),
          { port: host.port, untilClose: true },
        );
        const location = exchange.responses[0]?.headers.get('location') ?? '/';
        expect(
          new URL(location, 'https://example.test/a/b').origin,
          `${host === node ? 'node' : 'vercel'} ${path} → ${location}`,
        ).toBe('https://example.test');
      }
    }
  });

  it('names every assumption of the replay in docs/deployment.md', () => {
    const deployment = readFileSync(path.join(projectRoot, 'docs', 'deployment.md'), 'utf8');
    for (const assumption of replayAssumptions) expect(deployment, assumption).toContain(assumption);
  });
});

describe(`the Vercel output replayed passes the MCP conformance suite ${conformanceVersion}`, () => {
  let replay: RunningServer;
  beforeAll(async () => {
    // Its own instance, fresh counters, served as http://localhost:<port> (tests/agents/mcp-conformance.test.ts runs the same on the Node host).
    replay = await startReplay(copy.dir, (port) => ({
      SITE_URL: `http://localhost:${port}`,
      OPERATIONAL_STORAGE: 'off',
    }));
  }, 120_000);
  afterAll(() => replay?.stop());

  it('passes every scenario that applies to a read-only server, and fails the others only for their documented reason', async () => {
    expect(conformanceProblems(await runConformance(`http://localhost:${replay.port}/mcp`))).toEqual([]);
  }, 120_000);

  it('accepts the loopback alias 127.0.0.1 of the site served as localhost, and refuses a foreign Host/Origin', async () => {
    const checks =
      (await runConformance(`http://127.0.0.1:${replay.port}/mcp`, { scenario: 'dns-rebinding-protection' })).get(
        'dns-rebinding-protection',
      ) ?? [];
    expect(checks.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS']);
  }, 60_000);
});

describe('the Vercel output replayed shows the MCP App view to a host in Chromium', () => {
  let postgres: TestPostgres;
  let resend: FakeResend;
  let browser: Browser;
  let replay: RunningServer;
  let database: string;

  beforeAll(async () => {
    [postgres, resend, browser] = await Promise.all([startPostgres(), startFakeResend(), launchChromium()]);
    database = await postgres.createDatabase('mcp_app');
    const storage = { OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: database };
    // Two dates of one trek, one with room for two; added as the team adds them.
    for (const [start, left] of [
      ['2031-06-05', '4'],
      ['2031-07-05', '1'],
    ] as const) {
      const added = await runCli(
        copy.dir,
        ['add', '--trip', 'hampta-pass-trek', '--start', start, '--seats', '12', '--seats-left', left],
        storage,
      );
      expect(added.code, added.stderr).toBe(0);
    }
    replay = await startReplay(copy.dir, (port) => ({
      SITE_URL: `http://localhost:${port}`,
      ...storage,
      RESEND_API_KEY: resend.apiKey,
      RESEND_BASE_URL: resend.url,
      BOOKING_EMAIL_TO: 'bookings@example.test',
      BOOKING_EMAIL_FROM: 'enquiries@example.test',
    }));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await replay?.stop();
    await resend?.close();
    postgres?.remove();
  });

  it('lists and reads the view, shows a search, changes a filter through the host, and sends an enquiry only on Send, stored once', async () => {
    const host = await openHost(browser, { width: 720 });
    try {
      const { reference } = await departureViewFlow(host, {
        mcpUrl: `${replay.url}/mcp`,
        restUrl: replay.url,
        revision: '2026-07-28',
        departureId: 'hampta-pass-trek-2031-06-05',
        search: { type: 'trek' },
        filter: { name: 'minSeats', value: '2', arguments: { type: 'trek', minSeats: 2 } },
        person: { name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2, message: 'Sent from the view on Vercel.' },
        storedWith: async (ref) => {
          const client = new pg.Client({ connectionString: database });
          await client.connect();
          try {
            const { rows } = await client.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM enquiries WHERE id = $1',
              [ref],
            );
            return rows[0]?.n ?? 0;
          } finally {
            await client.end();
          }
        },
      });
      // Delivered once, to the team, through Resend.
      expect(resend.sent.filter((r) => JSON.stringify(r.body).includes(reference))).toHaveLength(1);
    } finally {
      await host.close();
    }
  }, 120_000);
});
