/** One step of the schema: applied once, by version, inside a transaction (index.ts). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
