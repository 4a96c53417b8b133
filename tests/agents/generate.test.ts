/**
 * The agent files as the build writes them, generated straight from a catalogue (the fixture
 * and the real content), without a server: shapes, required members and the rules they state.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildAiCatalog } from '../../service/agents/ai-catalog.ts';
import { buildApiCatalog } from '../../service/agents/api-catalog.ts';
import { agentGuidance, agentInstructionsMarkdown } from '../../service/guidance/agent-guidance.ts';
import { buildLlmsFull } from '../../service/agents/llms-full.ts';
import { buildLlmsTxt } from '../../service/agents/llms-txt.ts';
import { buildPeakDataset, peakDatasetFile } from '../../service/peak-data/peak-dataset.ts';
import { aiCrawlers, buildRobotsTxt, userDrivenAgents } from '../../service/agents/robots.ts';
import { renderAuthMd } from '../../service/agent-auth/auth-md.ts';
import { robotsAllows } from './robots-rules.ts';
import { buildServerCard } from '../../service/agents/server-card.ts';
import { skillSummaries } from '../../service/skill-list.ts';
import { buildSkillsIndex, skillMarkdown, skills } from '../../service/agents/skills.ts';
import { toPeakResource } from '../../domain/catalogue/peaks.ts';
import { operations } from '../../service/v1/operations.ts';
import {
  agentFileHeaders,
  aiCatalogLink,
  enquiryOpenApiPath,
  extensionlessMediaTypes,
  mcpServerCardLink,
  mediaTypeOverrides,
  siteFileByPath,
  siteFiles,
} from '../../service/site-files.ts';
import { buildStaticRoutes } from '../../service/host/static-routes.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';
import { aiCatalogSchema, apiCatalogSchema, problems, serverCardSchema, skillsIndexSchema } from './shapes.ts';
import { checkLlmsTxt } from './llms-txt-structure.ts';

const catalogues = {
  fixture: loadCatalogue(undefined, 'https://example.test'),
  real: loadCatalogue(realContent, 'https://example.test'),
};

describe.each(Object.entries(catalogues))('agent files from the %s content', (_, catalogue) => {
  it('llms.txt has the llmstxt.org structure and links every trip twin and every published file', () => {
    const text = buildLlmsTxt(catalogue);
    expect(checkLlmsTxt(text)).toEqual([]);
    for (const { trip } of catalogue.trips) expect(text).toContain(`](${trip.markdownUrl}): `);
    for (const file of siteFiles.filter((f) => f.path !== '/llms.txt'))
      expect(text, file.path).toContain(`](https://example.test${file.path}): `);
    expect(text).toMatch(/\n## Optional\n/);
  });

  it('llms-full.txt holds every trip with its itinerary and FAQs, every peak and every operation', () => {
    const text = buildLlmsFull(catalogue);
    for (const { trip, content } of catalogue.trips) {
      expect(text).toContain(`### ${trip.name}`);
      for (const day of content.itinerary) expect(text).toContain(`**Day ${day.day}: ${day.title}.**`);
      for (const faq of content.faqs) expect(text).toContain(`##### ${faq.question}`);
      expect(text).toContain(`read https://example.test/v1/departures?trip=${trip.slug}`);
    }
    // A file built once per deploy must not claim anything about live dates.
    expect(text).not.toMatch(/No departures are on sale|Read live at/);
    for (const peak of catalogue.peaks) expect(text).toContain(`| \`${peak.id}\` | ${peak.altitudeM} |`);
    for (const op of operations) expect(text).toContain(`(${op.operationId})`);
    expect(text).toContain(catalogue.attribution);
  });

  it('agent-instructions.md and llm-guidance.json state the same rules', () => {
    const guidance = agentGuidance(catalogue);
    const text = agentInstructionsMarkdown(catalogue);
    expect(guidance.authoritativeSource.whenNumbersDisagree).toBe('trip page');
    expect(guidance.contact.email).toBe(catalogue.site.contactEmail);
    expect(guidance.citation.peakDataset.attribution).toBe(catalogue.attribution);
    expect(guidance.enquiry).toMatchObject({ method: 'POST', url: 'https://example.test/api/bookings' });
    for (const rule of guidance.mustNot) expect(text).toContain(rule.slice(1));
    expect(text).toContain(guidance.authoritativeSource.rule);
    expect(text).toContain('POST https://example.test/api/bookings');
    expect(guidance.mustNot.join(' ')).toMatch(/explicit consent/);
    expect(guidance.mustNot.join(' ')).toMatch(/Invent availability/);
    expect(guidance.mustNot.join(' ')).toMatch(/attribution/);
  });

  it('peaks.json is the full dataset, versioned and licensed, agreeing with /v1/peaks', () => {
    const file = peakDatasetFile.parse(buildPeakDataset(catalogue));
    expect(file).toMatchObject({
      version: catalogue.site.dataset.version,
      license: 'CC-BY-4.0',
      lastUpdated: catalogue.site.dataset.lastUpdated,
      attribution: catalogue.attribution,
    });
    expect(file.royaltySchedule.source.url).toMatch(/^https:\/\//);
    expect(file.count).toBe(catalogue.peaks.length);
    expect(file.peaks.map(toPeakResource)).toEqual(catalogue.peaks.map(toPeakResource));
  });

  it('the discovery documents have their published shapes', async () => {
    expect(problems(serverCardSchema, buildServerCard(catalogue))).toEqual([]);
    expect(problems(apiCatalogSchema, buildApiCatalog(catalogue))).toEqual([]);
    expect(problems(aiCatalogSchema, buildAiCatalog(catalogue))).toEqual([]);
    expect(problems(skillsIndexSchema, await buildSkillsIndex(catalogue))).toEqual([]);
    const catalog = buildApiCatalog(catalogue).linkset[0];
    expect(catalog).toMatchObject({
      anchor: 'https://example.test/v1',
      'service-desc': [{ href: 'https://example.test/openapi.json' }],
      'service-doc': [{ href: 'https://example.test/developers' }],
      status: [{ href: 'https://example.test/v1/' }],
    });
    expect(catalog?.['service-meta']?.map((l) => l.href)).toEqual([
      'https://example.test/v1/',
      'https://example.test/llms.txt',
    ]);
    const card = buildServerCard(catalogue);
    expect(card).not.toHaveProperty('capabilities');
    // The revisions the endpoint speaks, newest first: none a pre-release, none it does not serve.
    expect(card.remotes).toEqual([
      {
        type: 'streamable-http',
        url: 'https://example.test/mcp',
        supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18'],
      },
    ]);
    const kinds = buildAiCatalog(catalogue).entries.map((e) => e.identifier.split(':')[3]);
    expect(new Set(kinds)).toEqual(new Set(['api', 'mcp', 'dataset', 'skill']));
  });

  it('points agents at the enquiry endpoint and its OpenAPI document: api-catalog, ai-catalog, llms.txt, instructions, guidance and a skill', () => {
    const described = `https://example.test${enquiryOpenApiPath}`;
    expect(buildApiCatalog(catalogue).linkset).toContainEqual(
      expect.objectContaining({
        anchor: 'https://example.test/api/bookings',
        'service-desc': [{ href: described, type: 'application/json' }],
      }),
    );
    expect(buildAiCatalog(catalogue).entries).toContainEqual(
      expect.objectContaining({
        identifier: expect.stringMatching(/^urn:air:[a-z.]+:api:booking-enquiries$/),
        url: described,
      }),
    );
    expect(buildLlmsTxt(catalogue)).toContain(`](${described}): `);
    const instructions = agentInstructionsMarkdown(catalogue);
    expect(instructions).toContain(described);
    expect(instructions).toContain('send_enquiry');
    expect(instructions).toContain("trip page's enquiry form");
    expect(agentGuidance(catalogue).enquiry).toMatchObject({
      openapiUrl: described,
      sendToTripPage: expect.stringContaining('#enquiry-form'),
    });
    const skill = skills.find((s) => s.name === 'send-an-enquiry');
    const text = skill ? skillMarkdown(skill, catalogue) : '';
    for (const part of [described, 'send_enquiry', '#enquiry-form', 'own name and phone number'])
      expect(text, part).toContain(part);
  });

  it('publishes one MCP server card, the same document at every address agents and scanners look', () => {
    const card = siteFileByPath('/mcp/server-card');
    expect(card?.mediaType).toBe('application/mcp-server-card+json');
    for (const p of ['/mcp/server-card.json', '/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card'])
      expect(siteFileByPath(p), p).toBe(card);
  });

  it('each skill digest is the SHA-256 of the SKILL.md text, which starts with name and description', async () => {
    const index = await buildSkillsIndex(catalogue);
    expect(index.skills.map((s) => s.name)).toEqual(skillSummaries.map((s) => s.name));
    for (const skill of skills) {
      const text = skillMarkdown(skill, catalogue);
      const entry = index.skills.find((s) => s.name === skill.name);
      expect(entry?.digest).toBe(`sha256:${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`);
      expect(
        text.startsWith(`---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n`),
      ).toBe(true);
    }
  });

  it('robots.txt has a sitemap, rules for AI crawlers and a content signal', () => {
    const text = buildRobotsTxt(catalogue);
    expect(text).toContain('Sitemap: https://example.test/sitemap-index.xml');
    expect(text).toMatch(/^User-agent: \*\nAllow: \//m);
    for (const bot of [
      'GPTBot',
      'ChatGPT-User',
      'Google-Extended',
      'CCBot',
      'anthropic-ai',
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
    ]) {
      expect([...aiCrawlers, ...userDrivenAgents]).toContain(bot);
      expect(text).toContain(`User-agent: ${bot}\n`);
    }
    expect(text).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=no$/m);
  });

  it('robots.txt lets the agents that act for a person reach the endpoints auth.md sends them to, and keeps crawlers off', () => {
    const text = buildRobotsTxt(catalogue);
    const authMd = renderAuthMd({
      siteUrl: catalogue.siteUrl,
      resourceName: 'Catalogue',
      anonymousEnabled: true,
      trustedIssuers: [],
    });
    const told = [
      ...new Set([...authMd.matchAll(/^\s*POST (https?:\/\/\S+)/gm)].map((m) => new URL(m[1] ?? '').pathname)),
    ];
    expect(told).toEqual(
      expect.arrayContaining([
        '/agent/auth',
        '/agent/identity',
        '/agent/identity/claim',
        '/oauth/token',
        '/oauth/revoke',
      ]),
    );
    for (const agent of ['Claude-User', 'ChatGPT-User', 'Perplexity-User']) {
      for (const path of [...told, '/api/bookings', '/agent/claim'])
        expect(robotsAllows(text, agent, path), `${agent} ${path}`).toBe(true);
    }
    for (const crawler of ['GPTBot', 'ClaudeBot', 'SomeSearchBot']) {
      for (const path of told) expect(robotsAllows(text, crawler, path), `${crawler} ${path}`).toBe(false);
      expect(robotsAllows(text, crawler, '/treks/sample-trek')).toBe(true);
    }
  });
});

describe('serving rules of the published files', () => {
  it('names the media type of every file whose extension does not tell it, for both hosts (server.ts and vercel.json)', () => {
    const types = mediaTypeOverrides();
    expect(types).toEqual({
      '/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      '/ai-catalog.json': 'application/ai-catalog+json',
      '/.well-known/ai-catalog.json': 'application/ai-catalog+json',
      '/mcp/server-card': 'application/mcp-server-card+json',
      '/mcp/server-card.json': 'application/mcp-server-card+json',
      '/.well-known/mcp/server-card.json': 'application/mcp-server-card+json',
      '/.well-known/mcp/server-card': 'application/mcp-server-card+json',
    });
    for (const [p, type] of Object.entries(extensionlessMediaTypes())) expect(types[p], p).toBe(type);
    // Both hosts take these from the routes the build writes for its files (service/host/static-routes.ts).
    const site = mkdtempSync(path.join(tmpdir(), 'site-files-'));
    try {
      for (const p of Object.keys(types)) {
        mkdirSync(path.dirname(path.join(site, p)), { recursive: true });
        writeFileSync(path.join(site, p), '{}');
      }
      const { hit } = buildStaticRoutes(site);
      const built = Object.fromEntries(
        hit.flatMap((r) =>
          r.headers?.['Content-Type'] ? [[r.src!.slice(1, -1).replace(/\\/g, ''), r.headers['Content-Type']]] : [],
        ),
      );
      expect(built).toEqual(types);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  it('serves the AI catalog with its own media type, also at /.well-known/ai-catalog.json, and links it from HTML', () => {
    expect(siteFileByPath('/.well-known/ai-catalog.json')?.path).toBe('/ai-catalog.json');
    for (const p of ['/ai-catalog.json', '/.well-known/ai-catalog.json'])
      expect(agentFileHeaders(p)?.['Content-Type'], p).toBe('application/ai-catalog+json');
    expect(aiCatalogLink).toEqual({
      rel: 'ai-catalog',
      href: '/.well-known/ai-catalog.json',
      type: 'application/ai-catalog+json',
    });
    expect(readFileSync(path.resolve(import.meta.dirname, '../../src/layouts/Base.astro'), 'utf8')).toContain(
      '<link rel={aiCatalogLink.rel} type={aiCatalogLink.type} href={aiCatalogLink.href} />',
    );
  });

  it('links the MCP server card from every HTML head', () => {
    expect(mcpServerCardLink).toEqual({
      rel: 'mcp-server-card',
      href: '/mcp/server-card',
      type: 'application/mcp-server-card+json',
    });
    expect(readFileSync(path.resolve(import.meta.dirname, '../../src/layouts/Base.astro'), 'utf8')).toContain(
      '<link rel={mcpServerCardLink.rel} type={mcpServerCardLink.type} href={mcpServerCardLink.href} />',
    );
  });

  it('gives every published path CORS for GET, and a cache policy unless it is live', () => {
    for (const file of siteFiles) {
      for (const p of [file.path, ...(file.aliases ?? [])]) {
        const headers = agentFileHeaders(p);
        expect(headers?.['Access-Control-Allow-Origin'], p).toBe('*');
        expect(headers?.['Cache-Control'], p).toBe(file.live ? undefined : 'public, max-age=3600');
      }
    }
    expect(agentFileHeaders('/treks/hampta-pass-trek')).toBeNull();
    expect(agentFileHeaders('/.well-known/api-catalog')?.Link).toBe('</.well-known/api-catalog>; rel="api-catalog"');
    for (const [p, type] of Object.entries(extensionlessMediaTypes()))
      expect(agentFileHeaders(p)?.['Content-Type'], p).toBe(type);
    expect(agentFileHeaders('/llms.txt')?.['Content-Type']).toBeUndefined();
  });
});
