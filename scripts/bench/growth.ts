/**
 * Build time and server memory as the catalogue grows (generate-catalogue.ts): `astro build`
 * wall time in a scratch copy, and the server's resident memory at start and after a warm-up
 * of every list (the /v1 lists, the index pages, the feeds built from every trip).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyProject, type ProjectCopy } from '../../tests/helpers/project.ts';
import { realContent } from '../../tests/helpers/content.ts';
import { generateCatalogue } from './generate-catalogue.ts';
import { median } from './load.ts';
import { childrenOf } from './processes.ts';
import { fixed, kib, mib, ratio, type Section } from './report.ts';
import { benchSiteUrl, startBenchServer } from './site.ts';

const warmUpPaths = [
  '/v1/trips',
  '/v1/trips?type=trek',
  '/v1/peaks',
  '/v1/departures',
  '/treks',
  '/expeditions',
  '/departures',
  '/sitemap-0.xml',
  '/llms.txt',
  '/llms-full.txt',
];

const repeatBuildsUpTo = 1000;

export interface BuildRun {
  ok: boolean;
  seconds: number;
  /** User and system CPU time of the build, and its peak resident memory, when /usr/bin/time can tell. */
  cpuSeconds: number | null;
  peakBytes: number | null;
  /** The end of the build's output, after the lines the build's own steps report ([pictures]). */
  tail: string;
}

/**
 * Kills `pid` and the processes it started. /usr/bin/time runs the build as its child, so a
 * kill of `time` alone would leave the build running on, holding the pipes (and the machine)
 * until it ends. The build stays in the bench's process group, so Ctrl-C stops it too.
 */
