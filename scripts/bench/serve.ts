/**
 * Bench entry of the local server for the split rows only: server.ts exactly as `npm start`
 * runs it, but with the bench-only NeverLimitingCounterStore, which runs the whole request-rules
 * path without ever counting past one. Beside a headline row (the real counter store) it shows
 * what the real store costs. Not a production setting: nothing in the site can select this store.
 */
import { readSettings } from '../../service/config.ts';
import { stopOnSignals } from '../../service/host/shutdown.ts';
import { startServer } from '../../server.ts';
import { NeverLimitingCounterStore } from './counter-store.ts';

const counterStore = new NeverLimitingCounterStore();
const settings = readSettings();
const stopping = stopOnSignals(settings.SHUTDOWN_GRACE_MS);
void stopping.signalled.then(() => console.log(`[bench] /v1 hits recorded: ${counterStore.hits}`));
stopping.serving(await startServer({ settings, counterStore }));
console.log(`[bench] serving on ${settings.HOST}:${settings.PORT} with a never-limiting counter store`);
