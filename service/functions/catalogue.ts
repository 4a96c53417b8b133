/**
 * The catalogue function: every /v1 request the published files cannot answer as they are —
 * a query string (filters), a method other than GET or HEAD, an Accept header that rules JSON
 * out, an unknown trip or peak, an unknown path. Trips and peaks change only with a deploy,
 * so each distinct answer is worked out once and then served as the same bytes
 * (service/http/bounded-memo.ts), once per build of the site (the function is made per build).
 * Live departures are the departures function's.
 */
import { BoundedMemo } from '../http/bounded-memo.ts';
import { handleV1, type MemoAnswer } from '../v1/index.ts';
import { liveFunction, notServedHere, type LiveFunction } from './live-function.ts';
import type { LiveDeps } from './runtime.ts';

/** The catalogue function of one build: it needs nothing but the build. */
export function catalogueFunction({ build }: Pick<LiveDeps, 'build'>): LiveFunction {
  const memo = new BoundedMemo<MemoAnswer>();
  return liveFunction('catalogue', build, async (request, { url, api }) => {
    if (api.kind === 'not-api') return notServedHere(url);
    // No storage here: /v1/departures is routed to the departures function (vercel.json).
    return handleV1(request, { catalogue: build.catalogue(), departures: null }, memo);
  });
}
