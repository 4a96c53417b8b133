/**
 * Builds that scale with the change: for each catalogue size, a cold build (no cache, no
 * output), then one trip edited and the site rebuilt with the caches the cold build left, then a
 * cold build of the same edited content right after. The rebuild's time is given as a share of
 * that cold build's, and every file of the two `dist/site` folders is compared by hash: a
 * rebuild must write exactly what a cold build writes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalogueCopy, removeBuildLeftovers, timedBuild, type BuildRun } from './growth.ts';
import { fixed, type Section } from './report.ts';

/** sha256 of every file under a folder, by path. */
export function fileHashes(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex')] as const;
      }),
  );
}

/** Paths present in one map only, or with different hashes. */
export function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((file) => a.get(file) !== b.get(file)).sort();
}

/** An editor's change to one trek: a new name, which its page, its card and every list show. */
function editOneTrip(contentDir: string): string {
  const tripsDir = path.join(contentDir, 'trips');
  const file = readdirSync(tripsDir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .find((f) => /^type:\s*trek\s*$/m.test(readFileSync(path.join(tripsDir, f), 'utf8')));
  if (!file) throw new Error(`no trek to edit in ${tripsDir}`);
  const target = path.join(tripsDir, file);
  writeFileSync(
    target,
    readFileSync(target, 'utf8').replace(
      /^name:\s*"?(.+?)"?\s*$/m,
      (_, name: string) => `name: ${JSON.stringify(`${name} (new route)`)}`,
    ),
  );
  return file;
}

const cardsDrawn = (run: BuildRun) => /social cards: (\d+) drawn/.exec(run.tail)?.[1] ?? '?';

interface Size {
  trips: number;
  edited?: string;
  cold?: BuildRun;
  rebuild?: BuildRun;
  coldAfter?: BuildRun;
  files?: number;
  differing?: string[];
  problem?: string;
}

async function measure(trips: number, timeoutMs: number): Promise<Size> {
  const copy = catalogueCopy(trips);
  const site = path.join(copy.dir, 'dist', 'site');
  const clean = () => removeBuildLeftovers(copy.dir);
  const size: Size = { trips };
  try {
    clean();
    console.log(`[bench] ${trips} trips: cold build`);
    size.cold = await timedBuild(copy.dir, timeoutMs);
    if (!size.cold.ok) return { ...size, problem: `cold build failed: ${size.cold.tail.slice(-600)}` };
    size.edited = editOneTrip(path.join(copy.dir, 'content'));
    // A deploy starts from a fresh checkout and the restored build caches, without the last output.
    rmSync(path.join(copy.dir, 'dist'), { recursive: true, force: true });
    console.log(`[bench] ${trips} trips: rebuild after editing ${size.edited}`);
    size.rebuild = await timedBuild(copy.dir, timeoutMs);
    if (!size.rebuild.ok) return { ...size, problem: `rebuild failed: ${size.rebuild.tail.slice(-600)}` };
    const rebuilt = fileHashes(site);
    clean();
    console.log(`[bench] ${trips} trips: cold build of the edited content`);
    size.coldAfter = await timedBuild(copy.dir, timeoutMs);
    if (!size.coldAfter.ok) return { ...size, problem: `cold build failed: ${size.coldAfter.tail.slice(-600)}` };
    const cold = fileHashes(site);
    return { ...size, files: cold.size, differing: differences(rebuilt, cold) };
  } finally {
    copy.remove();
  }
}

export async function rebuildSection(counts: number[], buildTimeoutMs: number): Promise<Section> {
  const sizes: Size[] = [];
  for (const n of counts) sizes.push(await measure(n, buildTimeoutMs));
  const share = (s: Size) => (s.rebuild && s.coldAfter ? s.rebuild.seconds / s.coldAfter.seconds : NaN);
  const cpuShare = (s: Size) =>
    s.rebuild?.cpuSeconds && s.coldAfter?.cpuSeconds ? s.rebuild.cpuSeconds / s.coldAfter.cpuSeconds : NaN;
  const seconds = (run: BuildRun | undefined) =>
    run?.ok ? `${fixed(run.seconds, 1)} (${run.cpuSeconds === null ? 'n/a' : fixed(run.cpuSeconds, 1)})` : '—';
  const rows = sizes.map((s) => [
    fixed(s.trips),
    seconds(s.cold),
    seconds(s.rebuild),
    seconds(s.coldAfter),
    Number.isFinite(share(s)) ? `${fixed(share(s) * 100)} % (${fixed(cpuShare(s) * 100)} %)` : '—',
    s.rebuild ? `${s.cold ? cardsDrawn(s.cold) : '?'} / ${cardsDrawn(s.rebuild)}` : '—',
    s.differing ? `${fixed(s.differing.length)} of ${fixed(s.files ?? 0)}` : (s.problem ?? '—'),
  ]);
  const findings: string[] = [];
  const goal = sizes.find((s) => s.trips === 1000);
  if (goal && Number.isFinite(share(goal))) {
    const met = share(goal) <= 0.2 ? 'met' : 'not met';
    findings.push(
      `1,000 trips: a rebuild after editing one trip took ${fixed(share(goal) * 100)} % of the cold build run right after it (${fixed(cpuShare(goal) * 100)} % of its CPU time); goal at most 20 %: ${met}.`,
    );
  }
  for (const s of sizes) {
    if (s.differing?.length)
      findings.push(
        `${fixed(s.trips)} trips: the rebuild differs from a cold build in ${s.differing.slice(0, 5).join(', ')}${s.differing.length > 5 ? ', …' : ''}.`,
      );
    else if (s.differing)
      findings.push(
        `${fixed(s.trips)} trips: the rebuild wrote the same bytes as a cold build in all ${fixed(s.files ?? 0)} files of dist/site.`,
      );
    if (s.problem) findings.push(`${fixed(s.trips)} trips: ${s.problem}.`);
  }
  return {
    title: 'Rebuild after one edit',
    about: `Generated catalogues as above. In a scratch copy with a \`node_modules\` of its own: a cold build (no \`node_modules/.cache\`, no \`.astro\`, no \`dist\`), then one trek renamed (its page, its social card and every list change) and the site rebuilt, as a deploy does, without the last \`dist\` but with the caches the cold build left (the social cards in \`node_modules/.cache/pictures\`, the content store and the optimised photographs in \`.astro/cache\`), then a cold build of the same edited content run right after it. Wall time of \`astro build\`, CPU time (user + system, from /usr/bin/time) in brackets; the share compares the rebuild with the cold build after it. Every file of the two \`dist/site\` folders is compared by its sha256.`,
    header: [
      'Trips',
      'Cold build s (CPU s)',
      'One-edit rebuild s (CPU s)',
      'Cold build of the edit s (CPU s)',
      'Rebuild / cold (CPU)',
      'Social cards drawn (cold / rebuild)',
      'Files differing from the cold build',
    ],
    rows,
    findings,
  };
}
