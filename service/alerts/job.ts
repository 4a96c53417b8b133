/**
 * The alert job: one run deletes what is no longer kept, queues the day's alerts (each confirmed
 * watch at most one email a day, naming every change since its last one that concerns it) and
 * sends every email waiting, retrying the failed ones. On Vercel a Cron Job runs it through
 * `/alerts/run`; on the Node host a timer does (service/host/scheduled-jobs.ts). Two runs at the
 * same moment, on two instances or a retry, queue and send each alert once (store.ts).
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import type { Mailer } from '../bookings/mailer.ts';
import { todayInIndia } from '../departures/today.ts';
import { sendMails } from './delivery.ts';
import { alertMail } from './mails.ts';
import { alertKinds } from './matching.ts';
import { alertPaths } from '../departures/alert-paths.ts';
import type { AlertPlan, AlertStore } from './store.ts';

export interface AlertJobDeps {
  store: AlertStore;
  mailer: Mailer;
  catalogue: Catalogue;
  clock: () => Date;
}

/** What one run did, as the cron route answers and the log says. */
export interface AlertJobReport {
  /** Watches deleted: unconfirmed past their link's time, of a departure that has started, of a search that has ended. */
  removed: number;
  /** Alert emails queued. */
  queued: number;
  /** Emails sent (alerts, and confirmations that had failed before). */
  delivered: number;
  /** Emails that failed, to be tried again at a later run. */
  failed: number;
}

/** The address of an unsubscribe link (its token in the query, so a one-click POST needs nothing else). */
export function unsubscribeUrl(catalogue: Catalogue, token: string): string {
  return `${catalogue.siteUrl}${alertPaths.unsubscribe}?token=${token}`;
}

function alertPlan(catalogue: Catalogue): AlertPlan {
  return {
    kinds: (watch, change) => alertKinds(watch, change, catalogue),
    compose: (watch, found, token) => {
      const url = unsubscribeUrl(catalogue, token);
      return { mail: alertMail(catalogue, watch, found, { unsubscribe: url }), unsubscribeUrl: url };
    },
  };
}

export async function runAlertJob(deps: AlertJobDeps): Promise<AlertJobReport> {
  const now = deps.clock();
  const removed = await deps.store.purge(now, todayInIndia(now));
  const queued = await deps.store.queueAlerts(now, alertPlan(deps.catalogue));
  const sent = await sendMails(deps.store, deps.mailer, deps.clock);
  return { removed, queued: queued.length, delivered: sent.delivered.length, failed: sent.failed.length };
}
