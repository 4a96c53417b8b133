/**
 * robots.txt (RFC 9309): everyone may read the site. Crawlers, AI crawlers among them, are kept
 * off the endpoints that answer POSTs or per-request state (nothing there to index); the agents
 * that fetch on a person's behalf (ChatGPT-User, Claude-User, Perplexity-User) are not, because
 * auth.md and the agent instructions send exactly those agents to POST there. Content Signals say
 * how the content may be used: search and answers that cite it yes, model training no, because
 * training strips the dataset's CC-BY attribution and freezes prices and dates that change.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';

/** The AI crawlers agent-readiness checks look for, and the other known AI crawlers. */
export const aiCrawlers = [
  'GPTBot',
  'OAI-SearchBot',
  'Google-Extended',
  'CCBot',
  'anthropic-ai',
  'ClaudeBot',
  'Claude-Web',
  'Bytespider',
  'PerplexityBot',
  'cohere-ai',
  'Applebot-Extended',
  'Amazonbot',
  'meta-externalagent',
  'FacebookBot',
  'omgilibot',
  'Diffbot',
] as const;

/** Assistants' fetchers that act for a person in a conversation: they may register and enquire as auth.md says. */
export const userDrivenAgents = ['ChatGPT-User', 'Claude-User', 'Perplexity-User'] as const;

const contentSignal = 'search=yes, ai-input=yes, ai-train=no';

/** Endpoints that answer POSTs or per-request state: nothing there to index. */
const notForCrawling = ['/api/', '/agent/', '/oauth/'];

function group(userAgents: readonly string[], disallowed: readonly string[]): string[] {
  return [
    ...userAgents.map((ua) => `User-agent: ${ua}`),
    'Allow: /',
    ...disallowed.map((path) => `Disallow: ${path}`),
    // Content Signals only: the IETF aipref `Content-Usage` line says the same but is still a
    // draft, and robots.txt validators (Lighthouse among them) reject the unknown directive.
    `Content-Signal: ${contentSignal}`,
    '',
  ];
}

export function buildRobotsTxt(catalogue: Catalogue): string {
  const site = catalogue.siteUrl;
  return [
    `# ${catalogue.site.operatorName}: agents and crawlers are welcome.`,
    `# Start at ${site}/llms.txt, ${site}/.well-known/api-catalog or ${site}/agent-instructions.md.`,
    '',
    ...group(['*'], notForCrawling),
    ...group(aiCrawlers, notForCrawling),
    `# Agents acting for a person may also use ${notForCrawling.join(', ')} as ${site}/auth.md and ${site}/agent-instructions.md describe.`,
    ...group(userDrivenAgents, []),
    `Sitemap: ${site}/sitemap-index.xml`,
    '',
  ].join('\n');
}
