/**
 * Checks the agent-facing contract with tools written by others, against the service functions
 * served on loopback (the real content, no operational storage): the MCP Inspector CLI, the
 * oauth4webapi discovery client, a robots.txt parser, and two real tokenizers to see how
 * X-Markdown-Tokens compares. The tools are installed from npm into a scratch folder, never
 * into the project:
 *
 *   node scripts/agent-interop.ts [--tools /tmp/tools]
 *
 * Prints one line per check and exits non-zero when one fails.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { renderAuthMd } from '../service/agent-auth/auth-md.ts';
import { handleAuthorizationServerMetadata, handleMcpProtectedResourceMetadata, handleProtectedResourceMetadata } from '../service/agent-auth/discovery.ts';
import type { MetadataInput } from '../service/agent-auth/metadata.ts';
import { buildAiCatalog } from '../service/agents/ai-catalog.ts';
import { agentInstructionsMarkdown } from '../service/agents/guidance.ts';
import { buildLlmsFull } from '../service/agents/llms-full.ts';
import { publishedFile, publishedJson } from '../service/agents/published-file.ts';
import { buildRobotsTxt } from '../service/agents/robots.ts';
import { buildDiscoveryServerCard, buildServerCard } from '../service/agents/server-card.ts';
import { departuresMarkdown } from '../service/markdown/departures.ts';
import { markdownTokenCount } from '../service/markdown/tokens.ts';
import { tripMarkdown } from '../service/markdown/trip.ts';
import { handleMcp } from '../service/mcp/index.ts';
import type { Catalogue } from '../service/catalogue/index.ts';
import { loadCatalogue, realContent } from '../tests/helpers/content.ts';

const toolsDir = process.argv.includes('--tools') ? path.resolve(process.argv[process.argv.indexOf('--tools') + 1] ?? '') : '/tmp/tools';
const tools = {
  'oauth4webapi': '3.8.8',
  'robots-parser': '3.0.1',
  'gpt-tokenizer': '4.0.0',
  '@anthropic-ai/tokenizer': '0.0.4',
  '@modelcontextprotocol/inspector': '2.12.0',
};

function install(): void {
  const missing = Object.entries(tools).filter(([name]) => !existsSync(path.join(toolsDir, 'node_modules', name, 'package.json')));
  if (missing.length === 0) return;
  execFileSync('npm', ['install', '--no-save', '--prefix', toolsDir, ...missing.map(([name, version]) => `${name}@${version}`)], { stdio: 'inherit' });
}

interface OAuth4WebApi {
  allowInsecureRequests: symbol;
  discoveryRequest(issuer: URL, options: Record<string | symbol, unknown>): Promise<Response>;
  processDiscoveryResponse(issuer: URL, response: Response): Promise<Record<string, string | string[] | undefined> & { issuer: string; grant_types_supported?: string[]; id_token_signing_alg_values_supported?: string[] }>;
  resourceDiscoveryRequest(resource: URL, options: Record<string | symbol, unknown>): Promise<Response>;
  processResourceDiscoveryResponse(resource: URL, response: Response): Promise<{ resource: string; authorization_servers?: string[] }>;
}

const run = promisify(execFile);

const results: { check: string; ok: boolean; detail: string }[] = [];
function report(check: string, ok: boolean, detail = ''): void {
  results.push({ check, ok, detail });
  console.log(`${ok ? 'pass' : 'FAIL'}  ${check}${detail ? `: ${detail}` : ''}`);
}

async function serve(handler: (request: Request) => Promise<Response> | Response): Promise<{ origin: string; close(): void }> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : null;
    const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method ?? 'GET', headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function main(): Promise<void> {
  install();
  const load = createRequire(path.join(toolsDir, 'package.json'));
  // The catalogue and metadata name the origin they are served from, as SITE_URL does on a deployment.
  let live: Catalogue | undefined;
  let input: MetadataInput | undefined;
  const running = await serve((request) => {
    const { pathname } = new URL(request.url);
    if (!live || !input) return new Response('starting', { status: 503 });
    if (pathname === '/mcp') return handleMcp(request, { catalogue: live, departures: null });
    if (pathname === '/.well-known/oauth-protected-resource') return handleProtectedResourceMetadata(request, input);
    if (pathname === '/.well-known/oauth-protected-resource/mcp') return handleMcpProtectedResourceMetadata(request, input);
    if (pathname === '/.well-known/oauth-authorization-server' || pathname === '/.well-known/openid-configuration') return handleAuthorizationServerMetadata(request, input);
    if (pathname === '/robots.txt') return publishedFile('/robots.txt', buildRobotsTxt(live));
    if (pathname === '/.well-known/ai-catalog.json') return publishedJson('/.well-known/ai-catalog.json', buildAiCatalog(live));
    if (pathname === '/.well-known/mcp/server-card') return publishedJson('/.well-known/mcp/server-card', buildDiscoveryServerCard(live));
    if (pathname === '/mcp/server-card') return publishedJson('/mcp/server-card', buildServerCard(live));
    return new Response('not found', { status: 404 });
  });
  live = loadCatalogue(realContent, running.origin);
  input = { siteUrl: running.origin, resourceName: live.site.serviceName, anonymousEnabled: true, trustedIssuers: [] };

  try {
    // 1. The official MCP Inspector, CLI mode: list tools, call list_trips as the issue did.
    const inspector = path.join(toolsDir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
    const catalogFile = path.join(toolsDir, 'inspector-catalog.json');
    // Asynchronously: the server answering it runs in this process.
    const runInspector = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, [inspector, '--cli', `${running.origin}/mcp`, '--transport', 'http', ...args], {
        encoding: 'utf8',
        // Whatever the Inspector remembers stays in the scratch folder.
        env: { ...process.env, HOME: toolsDir, MCP_CATALOG_PATH: catalogFile },
      });
      return JSON.parse(stdout);
    };
    const listed = (await runInspector('--method', 'tools/list')) as { tools: { name: string }[] };
    report('MCP Inspector CLI tools/list', listed.tools.length === 5, listed.tools.map((t) => t.name).join(', '));
    for (const [name, args] of [['list_trips', ['difficulty=easy']], ['list_trips', ['difficulty=very difficult']], ['list_peaks', ['openPeak=true', 'maxAltitudeM=6500']]] as const) {
      const called = (await runInspector('--method', 'tools/call', '--tool-name', name, ...args.flatMap((a) => ['--tool-arg', a]))) as { isError?: boolean; structuredContent?: { count: number } };
      report(`MCP Inspector CLI tools/call ${name} ${args.join(' ')}`, called.isError !== true, `count ${called.structuredContent?.count}`);
    }

    // 2. oauth4webapi: RFC 8414 discovery, OpenID-style discovery of the same document, RFC 9728 for the site and /mcp.
    // Typed by hand: the tool is not a dependency of the project.
    const oauth = (await import(load.resolve('oauth4webapi'))) as OAuth4WebApi;
    const issuer = new URL(running.origin);
    const insecure = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    report('oauth4webapi RFC 8414 discovery', as.issuer === running.origin && typeof as.token_endpoint === 'string', `grants ${as.grant_types_supported?.join(', ')}`);
    const oidc = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
    report('oauth4webapi openid-configuration discovery', oidc.issuer === as.issuer, `no id_token_signing_alg_values_supported: ${oidc.id_token_signing_alg_values_supported === undefined}`);
    for (const resource of [new URL(running.origin), new URL(`${running.origin}/mcp`)]) {
      const rs = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));
      report(`oauth4webapi RFC 9728 discovery of ${resource.pathname}`, rs.authorization_servers?.[0] === running.origin, `resource ${rs.resource}`);
    }

    // 3. robots-parser: agents acting for a person may POST where auth.md says; crawlers may not.
    const robotsParser = load('robots-parser') as (url: string, text: string) => { isAllowed(url: string, ua: string): boolean | undefined };
    const robotsUrl = `${running.origin}/robots.txt`;
    const robots = robotsParser(robotsUrl, await (await fetch(robotsUrl)).text());
    const authPaths = [...new Set([...renderAuthMd(input!).matchAll(/^\s*POST (https?:\/\/\S+)/gm)].map((m) => new URL(m[1] ?? '').pathname))];
    for (const ua of ['Claude-User', 'ChatGPT-User', 'Perplexity-User']) {
      const refused = authPaths.filter((p) => !robots.isAllowed(`${running.origin}${p}`, ua));
      report(`robots-parser ${ua} may use ${authPaths.join(', ')}`, refused.length === 0, refused.join(', '));
    }
    report('robots-parser GPTBot kept off /agent/identity', robots.isAllowed(`${running.origin}/agent/identity`, 'GPTBot') === false);

    // 4. Discovery documents as served.
    const aiCatalog = await fetch(`${running.origin}/.well-known/ai-catalog.json`);
    report('ai-catalog at /.well-known with its media type', aiCatalog.status === 200 && aiCatalog.headers.get('content-type') === 'application/ai-catalog+json', aiCatalog.headers.get('content-type') ?? '');
    const card = (await (await fetch(`${running.origin}/.well-known/mcp/server-card`)).json()) as { capabilities?: unknown };
    report('server card at /.well-known/mcp/server-card with capabilities', card.capabilities !== undefined, JSON.stringify(card.capabilities));

    // 5. X-Markdown-Tokens against two real tokenizers, over the Markdown the site serves.
    const gpt = (await import(load.resolve('gpt-tokenizer'))) as { countTokens(text: string): number };
    const claude = load('@anthropic-ai/tokenizer') as { countTokens(text: string): number };
    const texts: [string, string][] = [
      ...live.trips.map((page): [string, string] => [page.path, tripMarkdown(live, page, { state: 'off' })]),
      ['/departures.md', departuresMarkdown(live, { state: 'off' })],
      ['/agent-instructions.md', agentInstructionsMarkdown(live)],
      ['/auth.md', renderAuthMd(input!)],
      ['/llms-full.txt', buildLlmsFull(live)],
    ];
    const ratios = texts.map(([name, text]) => ({ name, estimate: markdownTokenCount(text), gpt: gpt.countTokens(text), claude: claude.countTokens(text) }));
    const spread = (key: 'gpt' | 'claude') => ratios.map((r) => r.estimate / r[key]);
    const range = (values: number[]) => `${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}`;
    // Reported, not judged: the header is an estimate (service/markdown/tokens.ts).
    report('X-Markdown-Tokens / o200k (gpt-tokenizer)', true, `ratio ${range(spread('gpt'))} over ${texts.length} texts`);
    report('X-Markdown-Tokens / Claude tokenizer (@anthropic-ai/tokenizer)', true, `ratio ${range(spread('claude'))} over ${texts.length} texts`);
  } finally {
    running.close();
  }
  const failed = results.filter((r) => !r.ok);
  console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

await main();
