/**
 * The one SQL interface the stores use, with two implementations: PGlite (embedded
 * PostgreSQL, the local default; `openEmbedded` in embedded.ts) and node-postgres against a
 * real server (`openServer` in postgres.ts). Same SQL on both.
 */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs `work` in one transaction on one connection. */
  transaction<R>(work: (sql: Pick<Sql, 'query'>) => Promise<R>): Promise<R>;
  close(): Promise<void>;
  /**
   * Runs `work` through the database's direct address, on a connection of its own closed after:
   * present where the settings give one beside a pooled address (DATABASE_URL_UNPOOLED). The
   * migrations use it (migrations/index.ts); everything else goes through the pool.
   */
  direct?<R>(work: (sql: Pick<Sql, 'query' | 'transaction'>) => Promise<R>): Promise<R>;
}