function stopWithChildren(pid: number): void {
  for (const target of [...childrenOf(pid), pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

export function timedBuild(dir: string, timeoutMs: number): Promise<BuildRun> {
  const astro = path.join(dir, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const timed = existsSync('/usr/bin/time');
  const [file, args] = timed
    ? ['/usr/bin/time', ['-f', 'peak-rss-kb=%M cpu-seconds=%U+%S', process.execPath, astro, 'build']]
    : [process.execPath, [astro, 'build']];
  const started = performance.now();
  const child = spawn(file, args, {
    cwd: dir,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: './content', SITE_URL: benchSiteUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const reported: string[] = [];
  const read = (d: Buffer) => {
    output = (output + String(d)).slice(-20_000);
    reported.push(
      ...String(d)
        .split('\n')
        .filter((line) => line.includes('[pictures]')),
    );
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const timer = setTimeout(() => stopWithChildren(child.pid!), timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      const kb = /peak-rss-kb=(\d+)/.exec(output)?.[1];
      const cpu = /cpu-seconds=([\d.]+)\+([\d.]+)/.exec(output);
      resolve({
        ok: code === 0,
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null,
        peakBytes: kb ? Number(kb) * 1024 : null,
        tail: [...reported, output.slice(-3000)].join('\n'),
      });
    });
  });
}

interface Size {
  trips: number;
  build: BuildRun;
  rssStart?: number;
  rssWarm?: number;
  /** Median time of one GET /v1/trips, and its size. */
  listMs?: number;
  listBytes?: number;
  problem?: string;
}

/** A scratch copy of the project holding a generated catalogue of `trips` trips, with build caches of its own. */
export function catalogueCopy(trips: number): ProjectCopy {
  const content = mkdtempSync(path.join(tmpdir(), 'bench-content-'));
  rmSync(content, { recursive: true });
  generateCatalogue(realContent, content, trips);
  const copy = copyProject({ content, ownBuildCache: true });
  rmSync(content, { recursive: true, force: true });
  return copy;
}

/** Removes what a build leaves (output, Astro's cache, the drawn pictures), so the next build is cold. */
export function removeBuildLeftovers(dir: string): void {
  for (const leftover of ['.astro', 'dist', 'node_modules/.cache'])
    rmSync(path.join(dir, leftover), { recursive: true, force: true });
}

async function measure(trips: number, buildTimeoutMs: number): Promise<Size> {
  const copy = catalogueCopy(trips);
  try {
    console.log(`[bench] building ${trips} trips`);
    // Short builds vary by seconds on a shared machine: the median of three cold builds (no
    // cache, no drawn pictures, no output left from the last) for the small catalogues, one build for the largest.
    const runs: BuildRun[] = [];
    for (let i = 0; i < (trips <= repeatBuildsUpTo ? 3 : 1); i += 1) {
      removeBuildLeftovers(copy.dir);
      const run = await timedBuild(copy.dir, buildTimeoutMs);
      runs.push(run);
      if (!run.ok) break;
    }
    const build = runs.every((r) => r.ok)
      ? [...runs].sort((a, b) => a.seconds - b.seconds)[runs.length >> 1]!
      : runs.at(-1)!;
    if (!build.ok)
      return {
        trips,
        build,
        problem:
          build.seconds * 1000 >= buildTimeoutMs
            ? `build stopped after ${fixed(build.seconds)} s`
            : `build failed: ${build.tail.slice(-600)}`,
      };
    // Departures live in external storage in production; off here, so the figures are the catalogue's.
    const server = await startBenchServer(copy.dir, { OPERATIONAL_STORAGE: 'off' });
    try {
      const rssStart = server.rss();
      for (let round = 0; round < 2; round += 1) {
        for (const p of warmUpPaths) await (await fetch(`${server.url}${p}`)).arrayBuffer();
      }
      const times: number[] = [];
      let listBytes = 0;
      for (let i = 0; i < 5; i += 1) {
        const started = performance.now();
        listBytes = (await (await fetch(`${server.url}/v1/trips`)).arrayBuffer()).byteLength;
        times.push(performance.now() - started);
      }
      return { trips, build, rssStart, rssWarm: server.rss(), listMs: median(times), listBytes };
    } finally {
      await server.stop();
    }
  } finally {
    copy.remove();
  }
}

/** Marginal cost per trip above the smallest catalogue. */
const perTrip = (value: number | undefined, base: number | undefined, trips: number, baseTrips: number) =>
  value === undefined || base === undefined || trips === baseTrips ? NaN : (value - base) / (trips - baseTrips);

export async function growthSection(counts: number[], buildTimeoutMs: number): Promise<Section> {
  const sizes: Size[] = [];
  for (const n of counts) sizes.push(await measure(n, buildTimeoutMs));
  const base = sizes[0]!;
  const rows = sizes.map((s) => [
    fixed(s.trips),
    s.build.ok ? fixed(s.build.seconds, 1) : `${s.problem}`,
    s.build.ok ? fixed(perTrip(s.build.seconds * 1000, base.build.seconds * 1000, s.trips, base.trips), 2) : '—',
    s.build.peakBytes ? mib(s.build.peakBytes) : 'n/a',
    s.rssStart ? mib(s.rssStart) : '—',
    s.rssWarm ? mib(s.rssWarm) : '—',
    s.rssWarm ? fixed(perTrip(s.rssWarm, base.rssWarm, s.trips, base.trips) / 1024, 1) : '—',
    s.listMs !== undefined ? `${fixed(s.listMs, 1)} ms, ${kib(s.listBytes ?? 0)}` : '—',
  ]);
  const findings: string[] = [];
  const mid = sizes.find((s) => s.trips === 1000);
  const top = sizes.find((s) => s.trips === 10000);
  if (mid && top) {
    // A build that was stopped has no time of its own: its seconds are only when it was stopped.
    const buildRatio =
      mid.build.ok && top.build.ok
        ? perTrip(top.build.seconds, base.build.seconds, top.trips, base.trips) /
          perTrip(mid.build.seconds, base.build.seconds, mid.trips, base.trips)
        : NaN;
    const memoryRatio =
      perTrip(top.rssWarm, base.rssWarm, top.trips, base.trips) /
      perTrip(mid.rssWarm, base.rssWarm, mid.trips, base.trips);
    const verdict = (r: number) =>
      !Number.isFinite(r) ? 'not measured' : r <= 1.25 ? 'no worse than linear' : 'worse than linear';
    findings.push(`Build time per added trip at 10,000 / at 1,000: ${ratio(buildRatio)} (${verdict(buildRatio)}).`);
    findings.push(
      `Server memory per added trip at 10,000 / at 1,000: ${ratio(memoryRatio)} (${verdict(memoryRatio)}).`,
    );
  }
  for (const s of sizes) if (s.problem) findings.push(`${fixed(s.trips)} trips: ${s.problem}.`);
  return {
    title: 'Growth of the catalogue',
    about: `Generated catalogues (\`scripts/bench/generate-catalogue.ts\`: the real content plus varied copies of its treks; 23 peaks). \`astro build\` wall time of a cold build in a scratch copy (median of three up to ${fixed(repeatBuildsUpTo)} trips, one build above); the server's resident memory (RSS) at start and after serving ${warmUpPaths.map((p) => `\`${p}\``).join(', ')} twice, with departures storage off (in production they live in PostgreSQL). Per-trip figures are the marginal cost above ${fixed(base.trips)} trips. Ratios up to 1.25 are counted as linear (noise on a shared machine).`,
    header: [
      'Trips',
      'Build s',
      'Build ms per added trip',
      'Build peak RSS',
      'Server RSS at start',
      'Server RSS warm',
      'KiB per added trip (warm)',
      'One GET /v1/trips',
    ],
    rows,
    findings,
  };
}
