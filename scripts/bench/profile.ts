/**
 * Where a request's CPU time goes: server.ts (as `npm start` runs it, on the server's core) under
 * the bench's load (many client addresses, the real counter store) on one path at a time, with
 * V8's sampling profiler (`--cpu-prof`); prints the frames with the most self time per path as
 * Markdown tables (the tables in docs/benchmarks.md come from here).
 *
 *   node scripts/bench/profile.ts <built project dir> [--seconds 8] [--top 12] <path> [<path> …]
 *
 * The project dir must hold a build (`npm run build`); the profiles are left in a temp folder.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freshAddresses, runLoad } from '../../tests/helpers/loopback-load.ts';
import { pinLoadGenerator, startChildServer } from './processes.ts';
import { table } from './report.ts';
import { benchSiteUrl, serveNodeOptions } from './site.ts';

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
  options: { seconds: { type: 'string', default: '8' }, top: { type: 'string', default: '12' } },
});
const [dir, ...paths] = positionals;
if (!dir || paths.length === 0) {
  console.error('usage: node scripts/bench/profile.ts <built project dir> <path> [<path> …]');
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

pinLoadGenerator();
for (const target of paths) {
  const profiles = mkdtempSync(path.join(tmpdir(), 'bench-profile-'));
  const server = await startChildServer(path.join(dir, 'server.ts'), {
    cwd: dir,
    env: { SITE_URL: benchSiteUrl, NODE_OPTIONS: `${serveNodeOptions(dir)} --cpu-prof --cpu-prof-dir=${profiles}` },
  });
  let requests: number;
  let loadStartedUs: number;
  try {
    await runLoad({
      port: server.port,
      path: target,
      connections: 10,
      durationMs: 1000,
      address: freshAddresses(),
      requestsPerAddress: 100,
    });
    // Only the samples of the measured load count: not the start, the warm-up or the stop.
    loadStartedUs = Number(process.hrtime.bigint() / 1000n);
    requests = (
      await runLoad({
        port: server.port,
        path: target,
        connections: 10,
        durationMs: Number(values.seconds) * 1000,
        address: freshAddresses(),
        requestsPerAddress: 100,
      })
    ).requests;
  } finally {
    await server.stop();
  }
  // The last profile written: a server that starts itself again (service/host/native-memory.ts) leaves one of its first start too.
  const file = readdirSync(profiles)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no profile written for ${target}`);
  const frames = selfTimes(JSON.parse(readFileSync(path.join(profiles, file), 'utf8')) as CpuProfile, loadStartedUs);
  const total = frames.reduce((n, f) => n + f.us, 0);
  const idle = frames.filter((f) => f.frame.startsWith('(idle)')).reduce((n, f) => n + f.us, 0);
  const busy = total - idle;
  const rows = frames
    .filter((f) => !f.frame.startsWith('(idle)'))
    .slice(0, Number(values.top))
    .map((f) => [`\`${f.frame}\``, `${((f.us / busy) * 100).toFixed(1)} %`]);
  console.log(`\n### \`${target}\`: ${requests} requests, ${(busy / 1000).toFixed(0)} ms busy while loaded\n`);
  console.log(table(['Frame (self time)', 'Share of busy time'], rows));
  console.log(`\n(profile: ${path.join(profiles, file)})`);
}
