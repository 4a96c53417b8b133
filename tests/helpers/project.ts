/**
 * Builds the project in a scratch copy (own dist/ and caches, node_modules linked), so tests
 * never disturb the working tree, and starts its server.ts as a real child process.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { hostNodeOptions, mallocSettings } from '../../service/host/native-memory.ts';
import { seedEmbeddedDatabase } from './embedded-template.ts';
import { eventually } from './eventually.ts';
import { processCpuMs } from './proc-stat.ts';

export const projectRoot = path.resolve(import.meta.dirname, '..', '..');
const copied = [
  'domain',
  'src',
  'service',
  'functions',
  'public',
  'scripts',
  'astro.config.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'vercel.json',
  'middleware.ts',
  'server.ts',
];

export interface ProjectCopy {
  dir: string;
  remove(): void;
}

/** What builds write in `node_modules`: this project's caches (drawn cards, compressed forms) and Vite's. */
export const buildCaches = new Set(['.cache', '.vite', '.vite-temp']);

/**
 * `ownBuildCache` gives the copy a `node_modules` of its own that links each package but not
 * the build caches (`buildCaches`), so those start empty and stay apart from the project's: the
 * benchmarks measure cold builds this way. `parent` is the folder it is made in (the temporary
 * folder unless given).
 */
