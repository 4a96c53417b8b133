/**
 * An editor's plain `npm run build` beside a server started as `PORT=<port> npm start`: the build
 * is made for the address that server serves (it says so in dist/serving/), and the server takes
 * it up whole, without a restart, and never answers with a mix of the two. A trip is added while
 * clients keep asking for every address that changes with it (its page, its Markdown twin, its
 * departures block, the trek list and its twin, /v1/trips plain, filtered and by slug, the
 * departures board, llms.txt, the sitemap) and for a page that is in both builds. Each answer
 * says the build it came from (X-Build), and its content must be that build's; no request started
 * after a new answer was seen gets an old one; the page in both builds never fails; and once the
 * build has finished, everything answers new, enquiries for the new trip included (the form, JSON
 * and MCP's send_enquiry), though an enquiry was taken before the build.
 *
 * Then builds the server could not take up, each refused at once with one line saying what to
 * run: one asked for another address, one beside a server running other code; and one whose
 * content changed while it ran (not published at all).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureContent } from '../helpers/content.ts';
import { spreadAddress } from '../helpers/loopback-load.ts';
import { copyProject, freePort, listeningOn, whenServing, type RunningServer } from '../helpers/project.ts';

const copy = copyProject({ content: fixtureContent });
let port: number;
let server: RunningServer;

/** `astro build` in the copy as `npm run build` runs it, without blocking this process (the clients keep asking meanwhile). */
function build(
  env: Record<string, string> = {},
  onOutput?: (output: string, child: ChildProcess) => void,
): Promise<{ status: number; output: string }> {
  const child = spawn(process.execPath, [path.join(copy.dir, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: copy.dir,
    // SITE_URL and PORT blank, as in an editor's terminal: the address is the running server's.
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: './content', SITE_URL: '', PORT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const add = (chunk: Buffer) => {
    output += stripVTControlCharacters(String(chunk));
    onOutput?.(output, child);
  };
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  return new Promise((done) => child.once('close', (status) => done({ status: status ?? 1, output })));
}

const current = () => readlinkSync(path.join(copy.dir, 'dist', 'current'));
const buildId = () => path.basename(current());

interface Seen {
  path: string;
  status: number;
  build: string | undefined;
  location?: string | undefined;
  body: string;
  started: number;
  ended: number;
}

let nextAddress = 0;

/** One GET on a connection of its own from a fresh loopback address, so no quota is reached. */
function get(target: string): Promise<Seen> {
  return send('GET', target);
}

function send(method: string, target: string, body?: string, headers: Record<string, string> = {}): Promise<Seen> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers,
        localAddress: spreadAddress(nextAddress++, 160),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          done({
            path: target,
            status: res.statusCode ?? 0,
            build: res.headers['x-build'] as string | undefined,
            location: res.headers.location,
            body: Buffer.concat(chunks).toString('utf8'),
            started,
            ended: performance.now(),
          }),
        );
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

const person = { name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };

/** An enquiry for `tripSlug` as the page's script sends it (JSON). */
const enquiryJson = (tripSlug: string) =>
  send('POST', '/api/bookings', JSON.stringify({ tripSlug, ...person }), { 'Content-Type': 'application/json' });

/** The same from the page's plain form, without JavaScript. */
const enquiryForm = (tripSlug: string) =>
  send(
    'POST',
    '/api/bookings',
    new URLSearchParams({ tripSlug, ...person, groupSize: String(person.groupSize) }).toString(),
    { 'Content-Type': 'application/x-www-form-urlencoded', Origin: `http://localhost:${port}` },
  );

/** The same sent by an agent through MCP's send_enquiry. */
const enquiryMcp = (tripSlug: string) =>
  send(
    'POST',
    '/mcp',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'send_enquiry', arguments: { tripSlug, ...person } },
    }),
    {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    },
  );

/** The trip an MCP answer says the enquiry was taken for, or its error text. */
function mcpEnquiry(seen: Seen): string {
  const { result } = JSON.parse(seen.body) as {
    result?: {
      isError?: boolean;
      structuredContent?: { enquiry?: { tripSlug?: string } };
      content?: { text: string }[];
    };
  };
  return result?.structuredContent?.enquiry?.tripSlug ?? result?.content?.map((c) => c.text).join(' ') ?? seen.body;
}

