/**
 * `npm run bench`: how fast the site and API are against the limit of the runtime and against
 * nginx, whether one client can slow another, what the request rules cost, how builds and memory
 * grow with the catalogue, page weight and Vercel bundle sizes. Writes docs/benchmarks.md after
 * a full run; `--only` runs some sections and prints them without writing.
 *
 *   npm run bench -- [--only http,nginx,fairness,rules,departures,storage,growth,rebuild,weight,vercel,cold]
 *                    [--seconds 5] [--slices 20] [--rounds 3] [--connections 10] [--profiles steady,fewer] [--growth 12,1000,10000]
 *                    [--rebuild 12,1000] [--fairness-seconds 20] [--cold-samples 15]
 *
 * The http section runs once per load profile (`--profiles`, scripts/bench/load.ts); `--connections`
 * is the other sections' load. Each round gives every contender `--seconds` of load, in `--slices`
 * turns (four a second unless given; `--slices 1` runs each contender's seconds at a stretch).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCatalogue, realContent } from '../../tests/helpers/content.ts';
import { departuresSection } from './departures.ts';
import { storageReadsSection } from './storage-reads.ts';
import { fairnessSection } from './fairness.ts';
import { growthSection } from './growth.ts';
import { rebuildSection } from './rebuild.ts';
import { httpSection, type Target } from './http.ts';
import { loadProfiles, sliceWords, type LoadProfileName, type LoadSettings } from './load.ts';
import { nginxSection } from './nginx.ts';
import { pageWeightSection } from './page-weight.ts';
import type { ChildServer } from './processes.ts';
import { keptNotes, machineFacts, renderReport, type Section } from './report.ts';
import { rulesSection } from './rules.ts';
import { benchSiteUrl, buildSite, openEmbeddedStore, startBenchServer, type BuiltSite } from './site.ts';
import { buildForVercel, coldStarts, vercelSection } from './vercel-bundles.ts';
import type { VercelBuild } from '../../tests/helpers/vercel-build.ts';
import { pinLoadGenerator } from './processes.ts';
import { tripBySlug } from '../../domain/catalogue/index.ts';

const allSections = [
  'http',
  'nginx',
  'fairness',
  'rules',
  'departures',
  'storage',
  'growth',
  'rebuild',
  'weight',
  'vercel',
  'cold',
] as const;
type SectionName = (typeof allSections)[number];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    slices: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    profiles: { type: 'string', default: Object.keys(loadProfiles).join(',') },
    growth: { type: 'string', default: '12,1000,10000' },
    rebuild: { type: 'string', default: '12,1000' },
    'fairness-seconds': { type: 'string', default: '20' },
    'build-timeout-minutes': { type: 'string', default: '10' },
    'cold-samples': { type: 'string', default: '15' },
  },
});

const only = values.only ? (values.only.split(',') as SectionName[]) : [...allSections];
const unknown = only.filter((s) => !allSections.includes(s));
if (unknown.length) {
  console.error(`Unknown section ${unknown.join(', ')}; sections: ${allSections.join(', ')}`);
  process.exit(1);
}
const load: LoadSettings = {
  seconds: Number(values.seconds),
  rounds: Number(values.rounds),
  connections: Number(values.connections),
  ...(values.slices === undefined ? {} : { slices: Number(values.slices) }),
};
if (load.slices !== undefined && !(Number.isInteger(load.slices) && load.slices >= 1)) {
  console.error(`--slices takes a whole number of turns, 1 or more (got ${values.slices})`);
  process.exit(1);
}
const profiles = values.profiles.split(',') as LoadProfileName[];
const unknownProfiles = profiles.filter((p) => !(p in loadProfiles));
if (unknownProfiles.length) {
  console.error(
    `Unknown load profile ${unknownProfiles.join(', ')}; profiles: ${Object.keys(loadProfiles).join(', ')}`,
  );
  process.exit(1);
}
const growthCounts = values.growth.split(',').map(Number);
const rebuildCounts = values.rebuild.split(',').map(Number);

const catalogue = loadCatalogue(realContent, benchSiteUrl);
const treks = catalogue.trips.filter((t) => t.trip.type === 'trek');
const hampta = tripBySlug(catalogue, 'hampta-pass-trek');
const trek = hampta?.trip.type === 'trek' ? hampta : treks[0];
if (!trek) throw new Error('the real content has no trek to measure');
const trekPrices = treks
  .map((t) => t.trip.priceInr)
  .filter((p): p is number => p !== null)
  .sort((a, b) => a - b);
const maxPrice = trekPrices[trekPrices.length >> 1] ?? 20000;
const expedition = catalogue.trips.find((t) => t.trip.type === 'expedition');
if (!expedition) throw new Error('the real content has no expedition to measure');
const peak = catalogue.peaks[0];
if (!peak) throw new Error('the real content has no peak to measure');

/** A search of live departures as a person asks it: a moderate trek of about a week, for two, within a budget. */
const search = `?type=trek&difficulty=Moderate&maxDays=8&minSeats=2&maxPriceInr=${maxPrice}`;

