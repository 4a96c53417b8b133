/**
 * The render quota: a live page, Markdown twin, calendar or departures block made afresh for a
 * client counts against `renderRateLimit` (service/rules/policy.ts), on the counter store the
 * request rules and every function of the deployment share, so one address cannot make the
 * functions render without end by asking for URLs no one asked for before. An answer served
 * from a kept copy costs nothing and is not counted.
 *
 * Over the quota the answer is 429 with `Retry-After`, in the form the path promises: an HTML
 * page for pages, an HTML fragment for the departures block, Markdown for twins, plain text for
 * calendars, the API's error shape for JSON. While the shared counter store fails, renders are
 * counted in the process instead (the policy's `whenStoreFails`), so the quota still holds on
 * each instance.
 */
import { ApiError, errorResponse } from '../http/errors.ts';
import { html, htmlMediaType } from '../../domain/html.ts';
import { markdownMediaType } from '../markdown/response.ts';
import { markdownTokensHeader } from '../markdown/tokens.ts';
import { clientQuotaKey } from '../rules/client-ip.ts';
import { prefersMarkdown } from '../rules/negotiation.ts';
import { renderRateLimit } from '../rules/policy.ts';
import { rateLimitHeaders, type RateLimitDecision } from '../rules/rate-limiter.ts';
import { clientOf } from './live-function.ts';
import type { LiveDeps } from './runtime.ts';
import { cachePolicy } from '../http/cache-policy.ts';

type Form = 'page' | 'fragment' | 'markdown' | 'text' | 'json';

/** The form of a path's answers: what its 429 must be too. */
function answerForm(request: Request, url: URL): Form {
  const path = url.pathname;
  if (path.endsWith('.md')) return 'markdown';
  if (path.endsWith('.ics') || path.endsWith('.txt')) return 'text';
  if (path.endsWith('.json')) return 'json';
  if (path === '/departures/block') return 'fragment';
  // A page asked for as Markdown is answered with its twin.
  return prefersMarkdown(request.headers.get('Accept')) ? 'markdown' : 'page';
}

const { requests, windowSeconds } = renderRateLimit;
const sentence = (seconds: number) =>
  `This address asked for more than ${requests} live pages, Markdown twins or calendars made afresh within ${windowSeconds} seconds. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;

/**
 * The refusal's body and media type, made once per form and wait. The page is a small document
 * of its own rather than a site frame: under a flood it is answered thousands of times a second,
 * and below 1 KB no host compresses it.
 */
const bodies = new Map<string, { type: string; body: string }>();

function refusalBody(form: Exclude<Form, 'json'>, seconds: number): { type: string; body: string } {
  const key = `${form}|${seconds}`;
  let made = bodies.get(key);
  if (made) return made;
  const text = sentence(seconds);
  if (form === 'markdown') made = { type: markdownMediaType, body: `# Too many requests\n\n${text}\n` };
  else if (form === 'text') made = { type: 'text/plain; charset=utf-8', body: `${text}\n` };
  else if (form === 'fragment') made = { type: htmlMediaType, body: html`<p class="muted">${text}</p>`.value };
  else {
    made = {
      type: htmlMediaType,
      body: html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Too many requests</title></head>
<body><main><h1>Too many requests from your address</h1><p>${text}</p>
<p>Trip pages and lists are not affected: <a href="/">home</a>, <a href="/treks">treks</a>, <a href="/expeditions">expeditions</a>.</p></main></body></html>
`.value,
    };
  }
  bodies.set(key, made);
  return made;
}

function tooManyRenders(request: Request, url: URL, decision: RateLimitDecision, siteUrl: () => string): Response {
  const form = answerForm(request, url);
  const headers = { ...rateLimitHeaders(renderRateLimit, decision), 'Cache-Control': cachePolicy.never };
  if (form === 'json') {
    const response = errorResponse(
      new ApiError('rate_limited', {
        message: sentence(decision.resetSeconds),
        hint: 'Wait as Retry-After says and retry.',
      }),
      siteUrl(),
    );
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }
  const { type, body } = refusalBody(form, decision.resetSeconds);
  return new Response(body, {
    status: 429,
    headers: { 'Content-Type': type, ...headers, ...(form === 'markdown' ? markdownTokensHeader(body) : {}) },
  });
}

let failureLoggedAt = 0;

/** Counts one fresh render for the request's client: null when it may go ahead, else the 429 to answer. */
export type RenderAdmission = (request: Request, url: URL) => Promise<Response | null>;

/**
 * The render quota of a function, on the instance's one render limiter (`deps.renderLimiter`), so
 * that while the shared counter store fails the counts this process keeps instead
 * (rate-limiter.ts) are one per client, not one per function.
 */
export function renderQuota(deps: Pick<LiveDeps, 'renderLimiter' | 'build'>): RenderAdmission {
  return async (request, url) => {
    let decision: RateLimitDecision;
    try {
      decision = await (await deps.renderLimiter())(clientQuotaKey(clientOf(request)));
    } catch (error) {
      if (Date.now() - failureLoggedAt > 60_000) {
        failureLoggedAt = Date.now();
        console.error(
          `[render-quota] counter store unavailable, not limiting: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return null;
    }
    return decision.allowed ? null : tooManyRenders(request, url, decision, () => deps.build.catalogue().siteUrl);
  };
}