const slug = 'added-fixture-trek';
const has = (seen: Seen) => seen.status === 200 && seen.body.includes(slug);
const found = (seen: Seen) => seen.status === 200;

/** Every address that changes with the new trip, and how an answer shows that it is the new build's. */
const changing: Record<string, (seen: Seen) => boolean> = {
  [`/treks/${slug}`]: found,
  [`/treks/${slug}.md`]: found,
  [`/departures/block?trip=${slug}`]: found,
  [`/v1/trips/${slug}`]: found,
  '/treks': has,
  '/treks.md': has,
  '/v1/trips': has,
  '/v1/trips?type=trek': has,
  '/departures': has,
  '/llms.txt': has,
  '/sitemap-0.xml': has,
};
/** A page both builds have: it must answer all along. */
const steady = '/treks/sample-trek';

function addTrip(): void {
  const trips = path.join(copy.dir, 'content', 'trips');
  writeFileSync(
    path.join(trips, `${slug}.md`),
    readFileSync(path.join(trips, 'sample-trek.md'), 'utf8').replace('name: Fixture Trek', 'name: Added Fixture Trek'),
  );
}

beforeAll(async () => {
  port = await freePort();
  // The first build and the server as `PORT=<port> npm start` makes them; no .env says the port.
  const first = await build({ PORT: String(port) });
  expect(first.status, first.output).toBe(0);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'catalogue-rebuild-'));
  const child = spawn(process.execPath, [path.join(copy.dir, 'server.ts')], {
    cwd: copy.dir,
    env: { ...process.env, HOST: '127.0.0.1', DATA_DIR: dataDir, SITE_URL: '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = await whenServing(child, port, dataDir, listeningOn(port));
}, 240_000);

afterAll(async () => {
  await server?.stop();
  copy.remove();
});

describe('a build beside a running server', () => {
  it(
    'is taken up whole without a restart: every answer comes from the old build or the new, never a mix',
    { timeout: 300_000 },
    async () => {
      const before = buildId();
      expect((await get(`/treks/${slug}`)).status).toBe(404);
      expect((await get(steady)).build).toBe(before);
      // An enquiry before the build: the enquiry path is open, with the first build's trips.
      expect((await enquiryJson('sample-trek')).status).toBe(201);
      expect(mcpEnquiry(await enquiryMcp('sample-trek'))).toBe('sample-trek');

      addTrip();
      const seen: Seen[] = [];
      let asking = true;
      const clients = Array.from({ length: 3 }, async (_, n) => {
        const targets = [...Object.keys(changing), steady];
        for (let i = n; asking; i += 1) seen.push(await get(targets[i % targets.length]!));
      });
      const rebuilt = await build();
      // And a moment after it, as visitors do.
      await new Promise((r) => setTimeout(r, 1_000));
      asking = false;
      await Promise.all(clients);

      expect(rebuilt.status, rebuilt.output).toBe(0);
      const after = buildId();
      expect(after).not.toBe(before);
      expect(rebuilt.output).toContain(`Published build ${after}`);
      expect(rebuilt.output).toMatch(
        /The server at 127\.0\.0\.1:\d+ \(process \d+\) now serves this build, without a restart\./,
      );
      expect(server.output()).toContain(`[builds] Serving build ${after}`);

      // Clients asked all through the build, old answers and new.
      expect(seen.length).toBeGreaterThan(100);
      const isNew = (s: Seen) => (s.path === steady ? s.build === after : changing[s.path]!(s));
      expect(seen.filter(isNew).length, 'answers from the new build').toBeGreaterThan(0);
      expect(seen.filter((s) => !isNew(s)).length, 'answers from the old build').toBeGreaterThan(0);
      // Each answer wholly from the build it names.
      for (const s of seen) {
        expect([before, after], `${s.path}: X-Build`).toContain(s.build);
        expect(isNew(s), `${s.path} from ${s.build}: ${s.status} ${s.body.slice(0, 120)}`).toBe(s.build === after);
      }
      // The page both builds have answered all along, never a missing file or a half-written folder.
      expect(seen.filter((s) => s.path === steady && s.status !== 200)).toEqual([]);
      // Once a new answer was seen, no request started later got an old one.
      const firstNew = Math.min(...seen.filter(isNew).map((s) => s.ended));
      const lateOld = seen.filter((s) => s.started > firstNew && !isNew(s)).map((s) => `${s.path} ${s.build}`);
      expect(lateOld).toEqual([]);

      // Built and served for the address the server serves, though the build was given none.
      for (const target of [...Object.keys(changing), steady]) {
        const now = await get(target);
        expect(now.build, target).toBe(after);
        expect(target === steady || changing[target]!(now), `${target}: ${now.status}`).toBe(true);
      }
      expect((await get('/llms.txt')).body).toContain(`http://localhost:${port}/treks/${slug}`);
      expect((await get('/sitemap-0.xml')).body).toContain(`<loc>http://localhost:${port}/treks/${slug}</loc>`);

      // Enquiries for the new trip are checked against the new build's trips, whichever way they come.
      const json = await enquiryJson(slug);
      expect([json.status, json.build, json.body], 'JSON').toEqual([201, after, expect.stringContaining(slug)]);
      const form = await enquiryForm(slug);
      expect([form.status, form.location], 'form').toEqual([303, expect.stringMatching(/^\/enquiry-sent\?ref=enq-/)]);
      const thanks = await get(form.location!);
      expect([thanks.status, thanks.build, thanks.body], 'thank-you page').toEqual([
        200,
        after,
        expect.stringContaining('Added Fixture Trek'),
      ]);
      const mcp = await enquiryMcp(slug);
      expect([mcp.status, mcp.build, mcpEnquiry(mcp)], 'MCP send_enquiry').toEqual([200, after, slug]);
    },
  );

  it(
    'asked for another address, is refused before anything is built, in one line that says what to run',
    { timeout: 120_000 },
    async () => {
      const served = current();
      const builds = readdirSync(path.join(copy.dir, 'dist', 'builds')).sort();
      const other = await build({ SITE_URL: 'https://other.example' });
      expect(other.status).not.toBe(0);
      expect(other.output.trim()).toMatch(
        new RegExp(
          `^The server at 127\\.0\\.0\\.1:${port} \\(process \\d+\\) serves http://localhost:${port}, but SITE_URL asks for a build for https://other\\.example, which it would not take up: run SITE_URL=http://localhost:${port} npm run build, or stop that server first\\.$`,
        ),
      );
      // Nothing built or published; the server answers from the build it had.
      expect(current()).toBe(served);
      expect(readdirSync(path.join(copy.dir, 'dist', 'builds')).sort()).toEqual(builds);
      expect(existsSync(path.join(copy.dir, 'dist', 'next'))).toBe(false);
      for (const target of ['/llms.txt', `/v1/trips?type=trek`, steady]) {
        const now = await get(target);
        expect(now.build, target).toBe(path.basename(served));
        expect(now.body, target).not.toContain('other.example');
      }
    },
  );

  it('beside a server running other code, is refused before anything is built', { timeout: 120_000 }, async () => {
    const file = path.join(copy.dir, 'service', 'live-shells.ts');
    const code = readFileSync(file, 'utf8');
    writeFileSync(file, `${code}\n// changed after the server started\n`);
    try {
      const result = await build();
      expect(result.status).not.toBe(0);
      expect(result.output.trim()).toMatch(
        new RegExp(
          `^The server at 127\\.0\\.0\\.1:${port} \\(process \\d+\\) runs other code than this folder has now .*: stop it and run npm start, which builds first\\.$`,
        ),
      );
    } finally {
      writeFileSync(file, code);
    }
  });

  it('whose content changes while it runs, is not published', { timeout: 240_000 }, async () => {
    const published = current();
    const trip = path.join(copy.dir, 'content', 'trips', `${slug}.md`);
    let touched = false;
    const result = await build({}, (output) => {
      // An editor saves a file while the pages are being written.
      if (!touched && output.includes('generating static routes')) {
        touched = true;
        utimesSync(trip, new Date(), new Date(Date.now() + 1_000));
      }
    });
    expect(touched).toBe(true);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(
      'The sources or the content changed while the site was being built, so its pages could disagree with its live answers. Nothing was published: a running server keeps the build it has. Run npm run build again.',
    );
    expect(current()).toBe(published);
    expect(existsSync(path.join(copy.dir, 'dist', 'next'))).toBe(true);
  });
});