/** Pages and files should reach this share of nginx's throughput (the headline goal, CPU per request against the bytes baseline, is in http.ts). */
const goal = 0.9;

const targets: Target[] = [
  { label: 'Home page (static)', path: '/' },
  { label: 'Its Markdown twin (static)', path: '/index.md' },
  { label: 'Trip page (static)', path: trek.path },
  { label: 'Expedition page (static)', path: expedition.path },
  { label: 'llms.txt (static file)', path: '/llms.txt' },
  { label: 'Its live departures block (departures function)', path: `/departures/block?trip=${trek.trip.slug}` },
  { label: 'Its Markdown twin (departures function, live)', path: `${trek.path}.md` },
  { label: 'Service index (static file)', path: '/v1/' },
  { label: 'Trip list (static file)', path: '/v1/trips', handler: true, split: true },
  { label: 'One trip (static file)', path: `/v1/trips/${trek.trip.slug}` },
  {
    label: 'Trip list, filtered (catalogue function)',
    path: `/v1/trips?type=trek&maxPriceInr=${maxPrice}`,
    handler: true,
  },
  { label: 'Peak list (static file)', path: '/v1/peaks' },
  { label: 'One peak (static file)', path: `/v1/peaks/${peak.id}`, split: true },
  { label: 'Departures (departures function, live)', path: '/v1/departures' },
  { label: 'Departure search (departures function, live)', path: `/v1/departures${search}` },
  { label: 'Departure search, the board (departures function, live)', path: `/departures${search}` },
];

/** Pages and files of every size, down to the smallest, that nginx serves from the same folder. */
function nginxTargets(siteDir: string) {
  const css = readdirSync(path.join(siteDir, 'dist', 'site', '_astro')).find((file) => file.endsWith('.css'));
  return [
    { label: 'Home page', path: '/' },
    { label: 'Trip page', path: trek!.path },
    { label: 'Markdown twin', path: '/index.md' },
    { label: 'llms.txt', path: '/llms.txt' },
    { label: 'robots.txt', path: '/robots.txt' },
    { label: 'Script', path: '/live-departures.js' },
    ...(css ? [{ label: 'Stylesheet', path: `/_astro/${css}` }] : []),
    { label: 'Icon', path: '/favicon.svg' },
  ];
}

// The load generator on a core of its own, the servers on another (processes.ts).
pinLoadGenerator();
const facts = machineFacts();
const sections: Section[] = [];
let site: BuiltSite | undefined;
let server: ChildServer | undefined;
// One real `vercel build` for the sections that read its output.
let vercel: VercelBuild | undefined;
const vercelOutput = () => (vercel ??= buildForVercel());
try {
  if (
    only.some(
      (s) => s === 'http' || s === 'nginx' || s === 'fairness' || s === 'rules' || s === 'departures' || s === 'weight',
    )
  ) {
    console.log('[bench] building the real content');
    site = buildSite();
    server = await startBenchServer(site.copy.dir);
    await openEmbeddedStore(server);
  }
  for (const name of only) {
    console.log(`[bench] ${name}`);
    if (name === 'http')
      for (const profile of profiles) sections.push(await httpSection(server!, site!.copy.dir, targets, load, profile));
    if (name === 'nginx')
      sections.push(await nginxSection(server!, site!.copy.dir, nginxTargets(site!.copy.dir), load, goal));
    if (name === 'fairness')
      sections.push(await fairnessSection(site!.copy.dir, trek.trip.slug, peak.id, Number(values['fairness-seconds'])));
    if (name === 'rules') sections.push(await rulesSection(server!, site!.copy.dir, '/', load));
    if (name === 'departures') sections.push(await departuresSection(server!, site!.copy.dir, load));
    if (name === 'storage') sections.push(await storageReadsSection(load.rounds));
    if (name === 'weight')
      sections.push(
        await pageWeightSection(server!, [
          { label: 'Home', path: '/' },
          { label: 'Trip', path: trek.path },
        ]),
      );
    if (name === 'growth')
      sections.push(await growthSection(growthCounts, Number(values['build-timeout-minutes']) * 60_000));
    if (name === 'rebuild')
      sections.push(await rebuildSection(rebuildCounts, Number(values['build-timeout-minutes']) * 60_000));
    if (name === 'vercel') sections.push(vercelSection(vercelOutput()));
    if (name === 'cold') sections.push(await coldStarts(vercelOutput(), Number(values['cold-samples'])));
  }
} finally {
  await server?.stop();
  site?.copy.remove();
  vercel?.copy.remove();
}

const reportFile = path.resolve(import.meta.dirname, '..', '..', 'docs', 'benchmarks.md');
const previous = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : null;
const loadAtEnd = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
const settings = `${load.rounds} rounds of ${load.seconds} s per contender (${sliceWords(load)}), ${load.connections} connections from many loopback addresses (tests/helpers/loopback-load.ts)`;
const report = renderReport(facts, settings, sections, keptNotes(previous), loadAtEnd);
if (only.length === allSections.length) {
  writeFileSync(reportFile, report);
  console.log(`[bench] written to ${path.relative(process.cwd(), reportFile)}`);
} else {
  console.log(report);
}
