/**
 * The local (and any self-hosted Node) host, shaped like the Vercel deployment: the request rules
 * (what middleware.ts runs on Vercel), then the files of the published build (dist/current/site,
 * taken up without a restart when a new one is published), then the live
 * functions of functions/, routed by the same table (vercel.json and the build's own routes; see
 * service/host/router.ts). Run with `npm start`; settings come from the environment (see
 * .env.example). This file only wires the host's parts (service/host/) together.
 */
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readSettings, SettingsError, type Settings } from './service/config.ts';
import { prepareDataDir } from './service/data-dir.ts';
import { loadEnvFile } from './service/env-file.ts';
import { applyRules, applyRulesNow, type RulesContext, type RulesRequest } from './service/rules/index.ts';
import { clientIp } from './service/rules/client-ip.ts';
import { openCounterStore } from './service/rules/counter-stores.ts';
import { apiRateLimit } from './service/rules/policy.ts';
import { createRateLimiter, type CounterStore } from './service/rules/rate-limiter.ts';
import { securityHeaders } from './service/rules/security-headers.ts';
import { liveInstance } from './service/functions/runtime.ts';
import { FunctionEntries } from './service/host/functions.ts';
import { hostEmbeddedDatabase } from './service/host/embedded-database.ts';
import { closeUnstarted, closeWhenStopped, stopOnSignals, type SignalStop } from './service/host/shutdown.ts';
import { outboxDir, removeAbandonedDrafts } from './service/bookings/outbox-drafts.ts';
import { closeOperationalStorage } from './service/storage/connection.ts';
import { DiskFullError, storageFailure } from './service/storage/disk-space.ts';
import { closeHostedDatabases } from './service/storage/embedded.ts';
import { withHostMemorySettings } from './service/host/native-memory.ts';
import { SiteBuilds } from './service/host/site-builds.ts';
import { FairQueue } from './service/host/fair-queue.ts';
import { asSeenByRules, nodeRequests } from './service/host/node-requests.ts';
import { createNodeServer, type HostTimeouts } from './service/host/node-server.ts';
import { requestHandler, type HostParts } from './service/host/request-handler.ts';
import { runScheduledJobs } from './service/host/scheduled-jobs.ts';

const root = path.dirname(fileURLToPath(import.meta.url));

export interface ServerOptions {
  settings: Settings;
  counterStore?: CounterStore;
  /** How long a client may take to send a request (service/host/node-server.ts); the defaults otherwise. */
  timeouts?: Partial<HostTimeouts>;
}

export async function startServer({ settings, counterStore, timeouts }: ServerOptions): Promise<Server> {
  // Local data (the embedded database, the outbox, keys) is private to this account. A full disk
  // does not stop the site: storage says so and opens once there is room (service/host/embedded-database.ts).
  try {
    prepareDataDir(settings);
  } catch (error) {
    if (!(storageFailure(error, settings.DATA_DIR) instanceof DiskFullError)) throw error;
  }
  // What a process killed here left in the outbox (service/bookings/outbox-drafts.ts).
  removeAbandonedDrafts(outboxDir(settings));
  const store = counterStore ?? (await openCounterStore(settings.counters));
  // What every build's functions share: this server's settings, and its counter store, on which the
  // rules and the functions count one client in one place.
  const instance = liveInstance({ settings: () => settings, counters: () => Promise.resolve(store) });
  // The build served (files, routes, catalogue, functions, kept answers), taken up whole when a new one is published.
  const builds = SiteBuilds.open(root, settings, new FunctionEntries(path.join(root, 'functions')), instance);
  const apiLimiter = createRateLimiter(apiRateLimit, store);
  const origin = `http://${settings.HOST}:${settings.PORT}`;
  const trust = settings.TRUST_PROXY ?? 'none';
  const rulesContext: RulesContext = { siteUrl: settings.siteUrl, apiLimiter, trustProxy: 'vercel' };
  const rules = (request: RulesRequest) => applyRules(request, rulesContext);
  const host: HostParts = {
    site: () => builds.current(),
    requests: nodeRequests({ origin, trust }),
    rules,
    rulesNow: (request) => applyRulesNow(request, rulesContext),
    refusals: (socketAddress) => ({
      siteUrl: settings.siteUrl,
      origin,
      securityHeaders: host.securityHeaders,
      rules: (request) =>
        rules({
          url: request.url,
          method: request.method,
          headers: asSeenByRules(request.headers, clientIp(request, trust, socketAddress)),
        }),
    }),
    securityHeaders: securityHeaders({ https: settings.siteUrl.startsWith('https:') }),
    turns: new FairQueue(),
  };
  const server = createNodeServer(host, requestHandler(host), timeouts);
  builds.attach(server);
  // What Vercel Cron does for a deployment (the alert job), on a timer, with the build being served.
  runScheduledJobs(server, settings.ALERT_JOB_INTERVAL_MS, () => builds.current().functions);
  // Stopped by its entry (stopServer): storage and counters close once the requests have ended.
  closeWhenStopped(server, async () => {
    await closeOperationalStorage();
    await closeHostedDatabases();
    if (!counterStore) await store.close?.();
  });
  await hostEmbeddedDatabase(settings, server);
  await listen(server, settings);
  return server;
}

/**
 * Listens on HOST:PORT. An address another program holds, or one this machine does not have, is
 * the settings' to change: it fails as they do, in one plain line (which keeps Node's code, such
 * as EADDRINUSE), after closing what was opened for this server (storage, counters).
 */
async function listen(server: Server, settings: Settings): Promise<void> {
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(settings.PORT, settings.HOST, () => {
        server.off('error', fail);
        done();
      });
    });
  } catch (error) {
    await closeUnstarted(server);
    const { code = 'an error', message } = error as NodeJS.ErrnoException;
    const why = listenFailures[code] ?? message;
    throw new SettingsError(`Cannot listen on ${settings.HOST}:${settings.PORT} (${code}): ${why}.`);
  }
}

/** What to change when listening fails, by Node's error code. */
const listenFailures: Partial<Record<string, string>> = {
  EADDRINUSE: 'another program is listening there: stop it, or set PORT to a free port',
  EADDRNOTAVAIL: 'this machine has no such address: set HOST to one of its own (127.0.0.1 by default)',
  EACCES: 'this account may not listen on that port: set PORT to 1024 or above',
};

/**
 * `npm start` and `npm run serve`: serves until SIGTERM or SIGINT, then stops as
 * service/host/shutdown.ts says (requests in flight finish, storage closes, exit 0).
 */
export async function serveUntilStopped(settings: Settings, stopping: SignalStop): Promise<void> {
  const server = await startServer({ settings });
  stopping.serving(server);
  console.log(`Serving the site and API on ${settings.siteUrl} (listening on ${settings.HOST}:${settings.PORT})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Before anything is allocated that would stay: malloc's settings are read at process start.
  withHostMemorySettings();
  try {
    loadEnvFile();
    const settings = readSettings();
    await serveUntilStopped(settings, stopOnSignals(settings.SHUTDOWN_GRACE_MS));
  } catch (error) {
    console.error(error instanceof SettingsError ? error.message : error);
    process.exit(1);
  }
}
