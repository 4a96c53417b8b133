/**
 * MCP Apps (the extension `io.modelcontextprotocol/ui`, SEP-1865, stable since 2026-01-26): the
 * departure search as a view a chat client shows in the conversation, on the official
 * `@modelcontextprotocol/ext-apps` server helpers. `list_departures` and `get_trip` name the
 * view (`_meta.ui.resourceUri`, and the older `_meta["ui/resourceUri"]`, which the helper writes
 * too); the view is a `ui://` resource whose text is one HTML document, built with the site
 * (src/mcp-app/, scripts/mcp-app.ts) and filled in here with what it shows from the catalogue
 * (departure-view.ts). It draws from the tools' structured results and asks for more, and sends
 * an enquiry, only through the host (a `tools/call` of this server): it fetches nothing itself,
 * so its declared Content-Security-Policy names no origin at all.
 *
 * Offered only to a client that says it shows views, as the extension asks of servers: a
 * client without the extension gets exactly the answers it always had. A 2026-07-28 request
 * says so itself (its `clientCapabilities` in `_meta`); a 2025 revision says it once, in
 * `initialize`, and this server keeps no sessions, so the answer to such an `initialize` carries
 * an `Mcp-Session-Id` that names the extension (viewsSessionId) and the client sends back with
 * every later request, as the 2025 transport requires of it. Nothing is kept on the server: the
 * id is the whole of what it says, and a client that makes one up only gets the view offered.
 */
import { randomUUID } from 'node:crypto';
import {
  EXTENSION_ID,
  getUiCapability,
  registerAppResource,
  RESOURCE_MIME_TYPE,
  type McpUiReadResourceResult,
} from '@modelcontextprotocol/ext-apps/server';
import { CLIENT_CAPABILITIES_META_KEY, type McpServer } from '@modelcontextprotocol/server';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { departureViewData, type DepartureViewData } from './departure-view.ts';

/** The extension's identifier, as clients declare it and the SDK reads it. */
export const viewExtension = EXTENSION_ID;

/** What the client a server answers is offered: the views, or the plain tools alone. */
export interface ClientOffer {
  views: boolean;
}

export const plainClient: ClientOffer = { views: false };

/** The built views' HTML, as the build wrote it (the live functions read it from the build being served). */
export interface ViewTemplates {
  departureSearch(): string;
}

export const departureSearchView = {
  uri: 'ui://catalogue/departure-search.html',
  name: 'departure-search',
  title: 'Departure search',
  description:
    'The departure search as people use it on the site: dates with kind, difficulty, length, seats and price, the filters of GET /v1/departures, and "Enquire for this date", which sends an enquiry through send_enquiry when the person presses Send.',
} as const;

/** The tools whose results the view shows: the search, and one trip (for its dates). */
export const toolViews: Readonly<Record<string, string>> = {
  list_departures: departureSearchView.uri,
  get_trip: departureSearchView.uri,
};

/**
 * What the view may reach, declared with it: nothing. Every host builds the view's CSP from this
 * (no `connect-src`, `img-src` or frame origin but its own), and the view needs none, as all it
 * shows comes through the host.
 */
export const viewCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/** How the view asks to be shown: it draws its own cards, in the host's border. */
const viewUi = { csp: viewCsp, prefersBorder: true };

/** Whether capabilities a client declared include showing MCP App views (HTML, the extension's one type). */
function showsViews(capabilities: unknown): boolean {
  const ui = getUiCapability(isObject(capabilities) ? capabilities : undefined);
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A 2026-07-28 request's offer: the capabilities it carries in `_meta`. */
export function modernOffer(body: unknown): ClientOffer {
  const params = isObject(body) && isObject(body.params) ? body.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  return { views: showsViews(meta?.[CLIENT_CAPABILITIES_META_KEY]) };
}

/** A 2025 `initialize` that declares the extension (the only 2025 request that carries capabilities). */
export function initializeShowingViews(body: unknown): boolean {
  if (!isObject(body) || body.method !== 'initialize' || !isObject(body.params)) return false;
  return showsViews(body.params.capabilities);
}

const viewsSessionPrefix = 'mcp-app-views.';

/** The `Mcp-Session-Id` of a 2025 client that declared the extension in `initialize`. */
export function viewsSessionId(): string {
  return `${viewsSessionPrefix}${randomUUID()}`;
}

/** A 2025 request's offer: the views when its `Mcp-Session-Id` is one viewsSessionId gave. */
export function legacyOffer(sessionId: string | null): ClientOffer {
  return {
    views: sessionId !== null && sessionId.startsWith(viewsSessionPrefix) && sessionId.length <= 100,
  };
}

/** Where the view's data goes in the built document: the one JSON block, as the build leaves it. */
export const viewDataMarker = '<script id="view-data" type="application/json">null</script>';

/**
 * The built document with the catalogue's data in it. The JSON is written so that no `<` can end
 * the script element early: every character of the data stays text.
 */
export function viewDocument(template: string, data: DepartureViewData): string {
  const at = template.indexOf(viewDataMarker);
  if (at < 0 || template.indexOf(viewDataMarker, at + 1) >= 0)
    throw new Error('the built departure view has no single place for its data: build the site again (npm run build)');
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `${template.slice(0, at)}<script id="view-data" type="application/json">${json}</script>${template.slice(at + viewDataMarker.length)}`;
}

/** Each catalogue's document, for the template it was made from (a new build brings a new catalogue). */
const documents = new WeakMap<Catalogue, { template: string; html: string }>();

function documentFor(catalogue: Catalogue, template: string): string {
  const kept = documents.get(catalogue);
  if (kept?.template === template) return kept.html;
  const html = viewDocument(template, departureViewData(catalogue));
  documents.set(catalogue, { template, html });
  return html;
}

/** The view as a `ui://` resource: listed with its CSP, read as the built document with the catalogue's data. */
export function registerViews(server: McpServer, catalogue: Catalogue, templates: ViewTemplates): void {
  const view = departureSearchView;
  registerAppResource(
    server,
    view.name,
    view.uri,
    { title: view.title, description: view.description, _meta: { ui: viewUi } },
    (uri): McpUiReadResourceResult => ({
      contents: [
        {
          uri: uri.href,
          mimeType: RESOURCE_MIME_TYPE,
          text: documentFor(catalogue, templates.departureSearch()),
          _meta: { ui: viewUi },
        },
      ],
    }),
  );
}
