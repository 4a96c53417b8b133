/**
 * The alerts function (service/alerts):
 *
 *   POST /alerts/watch                 watch a date or a board search (email only, double opt-in)
 *   GET|POST /alerts/confirm?token=    the confirmation link's page, and confirming
 *   GET|POST /alerts/unsubscribe?token=  the unsubscribe page, and stopping (RFC 8058 one-click)
 *   GET /alerts/run                    one run of the alert job, for Vercel Cron only
 *                                      (`Authorization: Bearer $CRON_SECRET`)
 *   GET /departures/feed.atom[?the board's filters], /departures/feed.json[?…]
 *                                      a search's changes as Atom and as JSON Feed 1.1
 *
 * On the Node host the job runs on a timer instead (`scheduled`, service/host/scheduled-jobs.ts).
 * The alerts' code is loaded at the first request that needs it (service/alerts/live.ts), storage
 * at the first that reads it, and the Atom writer only for Atom.
 */
import { timingSafeEqual } from 'node:crypto';
import { readBoardQuery } from '../departures/board-filters.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { alertRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type RateLimiter } from '../rules/rate-limiter.ts';
import { alertPaths, feedPaths } from '../departures/alert-paths.ts';
import type { AlertDeps } from '../alerts/requests.ts';
import type { AlertJobReport } from '../alerts/job.ts';
import type { Mailer } from '../bookings/mailer.ts';
import { alertStorage } from './alert-storage.ts';
import { declaredQuery } from './live-queries.ts';
import {
  clientOf,
  liveFunction,
  methodNotAllowed,
  notServedHere,
  plainText,
  withoutBodyForHead,
  type LiveFunction,
} from './live-function.ts';
import { liveDepartures } from './live-storage.ts';
import { livePageHtml } from './page-shell.ts';
import { renderQuota } from './render-quota.ts';
import { kept, type LiveDeps } from './runtime.ts';

/** The alerts' requests, job, mailer and feeds, loaded at the first request that needs one. */
const alerts = () => import('../alerts/live.ts');

/** Whether `Authorization` carries the cron secret (compared in constant time). */
function fromCron(request: Request, secret: string | undefined): boolean {
  if (!secret) return false;
  const given = Buffer.from(request.headers.get('Authorization') ?? '');
  const wanted = Buffer.from(`Bearer ${secret}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

let loggedNoSecret = false;

export function alertsFunction(deps: LiveDeps): LiveFunction {
  const storage = deps.shared(alertStorage);
  const departures = liveDepartures(deps);
  const admit = renderQuota(deps);
  const limiter = kept(async (): Promise<RateLimiter> =>
    createRateLimiter(alertRateLimit, await deps.counters(), () => deps.clock().getTime()),
  );
  const mailer = kept(async (): Promise<Mailer> => {
    const { alertMailer } = await alerts();
    return alertMailer(deps.settings(), deps.build.catalogue().site.contactEmail);
  });

  const alertDeps = async (): Promise<AlertDeps> => ({
    catalogue: deps.build.catalogue(),
    store: async () => (await storage())?.store ?? null,
    departure: async (id) => {
      const live = await departures.live();
      if (live.state === 'unavailable') throw new Error('departures cannot be read');
      return live.state === 'live' ? (live.departures.find((d) => d.id === id) ?? null) : null;
    },
    limiter: await limiter(),
    mailer: await mailer(),
    clock: deps.clock,
    page: (page) => livePageHtml(deps.build, 'page', page),
    later: async (work) => {
      const logged = work.catch((error: unknown) =>
        console.error(`[alerts] ${error instanceof Error ? error.message : String(error)}`),
      );
      // On Vercel the instance may be frozen once the answer is sent: it is told to wait for the work.
      if (deps.settings().VERCEL === '1') {
        const functions = await import('@vercel/functions');
        (functions.default ?? functions).waitUntil(logged);
      }
    },
  });

  /** One run of the job on this instance's storage; null when there is none. */
  const runJob = async (): Promise<AlertJobReport | null> => {
    const parts = await storage();
    if (!parts) return null;
    const { runAlertJob } = await alerts();
    return runAlertJob({
      store: parts.store,
      mailer: await mailer(),
      catalogue: deps.build.catalogue(),
      clock: deps.clock,
    });
  };

  const feed = async (request: Request, url: URL, format: 'atom' | 'json'): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.method, 'GET, HEAD');
    const refused = await admit(request, url);
    if (refused) return withoutBodyForHead(request, refused);
    const parts = await storage().catch((error: unknown) => {
      console.error(`[alerts] storage: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    if (parts === null)
      return plainText(503, 'Departures are not published on this site, so neither are their changes.');
    if (!parts)
      return plainText(503, 'The changes cannot be read just now. Please try again in a minute.', {
        'Retry-After': '60',
      });
    const { feedEntries, atomFeed, jsonFeed, feedMediaTypes } = await alerts();
    const catalogue = deps.build.catalogue();
    const { filters } = readBoardQuery(declaredQuery(url), catalogue, deps.clock());
    const entries = await feedEntries(parts.changes, catalogue, filters, deps.clock());
    const body =
      format === 'atom' ? await atomFeed(catalogue, filters, entries) : jsonFeed(catalogue, filters, entries);
    return withoutBodyForHead(
      request,
      new Response(body, {
        headers: { 'Content-Type': feedMediaTypes[format], 'Cache-Control': cachePolicy.departures },
      }),
    );
  };

  const run = async (request: Request): Promise<Response> => {
    if (!fromCron(request, deps.settings().CRON_SECRET)) {
      if (!deps.settings().CRON_SECRET && !loggedNoSecret) {
        loggedNoSecret = true;
        console.error('[alerts] /alerts/run was called, but CRON_SECRET is not set: every call is refused.');
      }
      return plainText(401, 'This address runs the alert job for the site’s scheduler only.', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    if (request.method !== 'GET' && request.method !== 'POST') return methodNotAllowed(request.method, 'GET, POST');
    const report = await runJob();
    return Response.json(report ?? { storage: 'off' }, { headers: { 'Cache-Control': cachePolicy.never } });
  };

  const fn = liveFunction('alerts', deps.build, async (request, { url }) => {
    switch (url.pathname) {
      case feedPaths.atom:
        return feed(request, url, 'atom');
      case feedPaths.json:
        return feed(request, url, 'json');
      case alertPaths.run:
        return run(request);
      case alertPaths.watch:
        return (await alerts()).handleWatch(request, await alertDeps(), clientOf(request));
      case alertPaths.confirm:
      case alertPaths.unsubscribe: {
        if (!['GET', 'HEAD', 'POST'].includes(request.method)) return methodNotAllowed(request.method, 'GET, POST');
        // A page rendered afresh counts against the render quota, as every live page does.
        if (request.method !== 'POST') {
          const refused = await admit(request, url);
          if (refused) return withoutBodyForHead(request, refused);
        }
        const { handleConfirm, handleUnsubscribe } = await alerts();
        const handle = url.pathname === alertPaths.confirm ? handleConfirm : handleUnsubscribe;
        return withoutBodyForHead(request, await handle(request, url, await alertDeps()));
      }
      default:
        return notServedHere(url);
    }
  });
  return {
    ...fn,
    async scheduled() {
      const report = await runJob();
      if (report && (report.queued > 0 || report.delivered > 0 || report.failed > 0 || report.removed > 0))
        console.log(`[alerts] job: ${JSON.stringify(report)}`);
    },
  };
}
