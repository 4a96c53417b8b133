/**
 * robots.txt (RFC 9309): everyone may read the site; the live endpoints are not for crawling.
 * AI crawlers get their own group so their rules are explicit, with Content Signals saying how
 * the content may be used: search and answers that cite it yes, model training no, because
 * training strips the dataset's CC-BY attribution and freezes prices and dates that change.
 */
import type { Catalogue } from '../catalogue/index.ts';

/** The AI crawlers agent-readiness checks look for, plus the assistants' live fetchers. */
export const aiCrawlers = [
  'GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'Google-Extended', 'CCBot', 'anthropic-ai', 'ClaudeBot', 'Claude-Web',
  'Claude-User', 'Bytespider', 'PerplexityBot', 'Perplexity-User', 'cohere-ai', 'Applebot-Extended', 'Amazonbot',
  'meta-externalagent', 'FacebookBot', 'omgilibot', 'Diffbot',
] as const;

export const contentSignal = 'search=yes, ai-input=yes, ai-train=no';

/** Endpoints that answer POSTs or per-request state: nothing there to index. */
const notForCrawling = ['/api/', '/agent/', '/oauth/'];

function group(userAgents: readonly string[]): string[] {
  return [
    ...userAgents.map((ua) => `User-agent: ${ua}`),
    'Allow: /',
    ...notForCrawling.map((path) => `Disallow: ${path}`),
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
    ...group(['*']),
    ...group(aiCrawlers),
    `Sitemap: ${site}/sitemap-index.xml`,
    '',
  ].join('\n');
}
