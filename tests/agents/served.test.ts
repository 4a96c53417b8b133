/**
 * The published machine-readable files as the local server serves the built fixture site:
 * media types, CORS and caching, the API catalog's negotiation and Link, skill digests against
 * the bytes on the wire, the llms.txt structure, and every same-site link in every agent file.
 * Prerendered files carry the build-time SITE_URL, so links are resolved by path.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { siteFiles, type SiteFile } from '../../service/site-files.ts';
import type { InProcessServer } from '../helpers/in-process.ts';
import { clientAt } from '../helpers/loopback-client.ts';
import { startBuiltSite } from './built-site.ts';
import { aiCatalogSchema, apiCatalogSchema, problems, serverCardSchema, skillsIndexSchema } from './shapes.ts';
import { checkLlmsTxt, linksOf } from './llms-txt-structure.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startBuiltSite(inject('fixtureSite'));
});
afterAll(() => server?.stop());

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
const sha256 = (bytes: ArrayBuffer) => `sha256:${createHash('sha256').update(Buffer.from(bytes)).digest('hex')}`;
const normalizeType = (type: string | null) => (type ?? '').toLowerCase().replace(/\s+/g, '');

const pathsOf = (file: SiteFile) => [file.path, ...(file.aliases ?? [])];

describe('published files', () => {
  it.each(siteFiles.flatMap((f) => pathsOf(f).map((p) => [p, f] as const)))(
    '%s is served with its media type, CORS and caching',
    async (path, file) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const type = normalizeType(res.headers.get('content-type'));
      expect(type.startsWith(normalizeType(file.mediaType).replace(/;charset=utf-8$/, ''))).toBe(true);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      if (!file.live) {
        expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
        const etag = res.headers.get('etag');
        expect(etag).toBeTruthy();
        const notModified = await get(path, { headers: { 'If-None-Match': etag ?? '' } });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.get('content-type'), path).toBeNull();
      }
      const preflight = await get(path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    },
  );

  it('serves the same bytes at every location of a file', async () => {
    for (const file of siteFiles.filter((f) => f.aliases)) {
      const primary = await (await get(file.path)).text();
      for (const alias of file.aliases ?? []) expect(await (await get(alias)).text(), alias).toBe(primary);
    }
  });

  it('answers every resource path of the peak Data Package with 200 and the media type the package declares', async () => {
    const base = '/peak-data/datapackage.json';
    const descriptor = (await (await get(base)).json()) as { resources: { path: string; mediatype: string }[] };
    expect(descriptor.resources.length).toBeGreaterThanOrEqual(5);
    for (const resource of descriptor.resources) {
      const res = await get(new URL(resource.path, `http://host${base}`).pathname);
      expect(res.status, resource.path).toBe(200);
      // A type declared without parameters is met by the same type with a charset (as the request table reads it).
      const served = normalizeType(res.headers.get('content-type'));
      const declared = normalizeType(resource.mediatype);
      expect(declared.includes(';') ? served : served.split(';')[0], resource.path).toBe(declared);
    }
  });

  it("serves every release's files at their versioned addresses, as the Data Package lists them: typed, cached and open to other origins", async () => {
    const descriptor = (await (await get('/peak-data/datapackage.json')).json()) as {
      version: string;
      releases: { version: string; current?: true; resources: { path: string; mediatype: string; hash?: string }[] }[];
    };
    expect(descriptor.releases.map((r) => r.version)).toEqual(['2.1.0', '2.0.0']);
    for (const release of descriptor.releases) {
      for (const resource of release.resources) {
        const path = new URL(resource.path).pathname;
        const res = await get(path);
        expect(res.status, path).toBe(200);
        expect(normalizeType(res.headers.get('content-type')), path).toBe(
          normalizeType(resource.mediatype).replace(/^application\/json$/, 'application/json;charset=utf-8'),
        );
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(res.headers.get('cache-control'), path).toBe('public, max-age=3600');
        const bytes = await res.arrayBuffer();
        // A kept release's file is the file it published; the current one's is the file at /peak-data/<name>.
        if (resource.hash) expect(sha256(bytes), path).toBe(resource.hash);
        else
          expect(
            Buffer.from(bytes).equals(
              Buffer.from(await (await get(`/peak-data/${path.split('/').at(-1)}`)).arrayBuffer()),
            ),
            path,
          ).toBe(true);
      }
    }
    expect((await get('/peak-data/2.0.0/peaks.csv')).status).toBe(404);
  });

  it('answers an id an earlier release had with where the peak went: 410, or a 301 a client follows to the peak', async () => {
    const gone = await get('/v1/peaks/retired-peak');
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(gone.headers.get('ratelimit-policy')).toBeTruthy();
    const { error } = (await gone.json()) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('peak_removed');
    const kept = new URL(/https?:\/\/\S+\/peak-data\/2\.0\.0\/peaks\.json/.exec(error.message)![0]).pathname;
    const record = (await (await get(kept)).json()) as { peaks: { id: string }[] };
    expect(record.peaks.map((p) => p.id)).toContain('retired-peak');
    expect(error.hint).toContain('/v1/peaks/other-peak');

    const moved = await get('/v1/peaks/renamed-peak', { redirect: 'manual' });
    expect(moved.status).toBe(301);
    // The Location names the site's own origin (SITE_URL); this server answers at another port.
    const location = new URL(moved.headers.get('location')!);
    expect(location.pathname).toBe('/v1/peaks/sample-peak');
    const followed = await get(location.pathname);
    expect(followed.status).toBe(200);
    expect(((await followed.json()) as { data: { id: string } }).data.id).toBe('sample-peak');
  });

  it('lists every published file in the service index', async () => {
    const index = (await (await get('/v1/')).json()) as { machineReadableFiles: { url: string }[] };
    const listed = index.machineReadableFiles.map((f) => new URL(f.url).pathname);
    for (const file of siteFiles) expect(listed, file.path).toContain(file.path);
  });

  it('validates every JSON document against its published shape', async () => {
    const json = async (path: string) => (await get(path)).json();
    expect(problems(serverCardSchema, await json('/mcp/server-card'))).toEqual([]);
    expect(problems(skillsIndexSchema, await json('/.well-known/agent-skills/index.json'))).toEqual([]);
    expect(problems(apiCatalogSchema, await json('/.well-known/api-catalog'))).toEqual([]);
    expect(problems(aiCatalogSchema, await json('/ai-catalog.json'))).toEqual([]);
    const guidance = (await json('/llm-guidance.json')) as Record<string, unknown>;
    for (const member of ['preferredSources', 'authoritativeSource', 'citation', 'enquiry', 'mustNot', 'contact'])
      expect(guidance, member).toHaveProperty(member);
    const peaks = (await json('/peak-data/peaks.json')) as {
      version: string;
      license: string;
      lastUpdated: string;
      count: number;
      peaks: { id: string }[];
    };
    expect(peaks).toMatchObject({ version: '2.1.0', license: 'CC-BY-4.0', lastUpdated: '2026-05-15' });
    const api = (await json('/v1/peaks')) as { count: number; data: Record<string, unknown>[] };
    expect(peaks.count).toBe(api.count);
    for (const peak of api.data) expect(peaks.peaks.find((p) => p.id === peak.id)).toMatchObject(peak);
  });
});

describe('discovery from HTML', () => {
  it('links the AI catalog from the head of every page', async () => {
    for (const path of ['/', '/treks', '/developers']) {
      const html = await (await get(path)).text();
      expect(html, path).toContain(
        '<link rel="ai-catalog" type="application/ai-catalog+json" href="/.well-known/ai-catalog.json">',
      );
    }
  });

  it('names the charset of every HTML answer, static or rendered per request', async () => {
    const pages = [
      '/',
      '/treks',
      '/expeditions',
      '/treks/sample-trek',
      '/departures',
      '/developers',
      '/peak-data',
      '/agent/claim',
      '/no-such-page',
    ];
    for (const path of pages)
      expect((await get(path)).headers.get('content-type'), path).toBe('text/html; charset=utf-8');
  });
});

describe('API catalog (RFC 9727)', () => {
  it('answers the scanners request at the well-known path with a linkset and a Link on HEAD', async () => {
    const res = await get('/.well-known/api-catalog', {
      headers: { Accept: 'application/linkset+json, application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    const body = (await res.json()) as { linkset: { anchor: string }[] };
    expect(body.linkset.length).toBeGreaterThan(0);
    const head = await get('/.well-known/api-catalog', { method: 'HEAD' });
    expect(head.headers.get('link')).toContain('rel="api-catalog"');
  });

  it('is advertised by the home page', async () => {
    expect((await get('/')).headers.get('link')).toContain('</.well-known/api-catalog>; rel="api-catalog"');
  });
});

describe('agent skills', () => {
  it('gives each skill the SHA-256 digest of the bytes served at its URL and at its other location', async () => {
    const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as {
      skills: { name: string; description: string; url: string; digest: string }[];
    };
    expect(await (await get('/agent-skills/index.json')).json()).toEqual(index);
    for (const skill of index.skills) {
      const path = new URL(skill.url).pathname;
      expect(path).toBe(`/.well-known/agent-skills/${skill.name}/SKILL.md`);
      for (const location of [path, `/agent-skills/${skill.name}/SKILL.md`]) {
        const res = await get(location, { headers: { 'Accept-Encoding': 'identity' } });
        expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        const bytes = await res.arrayBuffer();
        expect(sha256(bytes), location).toBe(skill.digest);
        const text = Buffer.from(bytes).toString('utf8');
        expect(text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: .+\\n---\\n`));
      }
    }
  });
});

describe('llms.txt and robots.txt', () => {
  it('serves llms.txt in the llmstxt.org structure', async () => {
    const res = await get('/llms.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(checkLlmsTxt(await res.text())).toEqual([]);
  });

  it('serves robots.txt as text/plain with a Sitemap line and a content signal', async () => {
    const res = await get('/robots.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap-index\.xml$/m);
    expect(text).toMatch(/^Content-Signal: /m);
    expect(text).toMatch(/^User-agent: GPTBot$/m);
  });
});

describe('discovery without HTML', () => {
  /** Follows Link headers and the links in non-HTML bodies, breadth first, on this site only. */
  async function reachableFrom(start: string, origins: Set<string>): Promise<Set<string>> {
    const seen = new Set<string>([start]);
    const queue = [start];
    while (queue.length > 0 && seen.size < 200) {
      const path = queue.shift() ?? '/';
      const res = await get(path, {
        headers: { Accept: 'application/json, text/markdown;q=0.9, text/plain;q=0.8, */*;q=0.1' },
      });
      const found = [...(res.headers.get('link') ?? '').matchAll(/<([^>]+)>/g)].map(
        (m) => new URL(m[1] ?? '', server.url).href,
      );
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) found.push(...linksOf(await res.text()));
      for (const link of found) {
        if (/[{}<>]/.test(link)) continue;
        const url = new URL(link);
        const target = url.pathname + url.search;
        if ((origins.has(url.origin) || url.origin === server.url) && !seen.has(target)) {
          seen.add(target);
          if (url.pathname !== '/mcp' && !url.pathname.startsWith('/api/')) queue.push(target);
        }
      }
    }
    return seen;
  }

  it.each(['/', '/robots.txt', '/llms.txt', '/.well-known/api-catalog'])(
    'from %s an agent reaches the API, a Markdown trip, the dataset and the MCP server',
    async (start) => {
      const guidance = (await (await get('/llm-guidance.json')).json()) as {
        serviceIndexUrl: string;
        publisher: { url: string };
      };
      const reached = await reachableFrom(
        start,
        new Set([new URL(guidance.serviceIndexUrl).origin, new URL(guidance.publisher.url).origin]),
      );
      for (const needed of [
        '/openapi.json',
        '/v1/',
        '/peak-data/peaks.json',
        '/mcp',
        '/mcp/server-card',
        '/agent-instructions.md',
      ])
        expect(reached, needed).toContain(needed);
      expect([...reached].some((p) => /^\/(treks|expeditions)\/[a-z0-9-]+\.md$/.test(p))).toBe(true);
    },
  );
});

