/**
 * Bench entry of the local server: server.ts exactly as `npm start` runs it, but with the
 * bench-only NeverLimitingCounterStore, so a load test from one address is never refused
 * while every request still passes the request rules. Not a production setting: nothing in
 * the site can select this store.
 */
import { readSettings } from '../../service/config.ts';
import { startServer } from '../../server.ts';
import { NeverLimitingCounterStore } from './counter-store.ts';

const counterStore = new NeverLimitingCounterStore();
const settings = readSettings();
await startServer({ settings, counterStore });
console.log(`[bench] serving on ${settings.HOST}:${settings.PORT} with a never-limiting counter store`);
process.once('SIGTERM', () => console.log(`[bench] /v1 hits recorded: ${counterStore.hits}`));
