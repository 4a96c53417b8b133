/**
 * node-postgres against a real PostgreSQL server, behind the one Sql interface (sql.ts), the same
 * code directly and through a pooler in transaction mode (PgBouncer, as Neon's, Supabase's and
 * DigitalOcean's pooled addresses run). A pooler hands each transaction whichever server
 * connection is free and refuses startup parameters it does not track, so nothing here lives in
 * a session: no startup parameters, no named prepared statements, no session locks, no SET
 * outside a transaction, no temporary tables.
 *
 * Every statement runs inside a transaction that first sets the server's own bounds for it
 * (`set_config(..., true)`, which ends with the transaction): the statement timeout, and how long
 * the transaction may sit idle, so a function instance suspended mid-transaction cannot hold a
 * server connection. The pool's client sends each transaction's statements without waiting for
 * the one before where it can (pipeline mode): a read is BEGIN, the bounds, the statement and
 * COMMIT in one round trip, as one statement alone was; a transaction's opening is one round
 * trip too. The client gives up a little after that bound (`clientGraceMs`), for a server that
 * does not answer at all: a statement the server cuts ends cleanly and its connection goes back
 * to the pool, where one the client gives up on is closed.
 */
import type { PoolClient, QueryResultRow } from 'pg';
import { defaultStorageTimeoutMs } from '../config.ts';
import type { Sql } from './sql.ts';

export interface ServerOptions {
  /** Bound on connecting and on each statement, so a dead server answers quickly (STORAGE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The direct address beside a pooled `connectionString`, where migrations run (DATABASE_URL_UNPOOLED). */
  directUrl?: string | undefined;
  /**
   * The process is a Vercel function instance, suspended between requests (Fluid compute): the
   * pool is attached with `attachDatabasePool`, which keeps the instance running until idle
   * connections are closed, so none is left open across a suspension.
   */
  suspends?: boolean;
}

/**
 * Per instance: a few connections, closed after 5 s idle (Vercel's advice for instances that
 * suspend; a busy Node host keeps them, as reads come every second). Reads of departures are
 * shared per filter (service/departures/recent-reads.ts), so five is more than a busy instance
 * uses; docs/deployment.md gives the connection budget.
 */
const poolSize = { max: 5, idleTimeoutMs: 5_000 };

/** How much longer than the server's bound the client waits for an answer, so the server's cut arrives first. */
const clientGraceMs = 500;

/** The server's bounds for the transaction it opens: the statement timeout, and the longest it may wait idle for the client. */
const boundsStatement =
  "SELECT set_config('statement_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $1, true)";

type Client = Pick<PoolClient, 'query'>;

const rowsOf = async <T>(client: Client, text: string, params?: unknown[]): Promise<{ rows: T[] }> => ({
  rows: (await client.query<T & QueryResultRow>(text, params)).rows,
});

/** The first failure of statements sent together, in the order they were sent. */
function firstFailure(settled: PromiseSettledResult<unknown>[]): Error | undefined {
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return undefined;
  return failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
}

async function openPool(connectionString: string, timeoutMs: number, max: number) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs + clientGraceMs,
    idleTimeoutMillis: poolSize.idleTimeoutMs,
    pipeline: true,
  });
  // An idle client losing its server (a restarted pooler) must not crash the process; the next query reconnects.
  pool.on('error', (error) => console.error(`[postgres] idle connection lost: ${error.message}`));
  // Nor one lost while it is lent out: its queries fail with the loss, but the event must not go unheard.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

type Pool = Awaited<ReturnType<typeof openPool>>;

function pooledSql(pool: Pool, timeoutMs: number): Omit<Sql, 'close' | 'direct'> {
  const bounds = [String(timeoutMs)];
  return {
    query: async <T>(text: string, params?: unknown[]) => {
      const client = await pool.connect();
      const settled = await Promise.allSettled([
        client.query('BEGIN'),
        client.query(boundsStatement, bounds),
        client.query<T & QueryResultRow>(text, params),
        client.query('COMMIT'),
      ]);
      // COMMIT answered (ROLLBACK, after a failed statement): the connection is clean and goes back; otherwise it is closed.
      const [, , read, commit] = settled;
      const failure = firstFailure(settled);
      client.release(commit.status === 'fulfilled' ? undefined : failure);
      if (failure) throw failure;
      return { rows: (read as PromiseFulfilledResult<{ rows: T[] }>).value.rows };
    },
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        const opened = await Promise.allSettled([client.query('BEGIN'), client.query(boundsStatement, bounds)]);
        const failure = firstFailure(opened);
        if (failure !== undefined) throw failure;
        const result = await work({ query: <T>(text: string, params?: unknown[]) => rowsOf<T>(client, text, params) });
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        // A transaction that cannot be rolled back leaves its connection in an unknown state: closed, not reused.
        const rolledBack = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
        client.release(rolledBack ? undefined : (error as Error));
        throw error;
      }
    },
  };
}

export async function openServer(connectionString: string, options: ServerOptions = {}): Promise<Sql> {
  const timeoutMs = options.timeoutMs ?? defaultStorageTimeoutMs;
  const pool = await openPool(connectionString, timeoutMs, poolSize.max);
  if (options.suspends) {
    // A CommonJS module: its exports are the default export, as pg's are, both in Node and in a
    // function's bundle (scripts/vercel/function-bundles.ts), where a named import finds nothing.
    const { default: dbConnections } = await import('@vercel/functions/db-connections');
    dbConnections.attachDatabasePool(pool);
  }
  const sql = pooledSql(pool, timeoutMs);
  const directUrl = options.directUrl && options.directUrl !== connectionString ? options.directUrl : null;
  return {
    ...sql,
    close: () => pool.end(),
    ...(directUrl
      ? {
          // One connection of its own, for as long as the work takes: rarely needed (a schema behind the code).
          direct: async (work) => {
            const direct = await openPool(directUrl, timeoutMs, 1);
            try {
              return await work(pooledSql(direct, timeoutMs));
            } finally {
              await direct.end();
            }
          },
        }
      : {}),
  };
}
