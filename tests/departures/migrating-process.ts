/**
 * One process migrating operational storage, for tests/departures/migrations.test.ts: it opens
 * the database given as its argument, says `ready`, waits for a line on its input (so several
 * processes start migrating at the same moment), migrates, and prints the versions it applied,
 * or the error, as one JSON line.
 */
import { createInterface } from 'node:readline';
import { migrate } from '../../service/storage/migrations/index.ts';
import { openServer } from '../../service/storage/postgres.ts';

const sql = await openServer(process.argv[2]!);
await sql.query('SELECT 1');
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();
try {
  process.stdout.write(`${JSON.stringify({ applied: await migrate(sql) })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
} finally {
  await sql.close();
}
