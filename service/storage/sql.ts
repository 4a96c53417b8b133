/**
 * The one SQL interface the stores use, with two implementations: PGlite (embedded
 * PostgreSQL, the local default; `openEmbedded` in embedded.ts) and node-postgres against a
 * real server (`openServer` in postgres.ts). Same SQL on both.
 */
/**
 * The longest anything waits on operational storage: a read for a request (bounded once, in
 * service/departures/recent-reads.ts), and each connection and statement of the PostgreSQL pool
 * (service/storage/postgres.ts), so a hung server fails a request in 3 s and gives its
 * connections back. Written here only.
 */
export const storageTimeoutMs = 3000;

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs `work` in one transaction on one connection. */
  transaction<R>(work: (sql: Pick<Sql, 'query'>) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}
