/**
 * What the alerts function (service/functions/alerts.ts) loads at its first request of alerts,
 * feeds or the job, in one file of its bundle: the requests, the job, its mailer and the feeds.
 * The database client, Resend's SDK and the Atom writer stay behind imports of their own.
 */
export { handleConfirm, handleUnsubscribe, handleWatch } from './requests.ts';
export { runAlertJob } from './job.ts';
export { alertMailer } from './delivery.ts';
export { atomFeed, feedEntries, feedMediaTypes, jsonFeed } from './feeds.ts';
