/** node-postgres against a real PostgreSQL server, behind the one Sql interface (sql.ts). */
import type { QueryResultRow } from 'pg';
import { defaultStorageTimeoutMs } from '../config.ts';
import type { Sql } from './sql.ts';

export interface ServerOptions {
  /** Bound on connecting and on each statement, so a dead server answers quickly (STORAGE_TIMEOUT_MS). */
  timeoutMs?: number;
}

export async function openServer(connectionString: string, options: ServerOptions = {}): Promise<Sql> {
  const { default: pg } = await import('pg');
  const timeoutMs = options.timeoutMs ?? defaultStorageTimeoutMs;
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
    query: async <T>(text: string, params?: unknown[]) => ({
      rows: (await pool.query<T & QueryResultRow>(text, params)).rows,
    }),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <T>(text: string, params?: unknown[]) => ({
            rows: (await client.query<T & QueryResultRow>(text, params)).rows,
          }),
        });
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
