/**
 * One request on the Node host, in Vercel's order (router.ts): a request that names no single
 * host or carries a method a web Request cannot is refused (client-errors.ts); then the early
 * routes (the clean-URL redirects), the request rules, and the destination the route table
 * gives: a live function (answered from the edge cache when it keeps the answer, else called in
 * turn with the client's other reads), a built file, or the plain not-found answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalLivePath } from '../functions/live-queries.ts';
import type { RulesOutcome, RulesRequest } from '../rules/index.ts';
import { isApiPath } from '../http/api-path.ts';
import { KeptWith } from '../http/bounded-memo.ts';
import type { BuiltSite } from './built-site.ts';
import {
  hostHeaderRefusal,
  methodRefusal,
  plainAnswer,
  unrepresentableMethods,
  type RefusalContext,
} from './client-errors.ts';
import type { KeptResponse } from './edge-cache.ts';
import type { FairQueue } from './fair-queue.ts';
import { requestHeaders, type NodeRequests } from './node-requests.ts';
import { writeKeptResponse, writePrepared, writeWebResponse } from './web-response.ts';

export interface HostParts {
  /** The build being served (site-builds.ts); read once per request, so one request is answered from one build. */
  site: () => BuiltSite;
  requests: NodeRequests;
  /** The request rules as this host applies them. */
  rules(request: RulesRequest): Promise<RulesOutcome>;
  /** The same, decided at once when the counter store is in this process; null when they must wait on the store. */
  rulesNow(request: RulesRequest): RulesOutcome | null;
  /** How refusals are answered for a client at this socket address. */
  refusals(socketAddress: string | undefined): RefusalContext;
  /** The headers every answer carries (service/rules/security-headers.ts). */
  securityHeaders: Record<string, string>;
  /** Function reads, one per client and four in all (fair-queue.ts). */
  turns: FairQueue;
}

type Outcome = Extract<RulesOutcome, { kind: 'continue' }>;
type View = RulesRequest & { parsedUrl: URL; pathname: string; clientKey: string };

/**
 * One request, as the steps that answer it read it: the host, the build it is answered from, the
 * Node request and response, and the rules' view of it. Made once per request; what the rules
 * decided goes beside it.
 */
interface Call {
  host: HostParts;
  site: BuiltSite;
  req: IncomingMessage;
  res: ServerResponse;
  view: View;
}

/**
 * One request's answer: written before this returns (undefined) when everything it needs is in
 * memory (a built file or a kept answer already read, the rules decided at once), else a promise
 * of it. Most requests are answered at once, with no promise, closure or web Request made for them.
 */
export type Answering = void | Promise<void>;

/**
 * The key a function's answer is kept under: an API answer under its address, a live page under
 * its path and declared query (other parameters make no new answer). Worked out once per parsed
 * address (node-requests.ts parses each request target once).
 */
const keptKeys = new KeptWith((url: URL) => (isApiPath(url.pathname) ? url.href : canonicalLivePath(url)));

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/** A live function's answer: from the edge cache, or made by the function in the client's turn and kept when it may be. */
function fromFunction(call: Call, outcome: Outcome, name: string, waited = false): Answering {
  const { site, req, res, view } = call;
  const method = req.method ?? 'GET';
  const read = isRead(method);
  const key = keptKeys.get(view.parsedUrl);
  const kept = read ? site.edge.get(key, view.headers) : null;
  if (kept) return writeKeptResponse(req, res, site.edge, kept, outcome, site.edge.ageOf(kept));
  // A read that misses while the function is already making this URL's answer waits for it and
  // looks again, once: when a kept answer expires, the function runs once, not once per reader.
  const under = read && !waited ? site.edge.filling(key) : undefined;
  if (under) {
    const again = () => fromFunction(call, outcome, name, true);
    return under.then(again, again);
  }
  // The function of the build this request started on answers it (site-builds.ts).
  const answering = called(call, outcome, name, key);
  return method === 'GET' ? site.edge.fill(key, answering) : answering;
}

