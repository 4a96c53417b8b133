/**
 * Cold starts of the live functions as the real Build Output holds them: for each function, a
 * fresh `node` (no compile cache) imports its handler from its `.func` folder, as the platform's
 * launcher does, and answers one request; the time from just before the import to the end of the
 * answer's body is its cold start. Beside them two floors loaded the same way: a one-line handler
 * (what Node itself costs to load a module and make its first Request and Response), and a bare
 * MCP server on the same package, bundled the same way, answering the same `initialize` as the
 * MCP function (what the official SDK costs before any tool of ours). Samples run in turns
 * across them all, each process on the server's core (processes.ts), and the median is
 * reported. Operational storage is off: the cold start of the function, not of a connection to
 * a database.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { functionFiles, functionSize, type BuildOutput } from '../../tests/helpers/vercel-output.ts';
import { bundleFunction } from '../vercel/function-bundles.ts';
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

const floorName = 'one-line handler (floor)';
const mcpFloorName = 'bare MCP server, same SDK (MCP floor)';

/** The floor: a one-line handler in a `.func` folder of its own, loaded the same way. */
function floorProbe(dir: string): Probe {
  const func = path.join(dir, 'floor.func');
  mkdirSync(func, { recursive: true });
  writeFileSync(path.join(func, 'index.mjs'), "export default { fetch: () => new Response('ok') };\n");
  return { name: floorName, handlerFile: path.join(func, 'index.mjs'), cwd: func, first: { path: '/' } };
}

/** An MCP function's floor: the SDK's bare stateless server, bundled as the functions are, with no tool. */
async function mcpFloorProbe(root: string, dir: string, first: FirstRequest): Promise<Probe> {
  const func = path.join(dir, 'mcp-floor.func');
  await bundleFunction(
    root,
    func,
    `import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
export default {
  async fetch(request) {
    const server = new McpServer({ name: 'floor', version: '1.0.0' });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  },
};`,
  );
  return { name: mcpFloorName, handlerFile: path.join(func, 'index.mjs'), cwd: func, first };
}

/**
 * The median cold start of each function of `output` and of the floors, over `samples` fresh
 * processes each; the MCP floor answers what `firsts['api/mcp']` asks.
 */
export async function measureColdStarts(
  output: BuildOutput,
  firsts: Record<string, FirstRequest>,
  options: { samples: number; origin: string; env: Record<string, string>; cwd?: (func: string) => string },
): Promise<ColdStart[]> {
  const scratch = path.join(output.dir, '..', 'cold-start');
  const mcpFirst = firsts['api/mcp'];
  const probes: Probe[] = [
    floorProbe(scratch),
    ...(mcpFirst ? [await mcpFloorProbe(path.dirname(path.dirname(output.dir)), scratch, mcpFirst)] : []),
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

/** The cold-start table: each function beside the floors, with its size on disk. */
export function coldStartSection(
  output: BuildOutput,
  starts: ColdStart[],
  options: { samples: number; goalMs: number; loadBefore: string },
): Section {
  const isFloor = (start: ColdStart) => start.name === floorName || start.name === mcpFloorName;
  const floor = starts.find((start) => start.name === floorName)!;
  const mcpFloor = starts.find((start) => start.name === mcpFloorName);
  const rows = starts.map((start) => {
    const size = isFloor(start)
      ? null
      : { files: functionFiles(output, start.name).length, bytes: functionSize(output, start.name) };
    return [
      isFloor(start) ? start.name : `\`${start.name}\``,
      size ? fixed(size.files) : '',
      size ? mib(size.bytes) : '',
      fixed(start.importMs, 1),
      fixed(start.answerMs, 1),
      fixed(start.totalMs, 1),
      (start.totalMs / floor.totalMs).toFixed(2),
      String(start.status),
    ];
  });
  const functions = starts.filter((start) => !isFloor(start));
  const mcp = functions.find((start) => start.name === 'api/mcp');
  const over = functions.filter((s) => s.totalMs > options.goalMs);
  const loadAfter = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return {
    title: 'Cold starts of the functions',
    about: `Each function of the same Build Output, imported from its \`.func\` folder by a fresh \`node\` ${process.versions.node} (no compile cache; pinned to one core, as a function instance has one) and answering one request of its own that needs no storage (OPERATIONAL_STORAGE=off), beside two floors loaded the same way: a one-line handler (loading a module, making the first Request and Response) and a bare server on the MCP package, bundled as the functions are, answering the MCP function's \`initialize\`. Median of ${options.samples} processes each, taken in turns; load average ${options.loadBefore} before, ${loadAfter} after. Size: the files the function carries and their bytes, as they would be uploaded (the file loaded at a cold start, the content, and what some paths load later).`,
    header: ['Function', 'Files', 'Size', 'Import (ms)', 'First answer (ms)', 'Cold start (ms)', '× floor', 'Status'],
    rows,
    findings: [
      over.length === 0
        ? `Every function imports and answers its first request within ${options.goalMs} ms (slowest: \`${[...functions].sort((a, b) => b.totalMs - a.totalMs)[0]?.name}\`, ${fixed(Math.max(...functions.map((s) => s.totalMs)), 1)} ms; the floor ${fixed(floor.totalMs, 1)} ms).`
        : `Over the ${options.goalMs} ms goal: ${over.map((s) => `\`${s.name}\` ${fixed(s.totalMs, 1)} ms`).join(', ')} (the floor ${fixed(floor.totalMs, 1)} ms).`,
      ...(mcp && mcpFloor
        ? [
            `The MCP function takes ${fixed(mcp.totalMs - mcpFloor.totalMs, 1)} ms more than a bare server on the same SDK (${fixed(mcpFloor.totalMs, 1)} ms, itself ${fixed(mcpFloor.totalMs - floor.totalMs, 1)} ms over the one-line floor).`,
          ]
        : []),
    ],
  };
}