describe('links in the agent files', () => {
  it('resolves every same-site link of every published file on the local server', async () => {
    const guidance = (await (await get('/llm-guidance.json')).json()) as {
      serviceIndexUrl: string;
      publisher: { url: string };
    };
    const origins = new Set([new URL(guidance.serviceIndexUrl).origin, new URL(guidance.publisher.url).origin]);
    const targets = new Map<string, string>();
    for (const file of siteFiles) {
      for (const link of linksOf(await (await get(file.path)).text())) {
        if (/[{}<>]/.test(link)) continue;
        const url = new URL(link);
        if (origins.has(url.origin) && !targets.has(url.pathname + url.search))
          targets.set(url.pathname + url.search, file.path);
      }
    }
    expect(targets.size).toBeGreaterThan(20);
    const broken: string[] = [];
    // From an address of its own: the file's other tests have spent much of the render quota of theirs.
    const client = clientAt();
    for (const [target, source] of targets) {
      // Redirects are not followed: a link must answer itself.
      const res = await client(`${server.url}${target}`);
      // An endpoint that takes another method (the MCP endpoint, enquiries, token endpoints) exists when it
      // answers 405 to GET; one that wants a credential, when it answers 401 with a challenge.
      const otherMethod = res.status === 405 && !(res.headers.get('allow') ?? '').includes('GET');
      const needsCredential = res.status === 401 && res.headers.has('www-authenticate');
      const ok = res.status === 200 || otherMethod || needsCredential;
      if (!ok) broken.push(`${target} (linked from ${source}) answered ${res.status}`);
    }
    expect(broken).toEqual([]);
  });
});