/** The function `name` called for this request (a read in the client's turn), its 200 to a GET kept under `key`. */
async function called(call: Call, outcome: Outcome, name: string, key: string): Promise<void> {
  const { host, site, req, res, view } = call;
  const method = req.method ?? 'GET';
  // Functions see the address the client asked for, as on Vercel, and read it themselves.
  const made = async (): Promise<Response | KeptResponse> => {
    const response = await site.functions.call(name, host.requests.webRequest(req, host.requests.clientOf(req)));
    if (method !== 'GET' || response.status !== 200 || !response.body) return response;
    const headers: Record<string, string> = {};
    for (const [headerName, value] of response.headers) headers[headerName] = value;
    return site.edge.put(key, view.headers, 200, headers, Buffer.from(await response.arrayBuffer()));
  };
  const answer = isRead(method) ? await host.turns.run(view.clientKey, made) : await made();
  if (!(answer instanceof Response)) return writeKeptResponse(req, res, site.edge, answer, outcome);
  for (const [headerName, value] of Object.entries(outcome.headers))
    if (!answer.headers.has(headerName)) answer.headers.set(headerName, value);
  return writeWebResponse(req, res, answer);
}

/** A built file, with the rules' headers and the build's; only GET and HEAD read one. */
function fromFile(
  { host, site, req, res }: Call,
  outcome: Outcome,
  destination: { pathname: string; status: 200 | 404; headers?: Readonly<Record<string, string>> },
): Answering {
  const method = req.method ?? 'GET';
  if (!isRead(method)) {
    return writeWebResponse(
      req,
      res,
      plainAnswer(
        405,
        `${method.slice(0, 20)} is not allowed here: this address is a page or a file, read with GET.`,
        host,
        { Allow: 'GET, HEAD' },
      ),
    );
  }
  const served = site.files.serve(destination.pathname, req, res, destination.status, outcome, destination.headers);
  if (served === true) return;
  return (async () => {
    if (served !== false && (await served)) return;
    // A built file that can no longer be read (the folder changed under the server) is answered, never left hanging.
    return writeWebResponse(
      req,
      res,
      plainAnswer(503, 'This file cannot be read just now. Please try again in a minute.', host),
    );
  })();
}

/**
 * Answers one request, wholly from the build being served when it starts, to its last byte (its
 * files, and its live functions, made for it: site-builds.ts); what fails
 * unexpectedly, at once or later, is left to the server (node-server.ts).
 */
export function requestHandler(host: HostParts): (req: IncomingMessage, res: ServerResponse) => Answering {
  return (req, res) => answer(host, host.site(), req, res);
}

function answer(host: HostParts, site: BuiltSite, req: IncomingMessage, res: ServerResponse): Answering {
  const refusedHost = hostHeaderRefusal(req, host);
  if (refusedHost) return writeWebResponse(req, res, refusedHost);
  const method = req.method ?? 'GET';
  // A web Request cannot carry these methods; they are refused as unknown ones are.
  if (unrepresentableMethods.has(method)) {
    return methodRefusal(method, req.url ?? '/', requestHeaders(req), host.refusals(req.socket.remoteAddress)).then(
      (response) => writeWebResponse(req, res, response),
    );
  }
  const view = host.requests.rulesView(req);
  const early = site.earlyRoutes(view.pathname);
  if (early.redirect) {
    return writeWebResponse(
      req,
      res,
      plainAnswer(early.redirect.status, `Moved to ${early.redirect.location}`, host, {
        Location: early.redirect.location,
      }),
    );
  }
  const outcome = host.rulesNow(view);
  const call: Call = { host, site, req, res, view };
  if (outcome) return afterRules(call, outcome);
  return host.rules(view).then((later) => afterRules(call, later));
}

/** What the rules decided, carried out: their own answer, or the destination the route table gives. */
function afterRules(call: Call, outcome: RulesOutcome): Answering {
  const { host, site, req, res } = call;
  if (outcome.kind === 'respond')
    return outcome.prepared ? writePrepared(req, res, outcome.prepared) : writeWebResponse(req, res, outcome.response);
  const destination = site.destinationOf(outcome.pathname);
  if (destination.kind === 'function') return fromFunction(call, outcome, destination.name);
  if (destination.kind === 'file') return fromFile(call, outcome, destination);
  return writeWebResponse(
    req,
    res,
    plainAnswer(404, 'Not found. See /sitemap-index.xml, /developers and /llms.txt.', host),
  );
}
