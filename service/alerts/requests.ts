/**
 * The requests of alerts, each a function of `(Request, dependencies) → Response`:
 *
 *   POST /alerts/watch          watch a date (`departure`, `people`) or a board search (its
 *                               filters), for `email`: JSON from /alerts.js or a plain form
 *   GET|POST /alerts/confirm    the confirmation link's page (a button), and confirming
 *   GET|POST /alerts/unsubscribe  the unsubscribe link's page, and stopping: RFC 8058's one-click
 *                               POST (`List-Unsubscribe=One-Click`, no cookies) or the page's buttons
 *
 * A watch is answered the same whether the address already watched it, had asked before, or is
 * over its quota, so the answer says nothing about an address; its confirmation email is sent
 * after the answer (`later`), so neither does the time taken. The requests read no cookie and
 * set none; the links' tokens are their only key.
 */
import { tripBySlug, type Catalogue } from '../../domain/catalogue/index.ts';
import { bodyFormat, type BodyFormat } from '../bookings/body.ts';
import { emailPattern } from '../bookings/enquiry.ts';
import type { Mailer } from '../bookings/mailer.ts';
import type { PageWriter } from '../bookings/responses.ts';
import { boardFilterNames, boardSearch, readBoardQuery } from '../departures/board-filters.ts';
import { todayInIndia } from '../departures/today.ts';
import { readCappedBytes } from '../http/body.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import { alertRateLimit } from '../rules/policy.ts';
import type { RateLimiter } from '../rules/rate-limiter.ts';
import { senderOf } from '../http/browser-site.ts';
import { sendMails } from './delivery.ts';
import { unsubscribeUrl } from './job.ts';
import { confirmationMail, type DepartureNames } from './mails.ts';
import {
  checkInboxPage,
  checkInboxSentence,
  confirmedPage,
  confirmPage,
  problemPage,
  unknownLinkPage,
  unsubscribedPage,
  unsubscribePage,
  type AlertPage,
} from './pages.ts';
import { alertPaths } from '../departures/alert-paths.ts';
import type { AlertStore } from './store.ts';
import { subjectWords, tokenPattern, watchUntil, type Watch, type WatchSubject } from './watch.ts';

export interface AlertDeps {
  catalogue: Catalogue;
  /** The store, or null when OPERATIONAL_STORAGE=off; throws when storage cannot be opened. */
  store(): Promise<AlertStore | null>;
  /** A published upcoming departure by id, or null; throws when storage cannot be read. */
  departure(id: string): Promise<DepartureNames | null>;
  /** The per-client limit of watch requests (alertRateLimit). */
  limiter: RateLimiter;
  mailer: Mailer;
  clock: () => Date;
  page: PageWriter;
  /** Keeps `work` going after the answer is sent (on Vercel, waitUntil). */
  later(work: Promise<unknown>): Promise<void>;
}

