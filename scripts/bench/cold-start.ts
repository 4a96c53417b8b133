/**
 * Cold starts of the live functions as the real Build Output holds them: for each function, a
 * fresh `node` (no compile cache) imports its handler from its `.func` folder, as the platform's
 * launcher does, and answers one request; the time from just before the import to the end of the
 * answer's body is its cold start. Beside them a one-line handler loaded the same way: the floor
 * (what Node itself costs to load a module and make its first Request and Response). Samples run
 * in turns across the functions, each process on the server's core (processes.ts), and the
 * median is reported. Operational storage is off: the cold start of the function, not of a
 * connection to a database.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { functionFiles, functionSize, type BuildOutput } from '../../tests/helpers/vercel-output.ts';
import { onServerCore } from './processes.ts';
import { fixed, mib, type Section } from './report.ts';

/** The request each function answers first: one of its own, that needs no storage. */
export interface FirstRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ColdStart {
  name: string;
  importMs: number;
  answerMs: number;
  totalMs: number;
  status: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** What the child runs: import, one request, the times as JSON. */
function probe(handlerFile: string, origin: string, first: FirstRequest): string {
  return `const started = performance.now();
const { default: handler } = await import(${JSON.stringify(pathToFileURL(handlerFile).href)});
const imported = performance.now();
const request = new Request(${JSON.stringify(origin + first.path)}, ${JSON.stringify({
    method: first.method ?? 'GET',
    headers: { 'X-Real-IP': '192.0.2.1', ...first.headers },
    ...(first.body === undefined ? {} : { body: first.body }),
  })});
const response = await (typeof handler === 'function' ? handler(request) : handler.fetch(request));
await response.arrayBuffer();
const answered = performance.now();
console.log(JSON.stringify({ importMs: imported - started, answerMs: answered - imported, status: response.status }));`;
}

interface Probe {
  name: string;
  handlerFile: string;
  cwd: string;
  first: FirstRequest;
}

function sample(target: Probe, origin: string, env: Record<string, string>): Omit<ColdStart, 'name' | 'totalMs'> {
  const [command, args] = onServerCore(process.execPath, [
    '--input-type=module',
    '-e',
    probe(target.handlerFile, origin, target.first),
  ]);
  const run = spawnSync(command, args, {
    cwd: target.cwd,
    encoding: 'utf8',
    // Nothing of the bench's own environment (no NODE_COMPILE_CACHE), only what a deployment sets.
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  if (run.status !== 0) throw new Error(`${target.name} did not start: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Omit<ColdStart, 'name' | 'totalMs'>;
}

/** The floor: a one-line handler in a `.func` folder of its own, loaded the same way. */
function floorProbe(dir: string): Probe {
  const func = path.join(dir, 'floor.func');
  mkdirSync(func, { recursive: true });
  writeFileSync(path.join(func, 'index.mjs'), "export default { fetch: () => new Response('ok') };\n");
  return {
    name: 'one-line handler (floor)',
    handlerFile: path.join(func, 'index.mjs'),
    cwd: func,
    first: { path: '/' },
  };
}

/** The median cold start of each function of `output` and of the floor, over `samples` fresh processes each. */
export function measureColdStarts(
  output: BuildOutput,
  firsts: Record<string, FirstRequest>,
  options: { samples: number; origin: string; env: Record<string, string>; cwd?: (func: string) => string },
): ColdStart[] {
  const scratch = path.join(output.dir, '..', 'cold-start');
  const probes: Probe[] = [
    floorProbe(scratch),
    ...Object.entries(firsts).map(([name, first]) => {
      const func = path.join(output.dir, 'functions', `${name}.func`);
      const { handler } = JSON.parse(readFileSync(path.join(func, '.vc-config.json'), 'utf8')) as { handler: string };
      return { name, handlerFile: path.join(func, handler), cwd: options.cwd?.(func) ?? func, first };
    }),
  ];
  const times = new Map(probes.map((p) => [p.name, [] as Omit<ColdStart, 'name' | 'totalMs'>[]]));
  // In turns, so a busy moment of the machine falls on every function alike.
  for (let round = 0; round < options.samples; round += 1)
    for (const target of probes) times.get(target.name)!.push(sample(target, options.origin, options.env));
  rmSync(scratch, { recursive: true, force: true });
  return probes.map(({ name }) => {
    const runs = times.get(name)!;
    return {
      name,
      importMs: median(runs.map((r) => r.importMs)),
      answerMs: median(runs.map((r) => r.answerMs)),
      totalMs: median(runs.map((r) => r.importMs + r.answerMs)),
      status: runs.at(-1)!.status,
    };
  });
}

/** The cold-start table: each function beside the floor, with its size on disk. */
export function coldStartSection(
  output: BuildOutput,
  starts: ColdStart[],
  options: { samples: number; goalMs: number; loadBefore: string },
): Section {
  const floor = starts[0]!;
  const rows = starts.map((start, i) => {
    const size =
      i === 0 ? null : { files: functionFiles(output, start.name).length, bytes: functionSize(output, start.name) };
    return [
      i === 0 ? start.name : `\`${start.name}\``,
      size ? fixed(size.files) : '1',
      size ? mib(size.bytes) : '0.0 MiB',
      fixed(start.importMs, 1),
      fixed(start.answerMs, 1),
      fixed(start.totalMs, 1),
      i === 0 ? '1.00' : (start.totalMs / floor.totalMs).toFixed(2),
      String(start.status),
    ];
  });
  const functions = starts.slice(1);
  const over = functions.filter((s) => s.totalMs > options.goalMs);
  const loadAfter = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return {
    title: 'Cold starts of the functions',
    about: `Each function of the same Build Output, imported from its \`.func\` folder by a fresh \`node\` ${process.versions.node} (no compile cache; pinned to one core, as a function instance has one) and answering one request of its own that needs no storage (OPERATIONAL_STORAGE=off), beside a one-line handler loaded the same way (the floor: loading a module, making the first Request and Response). Median of ${options.samples} processes each, taken in turns; load average ${options.loadBefore} before, ${loadAfter} after. Size: the files the function carries and their bytes, as they would be uploaded.`,
    header: ['Function', 'Files', 'Size', 'Import (ms)', 'First answer (ms)', 'Cold start (ms)', '× floor', 'Status'],
    rows,
    findings: [
      over.length === 0
        ? `Every function imports and answers its first request within ${options.goalMs} ms (slowest: \`${[...functions].sort((a, b) => b.totalMs - a.totalMs)[0]?.name}\`, ${fixed(Math.max(...functions.map((s) => s.totalMs)), 1)} ms; the floor ${fixed(floor.totalMs, 1)} ms).`
        : `Over the ${options.goalMs} ms goal: ${over.map((s) => `\`${s.name}\` ${fixed(s.totalMs, 1)} ms`).join(', ')} (the floor ${fixed(floor.totalMs, 1)} ms).`,
    ],
  };
}
