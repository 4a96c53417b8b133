/**
 * Published paths declared in service/site-files.ts that the hosts do not serve yet: the route
 * files (src/pages), server.ts and vercel.json belong to the hosting work, which wires them from
 * the declarations. Tests of the served site skip these until then; remove an entry once its host
 * side is in place, and delete this file when it is empty.
 */
export const awaitingHost = {
  /** New paths, with the service function that answers each. */
  routes: {
    '/.well-known/ai-catalog.json': 'buildAiCatalog (service/agents/ai-catalog.ts), static',
    '/.well-known/mcp/server-card': 'buildDiscoveryServerCard (service/agents/server-card.ts), static',
    '/.well-known/oauth-protected-resource/mcp': 'handleMcpProtectedResourceMetadata (service/agent-auth/discovery.ts), live',
  } as Record<string, string>,
  /** Existing paths whose document changes to another builder. */
  documents: {
    '/.well-known/mcp/server-card.json': 'buildDiscoveryServerCard',
    '/mcp/server-card.json': 'buildDiscoveryServerCard',
  } as Record<string, string>,
  /** Paths whose media type the hosts must take from mediaTypeOverrides() instead of extensionlessMediaTypes(). */
  mediaTypes: ['/ai-catalog.json', '/.well-known/ai-catalog.json', '/.well-known/mcp/server-card'],
  /** Pages Astro renders per request, answered as bare `text/html` until the hosts apply htmlContentType (service/http/html.ts). */
  htmlCharset: ['/treks', '/expeditions', '/treks/sample-trek', '/departures', '/peak-data', '/agent/claim'],
};

export function servedYet(path: string): boolean {
  return !(path in awaitingHost.routes) && !(path in awaitingHost.documents) && !awaitingHost.mediaTypes.includes(path);
}
