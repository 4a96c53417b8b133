/**
 * The team's enquiries command on the embedded database (PGlite in DATA_DIR, opened by the
 * command itself, as `npm run enquiries` opens it beside no server): the suite of
 * command-suite.ts, which tests/bookings/postgres.test.ts runs on PostgreSQL.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { newDataDir } from '../helpers/embedded-template.ts';
import { enquiriesCommandSuite } from './command-suite.ts';

let dataDir: string;
beforeAll(() => {
  dataDir = newDataDir('enquiries-command-');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

enquiriesCommandSuite('the embedded database', () => ({
  OPERATIONAL_STORAGE: 'embedded',
  DATA_DIR: dataDir,
}));
