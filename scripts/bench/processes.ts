/**
 * Child processes of the benchmark: servers started with `node <script>` on a free loopback
 * port, awaited until they answer, measured (resident memory) and stopped. Every server runs on
 * a core of its own and the load generator (the bench process) on another (`taskset`), so the
 * load generator never takes the server's core and does not set its pace.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../tests/helpers/project.ts';

export interface ChildServer {
  url: string;
  port: number;
  /** DATA_DIR of the server, a temp folder removed when it stops. */
  dataDir: string;
  process: ChildProcess;
  output(): string;
  /** Resident set size of the server process, in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  cwd: string;
  /** Node's own options, before the script (some, such as `--liftoff-only`, Node takes only here, not in NODE_OPTIONS). */
  nodeOptions?: readonly string[];
  args?: string[];
  env?: Record<string, string>;
  /** A path that answers once the server is ready. */
  readyPath?: string;
  /** How long to wait for it: opening the embedded database can take a minute on a busy machine. */
  readyWithinMs?: number;
}

/**
 * The processes `pid` started that still run, from /proc: the kernel's list of its children, or,
 * where the kernel keeps none, every process whose parent it is. Empty when `pid` is gone or there
 * is no /proc.
 */
export function childrenOf(pid: number): number[] {
  try {
    const children = `/proc/${pid}/task/${pid}/children`;
    if (existsSync(children)) return readFileSync(children, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

const taskset = '/usr/bin/taskset';

/** The cores of the load generator and of the server under test, when the machine has two or more and taskset is there. */
export const cores = existsSync(taskset) && os.availableParallelism() >= 2 ? { load: 0, server: 1 } : null;

/** Pins this process, all its threads, to the load generator's core; a no-op without taskset. */
export function pinLoadGenerator(): void {
  if (cores) spawnSync(taskset, ['-a', '-cp', String(cores.load), String(process.pid)], { stdio: 'ignore' });
}

/** `command args` run on the server's core (taskset execs it, so the process id is the server's). */
export function onServerCore(command: string, args: string[]): [string, string[]] {
  return cores ? [taskset, ['-c', String(cores.server), command, ...args]] : [command, args];
}

export async function startChildServer(script: string, options: ChildServerOptions): Promise<ChildServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-data-'));
  const [command, args] = onServerCore(process.execPath, [
    ...(options.nodeOptions ?? []),
    script,
    ...(options.args ?? []),
  ]);
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ASTRO_TELEMETRY_DISABLED: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyWithinMs ?? 180_000);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited early:\n${output}`);
    try {
      const res = await fetch(`${url}${options.readyPath ?? '/robots.txt'}`);
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${script} did not answer within the time allowed:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, port, dataDir, process: child, output: () => output, rss: () => residentBytes(child.pid!), stop };
}

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
