/**
 * The last word on every agent-registration request: unreadable bodies become invalid_request
 * with their status, an unreachable identity provider or a storage failure becomes 503. No
 * request here ends in a 500 or a stack trace.
 */
import { IssuerUnreachable } from './assertions.ts';
import { oauthError, unavailable } from './oauth-response.ts';
import { BodyError } from './request-body.ts';

let lastLoggedAt = 0;

export async function guarded(label: string, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BodyError) return oauthError('invalid_request', error.message, { status: error.status });
    if (error instanceof IssuerUnreachable) {
      console.error(`[agent-auth] ${label}: ${error.message}`);
      return unavailable("The identity provider's published keys could not be read; try again shortly.");
    }
    // Storage down or misconfigured: say so once a minute, not once a request.
    if (Date.now() - lastLoggedAt > 60_000) {
      lastLoggedAt = Date.now();
      console.error(
        `[agent-auth] ${label}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
    return unavailable();
  }
}
