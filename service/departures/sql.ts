/**
 * The one SQL interface the stores use, with two implementations: PGlite (embedded
 * PostgreSQL, the local default) and node-postgres against a real server. Same SQL on both.
 */
import { openEmbeddedDatabase } from './embedded.ts';

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs `work` in one transaction on one connection. */
  transaction<R>(work: (sql: Pick<Sql, 'query'>) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/**
 * The embedded database in `dataDir`. Safe to call from several processes: the first hosts
 * it, the others reach it through the host (see embedded.ts). `null` gives a private
 * in-memory database (tests).
 */
export async function openEmbedded(dataDir: string | null): Promise<Sql> {
  if (dataDir !== null) return openEmbeddedDatabase(dataDir);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  return {
    query: async (text, params) => ({ rows: (await db.query(text, params)).rows as never[] }),
    transaction: (work) => db.transaction((tx) => work({ query: async (text, params) => ({ rows: (await tx.query(text, params)).rows as never[] }) })),
    close: () => db.close(),
  };
}

export interface ServerOptions {
  /** Bound on connecting and on each statement, so a dead server answers quickly. */
  timeoutMs?: number;
}

export async function openServer(connectionString: string, options: ServerOptions = {}): Promise<Sql> {
  const { default: pg } = await import('pg');
  const timeoutMs = options.timeoutMs ?? 3000;
  const pool = new pg.Pool({
    connectionString,
    max: 5,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
    idleTimeoutMillis: 10_000,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', (error) => console.error(`[postgres] idle connection lost: ${error.message}`));
  return {
    query: async (text, params) => ({ rows: (await pool.query(text, params)).rows }),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({ query: async (text, params) => ({ rows: (await client.query(text, params)).rows }) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
