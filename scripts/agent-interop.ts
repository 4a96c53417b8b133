/**
 * Checks the agent-facing contract of a running host with tools written by others: the MCP
 * Inspector CLI, the official MCP clients and conformance suite on each protocol revision
 * (scripts/interop/mcp-revisions.ts), the oauth4webapi discovery client, a robots.txt parser, two
 * real tokenizers to see how X-Markdown-Tokens compares, and (scripts/interop/agent-actions.ts) Redocly,
 * Spectral and Prism on both OpenAPI documents, WebMCP in Chromium, the server card, the sitemap
 * against its XSD and two readiness scanners. Start the site first (`npm start`, or `npm run
 * serve` after a build); the origin must be the host's SITE_URL, as issuers and resources name
 * it. The outside tools are installed from npm into a scratch folder, never into the project:
 *
 *   npm run interop -- [--url http://localhost:4321] [--tools /tmp/tools]
 *
 * Prints one line per check and exits non-zero when one fails.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { actionTools, agentActionChecks } from './interop/agent-actions.ts';
import { mcpRevisionChecks, modernSuite } from './interop/mcp-revisions.ts';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}
const toolsDir = path.resolve(option('--tools', '/tmp/tools'));
const origin = new URL(option('--url', 'http://localhost:4321')).origin;
const tools = {
  oauth4webapi: '3.8.8',
  'robots-parser': '3.0.1',
  'gpt-tokenizer': '4.0.0',
  '@anthropic-ai/tokenizer': '0.0.4',
  '@modelcontextprotocol/inspector': '2.12.0',
  ...modernSuite,
  ...actionTools,
};

function install(): void {
  const missing = Object.entries(tools).filter(
    ([name]) => !existsSync(path.join(toolsDir, 'node_modules', name, 'package.json')),
  );
  if (missing.length === 0) return;
  // All of them: an install without --save removes from the folder whatever it was not given.
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--prefix',
      toolsDir,
      ...Object.entries(tools).map(([name, version]) => `${name}@${version}`),
    ],
    { stdio: 'inherit' },
  );
}

interface OAuth4WebApi {
  allowInsecureRequests: symbol;
  discoveryRequest(issuer: URL, options: Record<string | symbol, unknown>): Promise<Response>;
  processDiscoveryResponse(
    issuer: URL,
    response: Response,
  ): Promise<
    Record<string, string | string[] | undefined> & {
      issuer: string;
      grant_types_supported?: string[];
      id_token_signing_alg_values_supported?: string[];
    }
  >;
  resourceDiscoveryRequest(resource: URL, options: Record<string | symbol, unknown>): Promise<Response>;
  processResourceDiscoveryResponse(
    resource: URL,
    response: Response,
  ): Promise<{ resource: string; authorization_servers?: string[] }>;
}

const run = promisify(execFile);

const results: { check: string; ok: boolean; detail: string }[] = [];
function report(check: string, ok: boolean, detail = ''): void {
  results.push({ check, ok, detail });
  console.log(`${ok ? 'pass' : 'FAIL'}  ${check}${detail ? `: ${detail}` : ''}`);
}

async function main(): Promise<void> {
  install();
  const load = createRequire(path.join(toolsDir, 'package.json'));
  const home = await fetch(origin).catch((error: unknown) => {
    throw new Error(`nothing answers at ${origin} (${String(error)}); start the site first (npm start)`);
  });
  report(`host answers at ${origin}`, home.ok, String(home.status));

  // 1. MCP on each protocol revision: the official clients and conformance suites; then the official MCP Inspector, CLI mode: list tools, call two of them.
  await mcpRevisionChecks({ origin, toolsDir, report });
  const inspector = path.join(
    toolsDir,
    'node_modules',
    '@modelcontextprotocol',
    'inspector',
    'clients',
    'launcher',
    'build',
    'index.js',
  );
  const catalogFile = path.join(toolsDir, 'inspector-catalog.json');
  const runInspector = async (...args: string[]) => {
    const { stdout } = await run(
      process.execPath,
      [inspector, '--cli', `${origin}/mcp`, '--transport', 'http', ...args],
      {
        encoding: 'utf8',
        // Whatever the Inspector remembers stays in the scratch folder.
        env: { ...process.env, HOME: toolsDir, MCP_CATALOG_PATH: catalogFile },
      },
    );
    return JSON.parse(stdout) as unknown;
  };
  const listed = (await runInspector('--method', 'tools/list')) as { tools: { name: string }[] };
  report('MCP Inspector CLI tools/list', listed.tools.length === 6, listed.tools.map((t) => t.name).join(', '));
  for (const [name, args] of [
    ['list_trips', ['difficulty=easy']],
    ['list_trips', ['difficulty=very difficult']],
    ['list_peaks', ['openPeak=true', 'maxAltitudeM=6500']],
  ] as const) {
    const called = (await runInspector(
      '--method',
      'tools/call',
      '--tool-name',
      name,
      ...args.flatMap((a) => ['--tool-arg', a]),
    )) as { isError?: boolean; structuredContent?: { count: number } };
    report(
      `MCP Inspector CLI tools/call ${name} ${args.join(' ')}`,
      called.isError !== true,
      `count ${called.structuredContent?.count}`,
    );
  }

  // 2. oauth4webapi: RFC 8414 discovery, OpenID-style discovery of the same document, RFC 9728 for the site and /mcp.
  // Typed by hand: the tool is not a dependency of the project.
  const oauth = (await import(load.resolve('oauth4webapi'))) as OAuth4WebApi;
  const issuer = new URL(origin);
  const insecure = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  report(
    'oauth4webapi RFC 8414 discovery',
    as.issuer === origin && typeof as.token_endpoint === 'string',
    `grants ${as.grant_types_supported?.join(', ')}`,
  );
  // Not OpenID Connect discovery: the same RFC 8414 document, naming that address as canonical; no OpenID Provider member is claimed.
  const alias = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure });
  const canonical = alias.headers.get('link') ?? '';
  const oidc = await oauth.processDiscoveryResponse(issuer, alias);
  const claimsProvider =
    oidc.id_token_signing_alg_values_supported !== undefined || oidc.subject_types_supported !== undefined;
  report(
    'oauth4webapi openid-configuration: the RFC 8414 alias, not OpenID Connect discovery',
    oidc.issuer === as.issuer && !claimsProvider && canonical.includes('/.well-known/oauth-authorization-server'),
    `Link: ${canonical}`,
  );
  for (const resource of [new URL(origin), new URL(`${origin}/mcp`)]) {
    const rs = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure),
    );
    report(
      `oauth4webapi RFC 9728 discovery of ${resource.pathname}`,
      rs.authorization_servers?.[0] === origin,
      `resource ${rs.resource}`,
    );
  }

  // 3. robots-parser: agents acting for a person may POST where auth.md says; crawlers may not.
  const robotsParser = load('robots-parser') as (
    url: string,
    text: string,
  ) => { isAllowed(url: string, ua: string): boolean | undefined };
  const robotsUrl = `${origin}/robots.txt`;
  const robots = robotsParser(robotsUrl, await (await fetch(robotsUrl)).text());
  const authMd = await (await fetch(`${origin}/auth.md`)).text();
  const authPaths = [
    ...new Set([...authMd.matchAll(/^\s*POST (https?:\/\/\S+)/gm)].map((m) => new URL(m[1] ?? '').pathname)),
  ];
  for (const ua of ['Claude-User', 'ChatGPT-User', 'Perplexity-User']) {
    const refused = authPaths.filter((p) => !robots.isAllowed(`${origin}${p}`, ua));
    report(`robots-parser ${ua} may use ${authPaths.join(', ')}`, refused.length === 0, refused.join(', '));
  }
  report(
    'robots-parser GPTBot kept off /agent/identity',
    robots.isAllowed(`${origin}/agent/identity`, 'GPTBot') === false,
  );

  // 4. Discovery documents as served.
  const aiCatalog = await fetch(`${origin}/.well-known/ai-catalog.json`);
  report(
    'ai-catalog at /.well-known with its media type',
    aiCatalog.status === 200 && aiCatalog.headers.get('content-type') === 'application/ai-catalog+json',
    aiCatalog.headers.get('content-type') ?? '',
  );

  // 5. X-Markdown-Tokens against two real tokenizers, over the Markdown the site serves.
  const gpt = (await import(load.resolve('gpt-tokenizer'))) as { countTokens(text: string): number };
  const claude = load('@anthropic-ai/tokenizer') as { countTokens(text: string): number };
  // The Markdown as served, and the estimate the host sent with it.
  const trips = (await (await fetch(`${origin}/v1/trips`)).json()) as { data: { url: string }[] };
  const paths = [
    ...trips.data.map((trip) => new URL(trip.url).pathname),
    '/departures',
    '/agent-instructions.md',
    '/auth.md',
    '/llms-full.txt',
  ];
  const texts = await Promise.all(
    paths.map(async (pathname) => {
      const response = await fetch(`${origin}${pathname}`, { headers: { accept: 'text/markdown' } });
      const markdown = response.headers.get('content-type')?.startsWith('text/markdown') ?? false;
      return {
        name: pathname,
        markdown,
        text: await response.text(),
        header: Number(response.headers.get('x-markdown-tokens')),
      };
    }),
  );
  // llms-full.txt is Markdown served as text/plain, as llms.txt files are: no estimate is sent with it.
  const unlabelled = texts.filter((t) => t.markdown && !(t.header > 0)).map((t) => t.name);
  report('X-Markdown-Tokens sent with every text/markdown answer', unlabelled.length === 0, unlabelled.join(', '));
  const ratios = texts
    .filter((t) => t.header > 0)
    .map(({ name, text, header }) => ({
      name,
      estimate: header,
      gpt: gpt.countTokens(text),
      claude: claude.countTokens(text),
    }));
  const spread = (key: 'gpt' | 'claude') => ratios.map((r) => r.estimate / r[key]);
  const range = (values: number[]) => `${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)}`;
  // Reported, not judged: the header is an estimate (service/markdown/tokens.ts).
  report('X-Markdown-Tokens / o200k (gpt-tokenizer)', true, `ratio ${range(spread('gpt'))} over ${texts.length} texts`);
  report(
    'X-Markdown-Tokens / Claude tokenizer (@anthropic-ai/tokenizer)',
    true,
    `ratio ${range(spread('claude'))} over ${texts.length} texts`,
  );
  // 6. What agents can do and find besides reading (scripts/interop/agent-actions.ts).
  await agentActionChecks({ origin, toolsDir, report, inspector: runInspector });

  const failed = results.filter((r) => !r.ok);
  console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

await main();
