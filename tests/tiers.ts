/**
 * The test tiers: each test file belongs to exactly one (tests/architecture/tiers.test.ts holds
 * that), and each tier is a Vitest project (vitest.config.ts) with its own setup: it checks for
 * the outside programs its files start, and builds the fixture site only if its files serve it.
 * `npm test` runs every tier; `npm run test:<tier>` runs one. docs/testing.md says what belongs where.
 */

/** An outside program a tier starts, by the Debian package that installs it (tests/helpers/requirements.ts). */
export type Program =
  | 'chromium-headless-shell'
  | 'postgresql'
  | 'pgbouncer'
  | 'redis-server'
  | 'gdal-bin'
  | 'python3-pandas'
  | 'python3-rnc2rng'
  | 'python3-lxml';

export interface Tier {
  name: string;
  /** What a file must need (and may not need more than) to belong here. */
  holds: string;
  /** Test files, as globs from the project root. */
  include: string[];
  /** The outside programs its files start: checked before any of its files runs. */
  programs: Program[];
  /** Whether its files serve the built fixture site (built once per run, before the first of them). */
  fixtureSite: boolean;
}

export const tiers: Tier[] = [
  {
    name: 'unit',
    holds:
      'Functions and handlers called in this process: no browser, no database server, no build, no child process (PGlite in memory and loopback stand-ins for remote APIs are fine). Runs on a machine without Chromium, PostgreSQL or Redis.',
    include: [
      'tests/unit/**/*.test.ts',
      'tests/architecture/*.test.ts',
      'tests/alerts/{alerts,changes}.test.ts',
      'tests/agent-auth/{attacks,flows,settings-and-keys}.test.ts',
      'tests/agents/{generate,handler,mcp-parity,mcp-views,peak-data-formats}.test.ts',
      'tests/bookings/{handler,idempotency,thank-you,validation}.test.ts',
      'tests/contract/departure-search.test.ts',
      'tests/departures/rules.test.ts',
      'tests/rate-limit/client-ip.test.ts',
      'tests/site/{altitude-profile,units}.test.ts',
    ],
    programs: [],
    fixtureSite: false,
  },
  {
    name: 'http',
    holds:
      'The built fixture site served by server.ts, asked over HTTP by fetch and by the official clients (the MCP SDK, GDAL and pandas for the peak dataset, rnc2rng and lxml for the Atom feed): no browser, no database server.',
    include: [
      'tests/http/{server,smoke}.test.ts',
      'tests/alerts/feeds.test.ts',
      'tests/agents/{mcp-client,mcp-conformance,mcp-enquiry,mcp-errors,mcp-revisions,mcp-views-served,peak-data-tools,served}.test.ts',
      'tests/contract/{openapi-document,prism,properties,responses}.test.ts',
      'tests/departures/{board,live}.test.ts',
      'tests/rate-limit/server.test.ts',
      'tests/site/{sitemap,twins}.test.ts',
    ],
    // The dataset's readers: GDAL's ogrinfo and ogr2ogr, and pandas under Debian's Python; the Atom
    // feed's validator: RFC 4287's grammar through rnc2rng and lxml, under the same Python.
    programs: ['gdal-bin', 'python3-pandas', 'python3-rnc2rng', 'python3-lxml'],
    fixtureSite: true,
  },
  {
    name: 'site',
    holds: 'The served site in Chromium: pages, the enquiry form, the offline worker, WebMCP, the claim page.',
    include: [
      'tests/site/{browser,departure-search,departures-board,departures-freshness,enquiry-checks,enquiry-flow,enquiry-frictions,mcp-app,offline,offline-network,phone,trip-page,visuals,webmcp}.test.ts',
      'tests/bookings/{origin,site}.test.ts',
      'tests/alerts/flow.test.ts',
      'tests/agent-auth/served.test.ts',
    ],
    programs: ['chromium-headless-shell'],
    fixtureSite: true,
  },
  {
    name: 'build',
    holds:
      'Full builds of a copy of the project: `astro build`, `vercel build` and its replay beside the Node host (the MCP App view through it in Chromium), `npm start` building, content the build refuses; Vitest itself run on a machine without the programs the tiers need.',
    include: ['tests/build/*.test.ts', 'tests/http/start.test.ts', 'tests/site/html.test.ts'],
    // The Vercel replay reads departures from PostgreSQL and counts through Redis; a host shows its MCP App view in Chromium.
    programs: ['postgresql', 'redis-server', 'chromium-headless-shell'],
    // The HTML check reads the fixture site beside the real catalogue it builds.
    fixtureSite: true,
  },
  {
    name: 'storage',
    holds:
      'Operational storage as processes share it: PostgreSQL directly and through PgBouncer, Redis, the embedded database across processes (the CLI over the bridge, a killed host), several Node hosts as one site, enquiries delivered and retried.',
    include: [
      'tests/departures/{storage,migrations,cli,faults,embedded,crash,bridge,full-disk,shutdown}.test.ts',
      'tests/bookings/{command,delivery,postgres}.test.ts',
      'tests/alerts/postgres.test.ts',
      'tests/agent-auth/postgres.test.ts',
      'tests/rate-limit/{redis,redis-frozen,upstash}.test.ts',
      'tests/hosts/*.test.ts',
    ],
    programs: ['postgresql', 'pgbouncer', 'redis-server'],
    fixtureSite: true,
  },
  {
    name: 'hardening',
    holds:
      'The Node host under hostile or heavy input: fuzzing, request limits, floods and fairness, Host headers and redirects (one check in Chromium), security headers, the data folder, its memory settings as it starts itself again.',
    include: ['tests/hardening/*.test.ts'],
    programs: ['chromium-headless-shell'],
    fixtureSite: true,
  },
];

export function tierNamed(name: string): Tier {
  const tier = tiers.find((t) => t.name === name);
  if (!tier) throw new Error(`no test tier named "${name}" (tests/tiers.ts)`);
  return tier;
}