export function copyProject(options: { content: string; ownBuildCache?: boolean; parent?: string }): ProjectCopy {
  const dir = mkdtempSync(path.join(options.parent ?? tmpdir(), 'catalogue-'));
  for (const entry of copied) {
    const from = path.join(projectRoot, entry);
    if (existsSync(from)) cpSync(from, path.join(dir, entry), { recursive: true });
  }
  cpSync(options.content, path.join(dir, 'content'), { recursive: true });
  const modules = path.join(projectRoot, 'node_modules');
  if (options.ownBuildCache) {
    mkdirSync(path.join(dir, 'node_modules'));
    for (const name of readdirSync(modules))
      if (!buildCaches.has(name)) symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
  } else {
    symlinkSync(modules, path.join(dir, 'node_modules'), 'dir');
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A folder of its own holding the built site in `site` (the fixture site): its files and
 * published builds copied, links kept as they are (`node_modules`, and `dist/current` with the
 * links through it, so the copy's files are its own), the notes of the servers running there left
 * out. For a test that changes a built file, or that reads what a killed server leaves in
 * dist/serving/ (every server that starts on a folder removes the notes of those that ended there,
 * so on the shared fixture site another file's server may take the note first).
 */
export function copyBuiltSite(site: string): ProjectCopy {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-'));
  const serving = path.join(site, 'dist', 'serving');
  cpSync(site, dir, { recursive: true, verbatimSymlinks: true, filter: (from) => from !== serving });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface BuildResult {
  status: number;
  output: string;
}

/** `astro build` in the copy at `dir`: the command, and the options both ways of running it share. */
function buildCommand(dir: string, env: Record<string, string>) {
  return {
    command: process.execPath,
    args: [path.join(dir, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'],
    options: {
      cwd: dir,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: './content', ...env },
      encoding: 'utf8',
      timeout: 240_000,
    } as const,
  };
}

/** What a build printed, both streams; colour codes are taken out: a terminal that asks for colour (FORCE_COLOR, CI) splits field names from their messages. */
function buildOutput(stdout: string, stderr: string): string {
  return stripVTControlCharacters(`${stdout}\n${stderr}`);
}

export function buildProject(dir: string, env: Record<string, string> = {}): BuildResult {
  const { command, args, options } = buildCommand(dir, env);
  const result = spawnSync(command, args, options);
  return { status: result.status ?? 1, output: buildOutput(result.stdout, result.stderr) };
}

/** buildProject without holding up this process meanwhile: the run's setup makes the embedded template while the fixture site builds. */
export function buildProjectBeside(dir: string, env: Record<string, string> = {}): Promise<BuildResult> {
  const { command, args, options } = buildCommand(dir, env);
  return new Promise((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        status: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        output: buildOutput(stdout, stderr),
      }),
    );
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a server with `start(port)` on a free port, and on another if it fails: another test
 * may take a free port between the probe and the server's bind. Resolves to the port it took.
 */
export async function onFreePort(start: (port: number) => Promise<void>, attempts = 5): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      await start(port);
      return port;
    } catch (error) {
      if (attempt === attempts) throw error;
    }
  }
}

/** Whether a server started with `env` keeps departures in the embedded database (the default). */
export function embedded(env: Record<string, string | undefined>): boolean {
  return (env.OPERATIONAL_STORAGE || process.env.OPERATIONAL_STORAGE || 'embedded') === 'embedded';
}

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `node server.ts` in a built copy and waits until it answers. A free port can be taken
 * by another test between being found and being bound, so a start that hits EADDRINUSE retries.
 */
export async function startServer(dir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(dir, env);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startServerOnce(dir: string, env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'catalogue-data-'));
  if (!env.DATA_DIR && embedded(env)) seedEmbeddedDatabase(dataDir);
  // With the host's memory settings given, as `npm start` gives its Node options: a server
  // started without them starts itself again once its modules have loaded (native-memory.ts, whose
  // own test starts it bare), which costs every test's server a second start.
  const child = spawn(process.execPath, [...hostNodeOptions, path.join(dir, 'server.ts')], {
    cwd: dir,
    // Its own content folder, whatever a server started in this process left in process.env (tests/helpers/in-process.ts).
    env: {
      ...mallocSettings,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONTENT_DIR: path.join(dir, 'content'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return whenServing(child, port, dataDir, listeningOn(port));
}

/**
 * What server.ts prints once it listens on 127.0.0.1:`port`. A test that starts one waits for this
 * line, not only for an answer on the port: another test's server may have taken the port first,
 * answering for a child that then exits with EADDRINUSE.
 */
export function listeningOn(port: number): string {
  return `(listening on 127.0.0.1:${port})`;
}

/** The CPU a start may use, and the time it may go without using any, before it counts as failed. */
const startCpuMs = 60_000;
const startStuckMs = 60_000;

/**
 * The bound of a child's start (for eventually's `unless`), counted in its own CPU time, not the
 * clock's: on a busy machine (each file three times slower, or the whole run on one core) a
 * start waits far longer for a core than it works, and opening a new embedded database is
 * seconds of CPU. It fails at once when the child exits, after a minute of its CPU without
 * answering (a start gone wrong), or after a minute of the clock in which it used no CPU at all
 * (stuck, not slow). Where /proc cannot be read, a minute of the clock.
 */
function startBudget(child: ChildProcess, output: () => string): () => void {
  const began = Date.now();
  let lastCpu = 0;
  let lastWorked = began;
  return () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${output()}`);
    const cpu = child.pid === undefined ? null : processCpuMs(child.pid);
    const now = Date.now();
    if (cpu === null) {
      if (now - began > startStuckMs) throw new Error(`server did not start within 60 s:\n${output()}`);
      return;
    }
    if (cpu > lastCpu) [lastCpu, lastWorked] = [cpu, now];
    if (cpu > startCpuMs)
      throw new Error(`server did not start in ${cpu / 1000} s of its CPU (${(now - began) / 1000} s):\n${output()}`);
    if (now - lastWorked > startStuckMs)
      throw new Error(`server used no CPU for 60 s without answering (stuck at ${cpu / 1000} s of CPU):\n${output()}`);
  };
}

/**
 * A server started as `child` on `port`, once it answers; stopping it removes `dataDir`. Fails
 * with the server's output when it exits first or does not start (startBudget).
 */
export async function whenServing(
  child: ChildProcess,
  port: number,
  dataDir: string,
  /** A line the child prints once it listens, when it prints one: the answer is then known to be its own. */
  listening?: string,
): Promise<RunningServer> {
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await eventually(
      async () => {
        if (listening !== undefined && !output.includes(listening)) throw new Error(`not listening yet:\n${output}`);
        return fetch(`${url}/robots.txt`);
      },
      {
        withinMs: Infinity,
        everyMs: 100,
        unless: startBudget(child, () => output),
      },
    );
  } catch (error) {
    // A server that never answered must not outlive the test run.
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    process: child,
    output: () => output,
    stop: async () => {
      // A child killed by a signal has no exit code, only a signal code: it has exited all the same.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
