/**
 * The fairness scenario, shared by its test, the benchmark and the soak: one client address
 * floods a server with live URLs no one asked for before (unknown query parameters, unknown trip
 * filters and slugs, references, departure searches with accepted values, over 32 connections,
 * asking for Brotli), while a bystander on
 * other addresses reads /v1 at a steady pace. The flood runs in a worker thread, so the
 * bystander's timings are its own and not the flooding client's work. Figures: the bystander's
 * latencies, what the flood was answered, and the server's resident memory before and after.
 */
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { freshAddresses, percentile, runLoad } from './loopback-load.ts';

const referenceLetters = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A well-formed enquiry reference that no enquiry has: looking it up costs a storage read. */
function unknownReference(n: number): string {
  let letters = '';
  for (let i = 0, rest = n; i < 10; i += 1, rest = Math.floor(rest / 31)) letters += referenceLetters[rest % 31];
  return `enq-20260101-${letters}`;
}

/** A date n days after 1 January 2027, as YYYY-MM-DD: a search window no one asked for before. */
function dayAfter(n: number): string {
  return new Date(Date.UTC(2027, 0, 1 + (n % 3000))).toISOString().slice(0, 10);
}

/**
 * The n-th unique live URL: every live path, each with something never asked for before, and
 * departure searches whose every value is accepted (so each is a search to work out, on the board,
 * its Markdown, its calendar and /v1).
 */
function uniqueLiveUrl(n: number, slug: string): string {
  const urls = [
    `/departures?from=${dayAfter(n)}&minSeats=${1 + (n % 9)}&maxPriceInr=${10000 + n}`,
    `/departures.md?difficulty=moderate&maxDays=${1 + (n % 40)}&region=valley-${n}`,
    `/departures.ics?to=${dayAfter(n)}&minDays=${1 + (n % 20)}&maxPriceInr=${20000 + n}`,
    `/v1/departures?type=trek&maxPriceInr=${30000 + n}&from=${dayAfter(n)}`,
    `/departures?z=${n}`,
    `/departures?trip=${slug}-${n}`,
    `/departures?month=${2000 + (n % 1000)}-${String((n % 12) + 1).padStart(2, '0')}&seats=${n}`,
    `/departures.md?type=walk-${n}`,
    `/treks/${slug}/enquire?departure=dep-${n}`,
    `/departures/block?trip=${slug}-${n}`,
    `/treks/${slug}-${n}.md`,
    `/expeditions/${slug}-${n}.ics`,
    `/treks/${slug}-${n}`,
    `/departures.md?z=${n}`,
    `/departures.ics?z=${n}`,
    `/treks/${slug}.md?z=${n}`,
    `/enquiry-sent?ref=${unknownReference(n)}`,
  ];
  return urls[n % urls.length]!;
}

/**
 * Paths that load every function and open every store the flood reaches (the enquiry store opens
 * on the first well-formed reference), asked once before measuring, as on a running site.
 */
export function fairnessWarmUp(slug: string): string[] {
  return [
    '/v1/departures',
    '/v1/trips?type=trek',
    '/departures',
    '/departures/block?trip=' + slug,
    `/treks/${slug}.md`,
    '/departures.ics',
    '/agent/claim',
    `/enquiry-sent?ref=${unknownReference(0)}`,
  ];
}

export interface FairnessOptions {
  port: number;
  /** The server's process id, for its resident memory (Linux /proc). */
  pid?: number;
  seconds: number;
  connections?: number;
  /** The flooding client's address. */
  floodAddress?: string;
  /** A trip slug the unique URLs are made from. */
  slug: string;
  /** /v1 paths the bystander reads in turn. */
  bystanderPaths: string[];
  /** Pause between the bystander's requests. */
  bystanderGapMs?: number;
}

export interface FairnessResult {
  bystander: {
    requests: number;
    p50: number;
    p99: number;
    max: number;
    statuses: Record<string, number>;
    errors: number;
  };
  flood: { requests: number; rps: number; statuses: Record<string, number>; errors: number };
  rssBeforeMiB?: number;
  rssAfterMiB?: number;
}

export function residentMiB(pid: number): number {
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

interface FloodData {
  port: number;
  seconds: number;
  connections: number;
  address: string;
  slug: string;
}

async function flood(data: FloodData): Promise<FairnessResult['flood']> {
  const result = await runLoad({
    port: data.port,
    connections: data.connections,
    durationMs: data.seconds * 1000,
    path: (n) => uniqueLiveUrl(n, data.slug),
    headers: { 'Accept-Encoding': 'br' },
    address: () => data.address,
  });
  return {
    requests: result.requests,
    rps: result.rps,
    statuses: Object.fromEntries(result.statuses),
    errors: result.errors,
  };
}

if (!isMainThread && (workerData as { fairnessFlood?: FloodData } | null)?.fairnessFlood) {
  parentPort!.postMessage(await flood((workerData as { fairnessFlood: FloodData }).fairnessFlood));
}

/** The bystander: /v1 paths in turn, one at a time with a pause between, from addresses of its own. */
export async function bystanderRun(
  port: number,
  paths: string[],
  seconds: number,
  gapMs = 20,
): Promise<FairnessResult['bystander']> {
  const result = await runLoad({
    port,
    connections: 1,
    durationMs: seconds * 1000,
    path: (n) => paths[n % paths.length]!,
    gapMs,
    address: freshAddresses(120),
    // Well inside the /v1 quota of each address: the bystander is never refused.
    requestsPerAddress: 100,
  });
  return {
    requests: result.requests,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    max: percentile(result.latencies, 100),
    statuses: Object.fromEntries(result.statuses),
    errors: result.errors,
  };
}

export async function measureFairness(options: FairnessOptions): Promise<FairnessResult> {
  const rssBeforeMiB = options.pid ? residentMiB(options.pid) : NaN;
  const fairnessFlood: FloodData = {
    port: options.port,
    seconds: options.seconds,
    connections: options.connections ?? 32,
    address: options.floodAddress ?? '127.0.77.1',
    slug: options.slug,
  };
  const worker = new Worker(new URL(import.meta.url), { workerData: { fairnessFlood } });
  const flooded = new Promise<FairnessResult['flood']>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const bystander = await bystanderRun(options.port, options.bystanderPaths, options.seconds, options.bystanderGapMs);
  const floodResult = await flooded;
  await worker.terminate();
  return {
    bystander,
    flood: floodResult,
    ...(options.pid ? { rssBeforeMiB, rssAfterMiB: residentMiB(options.pid) } : {}),
  };
}