/** Every answer: kept nowhere, and a token in the address never passed on as a referrer. */
const private_ = { 'Cache-Control': cachePolicy.never, 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' };

function htmlOf({ status, body }: AlertPage): Response {
  return new Response(body, { status, headers: { ...private_, 'Content-Type': 'text/html; charset=utf-8' } });
}

type Refusal = { status: number; code: string; message: string; field?: string; headers?: Record<string, string> };

function refusal(format: BodyFormat | null, deps: AlertDeps, r: Refusal): Response {
  if (format === 'form') {
    const page = htmlOf(problemPage(deps.page, r.status, r.message, deps.catalogue));
    for (const [name, value] of Object.entries(r.headers ?? {})) page.headers.set(name, value);
    return page;
  }
  const error = { code: r.code, message: r.message, ...(r.field ? { field: r.field } : {}) };
  return Response.json({ error }, { status: r.status, headers: { ...private_, ...r.headers } });
}

const unavailable = (catalogue: Catalogue): Refusal => ({
  status: 503,
  code: 'alerts_unavailable',
  message: `Alerts cannot be kept on this site. Ask about dates at ${catalogue.site.contactEmail}.`,
});

const storageFailed = (catalogue: Catalogue): Refusal => ({
  status: 502,
  code: 'storage_error',
  message: `Alerts cannot be kept just now. Please try again in a few minutes, or write to ${catalogue.site.contactEmail}.`,
});

/** The fields a watch request takes: the address, a date and its party, or a board search's filters. */
const watchFields: ReadonlySet<string> = new Set(['email', 'departure', 'people', ...boardFilterNames]);

/**
 * The fields as text, or the refusal of the first one a watch request does not take (by name, or
 * a JSON value that is neither text nor a number), as /v1 refuses what it does not know: a field
 * left out silently could turn a request into a watch of something else (every departure).
 */
function watchRequestFields(fields: Record<string, unknown>): { text: Record<string, string> } | { refused: Refusal } {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!watchFields.has(name))
      return {
        refused: {
          status: 400,
          code: 'invalid_alert',
          message: `An alert takes no field "${name.slice(0, 40)}": send email with departure (and people), or email with the board's search fields (${[...boardFilterNames].join(', ')}).`,
        },
      };
    if (typeof value !== 'string' && typeof value !== 'number')
      return {
        refused: { status: 400, code: 'invalid_alert', field: name, message: `Send "${name}" as text or a number.` },
      };
    text[name] = String(value);
  }
  return { text };
}

/** The body as UTF-8 text of at most 8 KiB; null when it is not. */
async function readText(request: Request): Promise<string | null> {
  try {
    const bytes = await readCappedBytes(request, 8 * 1024);
    return bytes ? new TextDecoder('utf-8', { fatal: true }).decode(bytes) : null;
  } catch {
    return null;
  }
}

/** The fields of a URL-encoded form; null when the body cannot be read. */
async function readForm(request: Request): Promise<Record<string, string> | null> {
  const text = await readText(request);
  return text === null ? null : Object.fromEntries(new URLSearchParams(text));
}

