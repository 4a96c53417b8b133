/**
 * The layers of the code and what may import what (drawn in docs/architecture.md). Checked by
 * `npm run layers` and tests/architecture/layers.test.ts, .astro files included.
 *
 *   entries   functions/  middleware.ts  server.ts  scripts/
 *   site      src/                         live   service/functions/  service/host/
 *   library   service/ (everything else: /v1, agent files, Markdown, departures, bookings, MCP, rules, http)
 *             service/storage/ at its foot: the connection, the databases, the bridge, the migrations
 *   domain    domain/ (schemas, catalogue, formatting, HTML, page head, structured data, images)
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module must not import itself back through others: circles hide which one is the lower layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-stands-alone',
      severity: 'error',
      comment: 'The domain is what the site and the live functions share; it imports neither.',
      from: { path: '^domain/' },
      to: { path: '^(src|service|functions|scripts)/|^(server|middleware)\\.ts$' },
    },
    {
      name: 'service-never-imports-the-site',
      severity: 'error',
      comment: 'The library and the live functions run without the Astro site; what both need belongs in domain/.',
      from: { path: '^service/' },
      to: { path: '^src/' },
    },
    {
      name: 'site-never-imports-live-functions',
      severity: 'error',
      comment: 'The site is built once; the live functions and the Node host are not part of it.',
      from: { path: '^src/' },
      to: { path: '^service/(functions|host)/' },
    },
    {
      name: 'library-below-live-functions',
      severity: 'error',
      comment: 'The library serves the live functions and the site alike, so it cannot depend on either host.',
      from: { path: '^service/(?!functions/|host/)' },
      to: { path: '^service/(functions|host)/' },
    },
    {
      name: 'storage-below-its-stores',
      comment:
        'Operational storage serves the departures, enquiries and agent registrations; it knows none of them, only the settings and the data folder.',
      severity: 'error',
      from: { path: '^service/storage/' },
      to: { path: '^service/(?!storage/|config\\.ts$|data-dir\\.ts$)' },
    },
    {
      name: 'entries-are-imported-by-no-layer',
      severity: 'error',
      comment: 'Function entries, hosts and scripts sit on top; nothing below imports them.',
      from: { path: '^(domain|src|service)/' },
      to: { path: '^(functions|scripts)/|^(server|middleware)\\.ts$' },
    },
  ],
  options: {
    // swc parses TypeScript 7 sources (dependency-cruiser's tsc parser needs TypeScript < 7).
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // The compiled .astro modules stand in for the .astro files (scripts/import-layers.ts);
    // their style blocks are virtual modules of Vite, not imports of ours.
    exclude: { path: '\\.astro$|\\?astro&type=' },
  },
};
