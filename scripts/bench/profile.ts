/**
 * Where a request's CPU time goes: server.ts (as `npm start` runs it, on the server's core) under
 * the bench's load (many client addresses, the real counter store) on one path at a time, with
 * V8's sampling profiler (`--cpu-prof`); prints the frames with the most self time per path as
 * Markdown tables, each frame in µs per request beside the same frame of the bytes baseline
 * (bytes-server.ts answering the recorded answer under the same load; the tables in
 * docs/benchmarks.md come from here).
 *
 *   node scripts/bench/profile.ts <built project dir> [--seconds 8] [--top 12] [--load steady|fewer] <path> [<path> …]
 *
 * `--load` names the load profile of scripts/bench/load.ts (default steady).
 *
 * The project dir must hold a build (`npm run build`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freshAddresses, runLoad } from '../../tests/helpers/loopback-load.ts';
import { loadProfiles, type LoadProfileName } from './load.ts';
import { pinLoadGenerator, type ChildServer } from './processes.ts';
import { table } from './report.ts';
import { record, startBenchServer, startBytesServer } from './site.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '8' },
    top: { type: 'string', default: '12' },
    load: { type: 'string', default: 'steady' },
  },
});
const [dir, ...paths] = positionals;
const profile = loadProfiles[values.load as LoadProfileName];
if (!dir || paths.length === 0 || !profile) {
  console.error(
    `usage: node scripts/bench/profile.ts <built project dir> [--load ${Object.keys(loadProfiles).join('|')}] <path> [<path> …]`,
  );
  process.exit(1);
}

/** Self time per frame (function, file and line), summed over the samples taken from `fromUs` (the monotonic clock, as V8 and process.hrtime read it). */
function selfTimes(profile: CpuProfile, fromUs: number): { frame: string; us: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs) continue;
    const node = byId.get(profile.samples[i]!)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      ? `${url.replace(/^file:\/\/.*?\/(node_modules|service|scripts|server\.ts)/, '$1')}:${lineNumber + 1}`
      : '';
    const frame = `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    totals.set(frame, (totals.get(frame) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return [...totals].map(([frame, us]) => ({ frame, us })).sort((a, b) => b.us - a.us);
}

/** A server under the bench's load on one path with V8's sampling profiler on: its frames' self time from the load's start, and the requests answered. */
async function profiled(
  target: string,
  start: (nodeOptions: string) => Promise<ChildServer>,
): Promise<{ frames: { frame: string; us: number }[]; requests: number; busyUs: number }> {
  const profiles = mkdtempSync(path.join(tmpdir(), 'bench-profile-'));
  const server = await start(
    `--cpu-prof --cpu-prof-dir=${profiles} --cpu-prof-interval=${process.env.PROFILE_INTERVAL_US ?? 1000}`,
  );
  let requests: number;
  let loadStartedUs: number;
  try {
    await runLoad({ ...load(server.port, target), durationMs: 1000 });
    // Only the samples of the measured load count: not the start, the warm-up or the stop.
    loadStartedUs = Number(process.hrtime.bigint() / 1000n);
    requests = (await runLoad({ ...load(server.port, target), durationMs: Number(values.seconds) * 1000 })).requests;
  } finally {
    await server.stop();
  }
  // The last profile written: a server that starts itself again (service/host/native-memory.ts) leaves one of its first start too.
  const file = readdirSync(profiles)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no profile written for ${target}`);
  const all = selfTimes(JSON.parse(readFileSync(path.join(profiles, file), 'utf8')) as CpuProfile, loadStartedUs);
  if (!process.env.KEEP_PROFILES) rmSync(profiles, { recursive: true, force: true });
  else console.log(`(profile: ${path.join(profiles, file)})`);
  const frames = all.filter((f) => !f.frame.startsWith('(idle)'));
  return { frames, requests, busyUs: frames.reduce((n, f) => n + f.us, 0) };
}

function load(port: number, target: string) {
  return {
    port,
    path: target,
    connections: profile.connections,
    address: freshAddresses(),
    requestsPerAddress: profile.requestsPerConnection,
  };
}

pinLoadGenerator();
const perRequest = (us: number, requests: number) => (us / requests).toFixed(2);
for (const target of paths) {
  const server = await profiled(target, (nodeOptions) => startBenchServer(dir, { NODE_OPTIONS: nodeOptions }));
  // The baseline: the same answer's bytes from memory (bytes-server.ts), recorded from a server of the same build.
  const recorder = await startBenchServer(dir);
  const recording = await record(recorder.url, target).finally(() => recorder.stop());
  const baseline = await profiled(target, (nodeOptions) => startBytesServer([recording], nodeOptions));
  const baselineUs = new Map(baseline.frames.map((f) => [f.frame, f.us]));
  const rows = server.frames.slice(0, Number(values.top)).map((f) => {
    const base = baselineUs.get(f.frame);
    return [
      `\`${f.frame}\``,
      perRequest(f.us, server.requests),
      base === undefined ? '—' : perRequest(base, baseline.requests),
      `${((f.us / server.busyUs) * 100).toFixed(1)} %`,
    ];
  });
  console.log(
    `\n### \`${target}\`: ${perRequest(server.busyUs, server.requests)} µs of CPU per request (${server.requests} requests), bytes baseline ${perRequest(baseline.busyUs, baseline.requests)} µs (${baseline.requests} requests)\n`,
  );
  console.log(table(['Frame (self time)', 'µs per request', 'Baseline µs per request', "Share of the server's"], rows));
}
