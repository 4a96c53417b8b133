/**
 * What every live function does around its own work: only the methods it serves, plain-language
 * answers outside /v1, and an unexpected failure logged and answered (JSON in the contract's
 * shape under /v1, a plain sentence elsewhere), never a stack trace or a dropped connection.
 */
import { ContentError } from '../../domain/catalogue/content-error.ts';
import { SettingsError } from '../config.ts';
import { requestUrl } from '../http/request-url.ts';
import { clientIp } from '../rules/client-ip.ts';
import { internalErrorResponse } from '../v1/internal-error.ts';
import { apiPath, type ApiPath } from '../http/api-path.ts';
import { cachePolicy } from '../http/cache-policy.ts';
import type { SiteBuild } from './site-build.ts';

export interface LiveFunction {
  fetch(request: Request): Promise<Response>;
  /**
   * Work the function does on a schedule, not for a request: on Vercel a Cron Job calls a route
   * of the function that runs it; the Node host calls this on a timer (service/host/scheduled-jobs.ts).
   */
  scheduled?(): Promise<void>;
}

/** What a function's routes read of a request besides the request itself: its address, parsed once, and what part of the API it names. */
interface RequestTarget {
  url: URL;
  api: ApiPath;
}

type Handler = (request: Request, target: RequestTarget) => Promise<Response>;

/**
 * The client's address as the host hands it over: Vercel sets X-Real-IP from the connection,
 * and the Node host (service/host/node-requests.ts) sets it the same way, replacing whatever the client sent.
 */
export function clientOf(request: Request): string {
  return clientIp(request, 'vercel', undefined);
}

export function plainText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': cachePolicy.never, ...headers },
  });
}

/** A page path this function does not serve, reached directly (for example `/api/departures`). */
export function notServedHere(url: URL): Response {
  return plainText(
    404,
    `There is nothing at ${url.pathname.slice(0, 120)}. The sitemap (/sitemap-index.xml), the developer page (/developers, with the API at /v1/) and /llms.txt list every address.`,
  );
}

export function methodNotAllowed(method: string, allow: string): Response {
  return plainText(405, `${method.slice(0, 20)} is not allowed here; use ${allow.replace(', ', ' or ')}.`, {
    Allow: allow,
  });
}

/** A HEAD request gets the GET answer's status and headers, without the body. */
export function withoutBodyForHead(request: Request, response: Response): Response {
  return request.method === 'HEAD'
    ? new Response(null, { status: response.status, headers: response.headers })
    : response;
}

let lastLogged = 0;

/** The site's address as the build knows it, or the request's own where its catalogue cannot be read. */
function siteOf(build: Pick<SiteBuild, 'catalogue'>, url: URL): string {
  try {
    return build.catalogue().siteUrl;
  } catch {
    return url.origin;
  }
}

/**
 * A function of one build (site-build.ts) around its own work. Its answers name the build they
 * were made from, as the Node host's files do (service/host/site-builds.ts).
 */
export function liveFunction(name: string, build: Pick<SiteBuild, 'id' | 'catalogue'>, handle: Handler): LiveFunction {
  const named = (response: Response) => {
    if (build.id) response.headers.set('X-Build', build.id);
    return response;
  };
  return {
    async fetch(request: Request): Promise<Response> {
      const url = requestUrl(request);
      const api = apiPath(url.pathname);
      try {
        return named(await handle(request, { url, api }));
      } catch (error) {
        const setup = error instanceof SettingsError || error instanceof ContentError;
        // One line a minute is enough to notice a broken deployment without flooding the log.
        if (!setup || Date.now() - lastLogged > 60_000) {
          lastLogged = Date.now();
          console.error(
            `[${name}] ${request.method} ${url.pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
        }
        if (api.kind !== 'not-api') return internalErrorResponse(request, siteOf(build, url));
        return setup
          ? plainText(
              503,
              'This part of the site is not available just now because of a configuration problem on our side. Please try again later.',
            )
          : plainText(500, 'Something went wrong on our side. Please try again in a minute.');
      }
    },
  };
}