/** The fields of a form or a JSON object; null when the body is not one. */
async function readFields(request: Request, format: BodyFormat | null): Promise<Record<string, unknown> | null> {
  if (format === 'form') return readForm(request);
  if (format !== 'json') return null;
  const text = await readText(request);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return parsed as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** What a watch request asks for: its subject, party size, words and where to go back to. */
interface Asked {
  email: string;
  subject: WatchSubject;
  partySize: number;
  departure?: DepartureNames;
  back: { href: string; label: string };
}

const emailMessage = 'Enter the email address to send the alert to, such as name@example.com.';

async function readAsk(fields: Record<string, string>, deps: AlertDeps): Promise<Asked | Refusal> {
  const email = (fields.email ?? '').trim();
  if (email.length > 254 || !emailPattern.test(email))
    return { status: 400, code: 'invalid_alert', field: 'email', message: emailMessage };
  const people = fields.people?.trim() ? Number(fields.people) : 1;
  if (!Number.isInteger(people) || people < 1 || people > 100)
    return { status: 400, code: 'invalid_alert', field: 'people', message: 'Say how many people: 1 to 100.' };
  if (fields.departure) {
    const departure = await deps.departure(fields.departure.trim());
    const page = departure && tripBySlug(deps.catalogue, departure.tripSlug);
    if (!departure || !page)
      return {
        status: 404,
        code: 'departure_not_found',
        field: 'departure',
        message: 'That date is not on sale any more, so it cannot be watched. The board shows every date we run.',
      };
    const subject: WatchSubject = { kind: 'departure', departureId: departure.id };
    return {
      email,
      subject,
      partySize: people,
      departure,
      back: { href: page.path, label: `Back to ${page.trip.name}` },
    };
  }
  const { filters } = readBoardQuery(new URLSearchParams(fields), deps.catalogue, deps.clock());
  return {
    email,
    subject: { kind: 'search', filters },
    partySize: filters.minSeats ?? 1,
    back: { href: `/departures${boardSearch(filters)}`, label: 'Back to the search' },
  };
}

/** POST /alerts/watch. */
export async function handleWatch(request: Request, deps: AlertDeps, clientIp: string): Promise<Response> {
  const format = bodyFormat(request.headers.get('Content-Type'));
  if (request.method !== 'POST')
    return refusal(format, deps, {
      status: 405,
      code: 'method_not_allowed',
      message: 'Ask for an alert with POST.',
      headers: { Allow: 'POST' },
    });
  // A page of another site cannot make a visitor's browser ask, nor spend the visitor's quota.
  if (senderOf(request, deps.catalogue.siteUrl) === 'another-site')
    return refusal(format, deps, {
      status: 403,
      code: 'cross_site_form',
      message: 'Alerts can only be asked for from our own pages.',
    });
  const decision = await deps.limiter(clientIp);
  if (!decision.allowed)
    return refusal(format, deps, {
      status: 429,
      code: 'rate_limited',
      message: `Too many alerts asked from this address: at most ${alertRateLimit.requests} in ${alertRateLimit.windowSeconds / 60} minutes. Please try again in ${Math.ceil(decision.resetSeconds / 60)} minutes.`,
      headers: { 'Retry-After': String(decision.resetSeconds) },
    });
  const read = await readFields(request, format);
  if (!read)
    return refusal(format, deps, {
      status: 400,
      code: 'invalid_alert',
      message: `Send the alert as a form or one JSON object, such as {"email": "name@example.com", "departure": "<id>"}.`,
    });
  const checked = watchRequestFields(read);
  if ('refused' in checked) return refusal(format, deps, checked.refused);
  const fields = checked.text;
  let store: AlertStore | null;
  let asked: Asked | Refusal;
  try {
    store = await deps.store();
    if (!store) return refusal(format, deps, unavailable(deps.catalogue));
    asked = await readAsk(fields, deps);
  } catch (error) {
    console.error(`[alerts] storage: ${error instanceof Error ? error.message : String(error)}`);
    return refusal(format, deps, storageFailed(deps.catalogue));
  }
  if ('status' in asked) return refusal(format, deps, asked);
  const now = deps.clock();
  const what = subjectWords(asked.subject, deps.catalogue, asked.departure);
  try {
    const queued = await store.ask(
      {
        email: asked.email,
        subject: asked.subject,
        partySize: asked.partySize,
        until: watchUntil(asked.subject, todayInIndia(now), asked.departure?.startDate),
      },
      now,
      (watch, confirm, unsubscribe) => {
        const url = unsubscribeUrl(deps.catalogue, unsubscribe);
        const links = { confirm: `${deps.catalogue.siteUrl}${alertPaths.confirm}?token=${confirm}`, unsubscribe: url };
        return { mail: confirmationMail(deps.catalogue, watch, links, asked.departure), unsubscribeUrl: url };
      },
    );
    if (queued) await deps.later(sendMails(store, deps.mailer, deps.clock, [queued]));
  } catch (error) {
    console.error(`[alerts] a watch was not kept: ${error instanceof Error ? error.message : String(error)}`);
    return refusal(format, deps, storageFailed(deps.catalogue));
  }
  if (format === 'form') return htmlOf(checkInboxPage(deps.page, what, asked.subject, asked.back));
  return Response.json(
    { status: 'check_your_inbox', message: checkInboxSentence(what) },
    { status: 202, headers: private_ },
  );
}

/** The words for what a watch is about, with its departure's dates when it is still published. */
async function watchWords(watch: Watch, deps: AlertDeps): Promise<string> {
  const departure =
    watch.subject.kind === 'departure' ? await deps.departure(watch.subject.departureId).catch(() => null) : null;
  return subjectWords(watch.subject, deps.catalogue, departure ?? undefined);
}

/**
 * The fields of a link's POST: URL-encoded from the pages' buttons and some mail clients, or
 * multipart, which RFC 8058 asks one-click unsubscribes to be sent as. Empty when neither.
 */
async function postedFields(request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data') return (await readForm(request)) ?? {};
  try {
    const bytes = await readCappedBytes(request, 8 * 1024);
    if (!bytes) return {};
    const form = await new Response(new Blob([new Uint8Array(bytes)]), {
      headers: { 'Content-Type': request.headers.get('Content-Type')! },
    }).formData();
    return Object.fromEntries([...form].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
  } catch {
    return {};
  }
}

/** A link's token: from the address, or from the form a page sent. */
async function tokenOf(request: Request, url: URL): Promise<{ token: string | null; fields: Record<string, string> }> {
  const fields = request.method === 'POST' ? await postedFields(request) : {};
  const token = fields.token ?? url.searchParams.get('token');
  return { token: token && tokenPattern.test(token) ? token : null, fields };
}

/** Opens the store for a page; a failure or storage off answers instead. */
async function pageStore(deps: AlertDeps): Promise<AlertStore | Response> {
  try {
    const store = await deps.store();
    return store ?? refusal('form', deps, unavailable(deps.catalogue));
  } catch (error) {
    console.error(`[alerts] storage: ${error instanceof Error ? error.message : String(error)}`);
    return refusal('form', deps, storageFailed(deps.catalogue));
  }
}

/** GET or POST /alerts/confirm. */
export async function handleConfirm(request: Request, url: URL, deps: AlertDeps): Promise<Response> {
  const { token } = await tokenOf(request, url);
  if (!token) return htmlOf(unknownLinkPage(deps.page));
  const store = await pageStore(deps);
  if (store instanceof Response) return store;
  const now = deps.clock();
  try {
    const watch =
      request.method === 'POST' ? await store.confirm(token, now) : await store.watchOfToken(token, 'confirm', now);
    if (!watch) return htmlOf(unknownLinkPage(deps.page));
    const what = await watchWords(watch, deps);
    return htmlOf(
      watch.state === 'confirmed' ? confirmedPage(deps.page, what, watch.subject) : confirmPage(deps.page, what, token),
    );
  } catch (error) {
    console.error(`[alerts] confirm: ${error instanceof Error ? error.message : String(error)}`);
    return refusal('form', deps, storageFailed(deps.catalogue));
  }
}

/**
 * GET or POST /alerts/unsubscribe. A POST stops at once: one-click (RFC 8058) stops every alert
 * to the address, as "unsubscribe" in a mail client means; the page's buttons say which.
 */
export async function handleUnsubscribe(request: Request, url: URL, deps: AlertDeps): Promise<Response> {
  const { token, fields } = await tokenOf(request, url);
  const oneClick = fields['List-Unsubscribe'] === 'One-Click';
  if (!token)
    return oneClick ? plain(400, 'This unsubscribe link is not one of ours.') : htmlOf(unknownLinkPage(deps.page));
  const store = await pageStore(deps);
  if (store instanceof Response) return store;
  try {
    if (request.method === 'POST') {
      await store.unsubscribe(token, fields.scope === 'watch' ? 'watch' : 'everything');
      return oneClick
        ? plain(200, 'Unsubscribed: no more alerts go to this address, and it is no longer kept for them.')
        : htmlOf(unsubscribedPage(deps.page));
    }
    const watch = await store.watchOfToken(token, 'unsubscribe', deps.clock());
    if (!watch) return htmlOf(unknownLinkPage(deps.page));
    return htmlOf(unsubscribePage(deps.page, await watchWords(watch, deps), token));
  } catch (error) {
    console.error(`[alerts] unsubscribe: ${error instanceof Error ? error.message : String(error)}`);
    return oneClick
      ? plain(502, 'Please try again in a few minutes.')
      : refusal('form', deps, storageFailed(deps.catalogue));
  }
}

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { ...private_, 'Content-Type': 'text/plain; charset=utf-8' } });
}
