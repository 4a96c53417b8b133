/**
 * What one read of departures costs on PostgreSQL, directly and through PgBouncer in transaction
 * mode, and across a link with latency (a loopback proxy holding each packet for a while, as a
 * database in another building would): the read as the site makes it (BEGIN, the server's
 * bounds, the statement and COMMIT sent together, one round trip: service/storage/postgres.ts),
 * the same four statements each waiting for the one before (four round trips), and one statement
 * alone with its timeout as a startup parameter, as before the pooler was supported (one round
 * trip; PgBouncer refuses that parameter, so directly only).
 */
import { createServer, connect, type Server } from 'node:net';
import pg from 'pg';
import { columns } from '../../service/departures/rows.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import { seedDepartures } from '../../service/departures/seed.ts';
import { openServer } from '../../service/storage/postgres.ts';
import { startPostgres } from '../../tests/departures/postgres.ts';
import { startPgBouncer } from '../../tests/helpers/pgbouncer.ts';
import { loadCatalogue, realContent } from '../../tests/helpers/content.ts';
import { fixed, type Section } from './report.ts';

const read = `SELECT ${columns} FROM departures WHERE published AND start_date >= $2::date AND ($1::text IS NULL OR trip_slug = $1) ORDER BY start_date, id`;
const params = [null, '2020-01-01'];

/** A TCP proxy on loopback that holds every chunk `delayMs` before passing it on, each way. */
async function slowLink(port: number, delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer({ noDelay: true }, (client) => {
    const upstream = connect({ host: '127.0.0.1', port, noDelay: true });
    const pass = (from: typeof client, to: typeof client) =>
      from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs));
    pass(client, upstream);
    pass(upstream, client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the slow link has no port');
  return { port: address.port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type Reader = { read(): Promise<unknown>; close(): Promise<unknown> };

/** The site's read: openServer's pipelined transaction. */
async function asTheSiteReads(url: string): Promise<Reader> {
  const sql = await openServer(url);
  return { read: () => sql.query(read, params), close: () => sql.close() };
}

/** The same four statements, each sent when the one before has answered. */
function oneAfterAnother(url: string): Reader {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return {
    read: async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          "SELECT set_config('statement_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $1, true)",
          ['3000'],
        );
        await client.query(read, params);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** One statement alone, its timeout sent in the connection's startup packet (which a pooler refuses). */
function statementAlone(url: string): Reader {
  const pool = new pg.Pool({ connectionString: url, max: 1, statement_timeout: 3000 });
  return { read: () => pool.query(read, params), close: () => pool.end() };
}

/** Median milliseconds per read over `rounds` rounds of `reads` reads one after another. */
async function perRead(reader: Reader, reads: number, rounds: number): Promise<number> {
  await reader.read();
  const medians: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    const started = performance.now();
    for (let i = 0; i < reads; i += 1) await reader.read();
    medians.push((performance.now() - started) / reads);
  }
  await reader.close();
  return medians.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

export async function storageReadsSection(rounds: number): Promise<Section> {
  const postgres = await startPostgres();
  const pooler = await startPgBouncer(postgres.port);
  const links: { close(): Promise<void> }[] = [];
  try {
    const direct = await postgres.createDatabase('bench_reads');
    const catalogue = loadCatalogue(realContent);
    const sql = await openServer(direct);
    const store = new DepartureStore(async () => sql, { trips: knownTrips(catalogue) });
    const departures = seedDepartures(catalogue, new Date());
    await store.upsert(...departures);
    await store.close();
    const latencyMs = 5;
    const slowDirect = await slowLink(postgres.port, latencyMs);
    const slowPooler = await slowLink(pooler.port, latencyMs);
    links.push(slowDirect, slowPooler);
    const at = (port: number) => `postgres://postgres@127.0.0.1:${port}/bench_reads`;
    const ways = [
      { label: 'directly', url: direct, reads: 500 },
      { label: 'through PgBouncer', url: pooler.url('bench_reads'), reads: 500 },
      { label: `directly, ${latencyMs * 2} ms round trip`, url: at(slowDirect.port), reads: 60 },
      { label: `through PgBouncer, ${latencyMs * 2} ms round trip`, url: at(slowPooler.port), reads: 60 },
    ];
    const rows: string[][] = [];
    const slow: { label: string; site: number; sequential: number; alone: number | null }[] = [];
    for (const way of ways) {
      const site = await perRead(await asTheSiteReads(way.url), way.reads, rounds);
      const sequential = await perRead(oneAfterAnother(way.url), way.reads, rounds);
      const alone = way.label.includes('PgBouncer') ? null : await perRead(statementAlone(way.url), way.reads, rounds);
      rows.push([way.label, fixed(site, 3), fixed(sequential, 3), alone === null ? 'refused' : fixed(alone, 3)]);
      if (way.label.includes('round trip')) slow.push({ label: way.label, site, sequential, alone });
    }
    const roundTrip = latencyMs * 2;
    return {
      title: 'A read of departures on PostgreSQL: directly, through PgBouncer, and across a slow link',
      about: `One read of the ${departures.length} seeded departures, one after another on one connection (median of ${rounds} rounds), in milliseconds: as the site reads (BEGIN, the server's bounds, the statement and COMMIT sent together), the same four statements each waiting for the one before, and one statement alone with \`statement_timeout\` in the startup packet as before the pooler was supported. The slow link is a loopback proxy holding each packet ${latencyMs} ms each way.`,
      header: [
        'Way to the database',
        'As the site reads (1 round trip)',
        'Four, one after another',
        'One statement alone',
      ],
      rows,
      findings: slow.map(
        (w) =>
          `${w.label}: as the site reads, ${fixed(w.site / roundTrip, 1)} round trips' time a read${w.alone === null ? '' : ` (a statement alone: ${fixed(w.alone / roundTrip, 1)})`}; one after another, ${fixed(w.sequential / roundTrip, 1)}.`,
      ),
    };
  } finally {
    for (const link of links) await link.close();
    await pooler.remove();
    postgres.remove();
  }
}
