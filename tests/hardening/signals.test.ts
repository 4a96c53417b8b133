/**
 * `npm start` and `npm run serve` under a supervisor that signals only the pid it started (what
 * supervisord does by default, and runit and pidfile scripts do): the real npm, started as such a
 * supervisor starts it, sent SIGTERM (or SIGINT) on its own pid alone. The signal reaches the
 * server, which stops gracefully: npm exits with 0, no process of the tree is left behind, and the
 * port is free for the next start. Enquiries sent meanwhile are all accounted for. npm killed
 * outright (SIGKILL, a supervisor's last word) leaves no server behind either.
 *
 * It runs in a copy of the built fixture site (its build kept and recorded as current, so `npm
 * start` does not build), so the fixture's own dist/ is never touched.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildStamp } from '../../scripts/build-stamp.ts';
import { enquiryClient, type EnquiryAnswer } from '../../scripts/soak/enquiries.ts';
import { publishedBuild, readBuildRecord } from '../../service/host/build-layout.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { accountEmbedded, faultRow } from '../helpers/enquiry-accounts.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/project.ts';

vi.setConfig({ testTimeout: 240_000 });

let site: string;
beforeAll(() => {
  const fixture = inject('fixtureSite');
  site = mkdtempSync(path.join(tmpdir(), 'catalogue-signals-'));
  // The sources keep their times and the build its links, so the copy's build is current for npm start.
  cpSync(fixture, site, {
    recursive: true,
    preserveTimestamps: true,
    verbatimSymlinks: true,
    filter: (from) => path.relative(fixture, from) !== 'node_modules',
  });
  symlinkSync(path.join(fixture, 'node_modules'), path.join(site, 'node_modules'), 'dir');
  // A copy's times differ from the originals below the millisecond, which the stamp of the sources
  // sees: the copy's build is recorded as made from the copy's sources, as it was.
  const published = publishedBuild(site);
  expect(published?.dir.startsWith(`${realpathSync(site)}${path.sep}`)).toBe(true);
  const record = path.join(published!.dir, 'build.json');
  // The settings npm start reads in the copy (CONTENT_DIR as the fixture's build gives it).
  const stamp = buildStamp(site, {
    siteUrl: 'http://127.0.0.1:4321',
    CONTACT_EMAIL: undefined,
    CONTENT_DIR: './content',
  });
  writeFileSync(record, JSON.stringify({ ...readBuildRecord(published!.dir), stamp }));
});
afterAll(() => rmSync(site, { recursive: true, force: true }));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The pids of every process below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface Supervised {
  url: string;
  dataDir: string;
  output: () => string;
  /** Sends `signal` to npm's pid alone. */
  signal: (signal: NodeJS.Signals) => void;
  /** npm's exit code or signal, or 'still running' a minute after it was signalled. */
  exit: Promise<number | string>;
  /** Holds, within 20 s, that no process npm started is left and the port is free for the next start. */
  nothingLeft: () => Promise<void>;
}

/** `npm run <script>` as a supervisor starts it (npm its child, with its own output pipes), once it serves. */
async function underSupervisor(script: string): Promise<Supervised> {
  const dataDir = newDataDir('npm-signal-');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  let sent!: () => void;
  const signalled = new Promise<void>((resolve) => (sent = resolve));
  const npm = spawn('npm', ['run', script], {
    cwd: site,
    // The settings the fixture was built with (tests/helpers/global-setup.ts), so its build is current.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: 'http://127.0.0.1:4321',
      CONTENT_DIR: './content',
      DATA_DIR: dataDir,
      OPERATIONAL_STORAGE: 'embedded',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (d) => (output += String(d)));
  npm.stderr.on('data', (d) => (output += String(d)));
  const exit = new Promise<number | string>((resolve) => {
    npm.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    void signalled.then(() => setTimeout(() => resolve('still running'), 60_000).unref());
  });
  // Whatever the test left running (the orphaned server, on a failure) is stopped at the end.
  const tree = new Set<number>();
  cleanups.push(() => [...tree].filter(alive).forEach((pid) => process.kill(pid, 'SIGKILL')));
  await eventually(async () => {
    expect(npm.exitCode, output).toBeNull();
    expect(output).toContain('Serving the site and API');
  }, 120_000);
  for (const pid of [npm.pid!, ...descendants(npm.pid!)]) tree.add(pid);
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => output,
    signal: (name) => {
      npm.kill(name);
      sent();
    },
    exit,
    nothingLeft: () =>
      eventually(async () => {
        expect([...tree].filter(alive), 'processes left behind').toEqual([]);
        expect(await listening(port), 'the port is still taken').toBe(false);
      }, 20_000),
  };
}

describe('a supervisor that signals only the pid of npm', () => {
  it('SIGTERM to npm start stops the server gracefully: npm exits with 0, nothing is left behind, the port is free', async () => {
    const { url, dataDir, output, signal, exit, nothingLeft } = await underSupervisor('start');
    let signalled = false;
    const answers: EnquiryAnswer[] = [];
    const burst = Array.from({ length: 4 }, () =>
      enquiryClient(
        () => url,
        33,
        'npm signal',
        20,
        () => signalled,
        answers,
        'sample-trek',
      ),
    );
    await eventually(async () => expect(answers.filter((a) => a.id).length).toBeGreaterThanOrEqual(10), 60_000);
    signal('SIGTERM');
    signalled = true;
    await Promise.all(burst);
    const code = await exit;
    await nothingLeft();
    expect(code, output()).toBe(0);
    expect(output()).toMatch(/\[server\] SIGTERM: stopping; requests in flight get up to \d+ ms to finish/);
    expect(output()).toMatch(/\[server\] Stopped on SIGTERM/);
    expect(output(), 'the copy’s build was current').not.toContain('Building the site');

    const counted = await accountEmbedded(dataDir, answers);
    faultRow('SIGTERM to npm start under a PID-only supervisor', counted, `npm exit ${code}, no process left`);
    expect(counted).toMatchObject({ stored: counted.accepted, delivered: counted.accepted, storedUnanswered: 0 });
  });

  it('SIGINT to npm run serve stops the server the same way', async () => {
    const { output, signal, exit, nothingLeft } = await underSupervisor('serve');
    signal('SIGINT');
    const code = await exit;
    await nothingLeft();
    expect(code, output()).toBe(0);
    expect(output()).toMatch(/\[server\] SIGINT: stopping/);
    expect(output()).toMatch(/\[server\] Stopped on SIGINT/);
  });

  it('SIGKILL to npm start (which it cannot pass on) still leaves no server behind', async () => {
    const { output, signal, exit, nothingLeft } = await underSupervisor('start');
    signal('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    await nothingLeft();
    expect(output()).toMatch(/which started this server, has gone: stopping/);
  });
});
