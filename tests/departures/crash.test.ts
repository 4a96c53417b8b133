/**
 * The server killed (`kill -9`) in the middle of a burst of enquiries, on the embedded database,
 * and started again on the same data while something still holds the dead server's pid: its own
 * zombie (a parent that never reaps it), or another long-lived process given that very pid (as
 * containers reuse pids). The new server takes the database back at once: departures and
 * enquiries answer, and every enquiry the dead server accepted is stored and was delivered. It
 * also cleans what the dead server left: its note in dist/serving/ and its email drafts in the
 * outbox, and nothing of a live process (a draft another process is writing stays).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { servingNoteFile } from '../../service/host/build-layout.ts';
import { hostFilePath } from '../../service/storage/host-file.ts';
import type { EnquiryAnswer } from '../../scripts/soak/enquiries.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { accountEmbedded, faultRow } from '../helpers/enquiry-accounts.ts';
import { occupyDeadHostPid } from '../helpers/pid-squatter.ts';
import { processState } from '../helpers/proc-stat.ts';
import { eventually } from '../helpers/eventually.ts';
import {
  copyBuiltSite,
  freePort,
  listeningOn,
  startServer,
  whenServing,
  type ProjectCopy,
  type RunningServer,
} from '../helpers/project.ts';

// What bounds a test that hangs, not its speed: servers that make or take over a database, which
// on a busy machine (the whole run on one core) take minutes. A start fails on its own terms
// (startBudget, tests/helpers/project.ts).
vi.setConfig({ testTimeout: 300_000 });

const enquiry = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The fixture site in a folder of this file's own: what the killed server leaves in its
// dist/serving/ stays there until the server started after it removes it (copyBuiltSite).
let site: ProjectCopy;
beforeAll(() => {
  site = copyBuiltSite(inject('fixtureSite'));
});
afterAll(() => site?.remove());

function environment(dataDir: string): Record<string, string> {
  // TRUST_PROXY=vercel: each enquiry speaks from an address of its own (x-real-ip), within the quota.
  return { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded', TRUST_PROXY: 'vercel', SITE_URL: '' };
}

let address = 0;

/** An enquiry's answer: its status (0 when the connection died), its reference when accepted, and its own message. */
type Answer = Omit<EnquiryAnswer, 'status'> & { status: number };

async function sendEnquiry(url: string): Promise<Answer> {
  address += 1;
  const message = `enquiry ${address}`;
  const at = Date.now();
  try {
    const response = await fetch(`${url}/api/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-real-ip': `198.51.100.${address % 250}` },
      body: JSON.stringify({ ...enquiry, message }),
    });
    const body = (await response.json()) as { enquiry?: { id: string } };
    return { at, message, status: response.status, ...(body.enquiry ? { id: body.enquiry.id } : {}) };
  } catch {
    return { at, message, status: 0 }; // the connection died with the server
  }
}

/**
 * Enquiries sent two at a time into `answers` until `stop` resolves, and then for a moment more:
 * the ones the server answered (accepted when it gave a reference) and the ones that died with it.
 */
async function burst(url: string, stop: Promise<unknown>, answers: Answer[]): Promise<Answer[]> {
  let stopping = false;
  // Stopped however `stop` ends: when the server accepted too few to be killed, the test fails with why.
  const stopped = () => (stopping = true);
  void stop.then(stopped, stopped);
  const sender = async () => {
    while (!stopping) {
      answers.push(await sendEnquiry(url));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await Promise.all([sender(), sender()]);
  return answers;
}

/** Resolves once the server has accepted `count` of `answers`: the burst is under way. */
function accepting(answers: Answer[], count: number): Promise<unknown> {
  return eventually(async () => expect(answers.filter((a) => a.id).length).toBeGreaterThanOrEqual(count), 60_000);
}

/** What the new server says of each accepted enquiry: stored (its page shows it) and delivered (its email in the outbox). */
async function accounted(
  server: RunningServer,
  dataDir: string,
  accepted: string[],
): Promise<{ stored: number; delivered: number }> {
  let stored = 0;
  let delivered = 0;
  for (const [i, id] of accepted.entries()) {
    // Each page is a fresh render: asked from an address of its own, within the render quota.
    const page = await fetch(`${server.url}/enquiry-sent?ref=${id}`, {
      headers: { 'x-real-ip': `203.0.113.${i % 250}` },
    });
    if (page.status === 200 && (await page.text()).includes(id)) stored += 1;
    if (existsSync(path.join(dataDir, 'outbox', `${id}.eml`))) delivered += 1;
  }
  return { stored, delivered };
}

/** The restarted server takes the database back: departures read, an enquiry taken, within `ms`. */
async function takenBack(server: RunningServer, ms = 20_000): Promise<number> {
  const started = Date.now();
  await eventually(
    async () =>
      expect(
        (await fetch(`${server.url}/v1/departures`)).status,
        `departures ${Date.now() - started} ms after the restart`,
      ).toBe(200),
    { withinMs: ms, everyMs: 250 },
  );
  expect((await sendEnquiry(server.url)).status).toBe(201);
  return Date.now() - started;
}

/** A process's start as /proc gives it (clock ticks since boot): what names it in a draft beside its pid. */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

interface Leftovers {
  /** The dead server's note in dist/serving/. */
  note: string;
  /** Drafts the dead server left in the outbox: those of the burst, and one left at the kill's very moment. */
  deadDrafts: string[];
  /** A draft a live process is writing. */
  liveDraft: string;
  emails: string[];
}

/**
 * What `kill -9` of the server (`pid`, started at `ticks`, serving on `port`) leaves: its note, and
 * any drafts of the burst; plus a draft as it leaves one killed between writing and linking it (at
 * the kill's very moment), and one of a process still writing (this test's), which must stay.
 */
function leftBehind(dataDir: string, pid: number, ticks: string, port: number): Leftovers {
  const outbox = path.join(dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true, mode: 0o700 });
  const note = servingNoteFile(site.dir, pid, port);
  expect(existsSync(note), 'kill -9 leaves the serving note').toBe(true);
  writeFileSync(path.join(outbox, `.enq-20260101-abcdefghjk.${pid}-${ticks}.0badcafe.tmp`), 'From: cut short\r\n');
  const liveDraft = path.join(
    outbox,
    `.enq-20260101-mnpqrstuvw.${process.pid}-${startTicks(process.pid)}.0000beef.tmp`,
  );
  writeFileSync(liveDraft, 'From: being written\r\n');
  const names = readdirSync(outbox);
  return {
    note,
    deadDrafts: names.filter((n) => n.includes(`.${pid}-`)).map((n) => path.join(outbox, n)),
    liveDraft,
    emails: names.filter((n) => n.endsWith('.eml')).map((n) => path.join(outbox, n)),
  };
}

/** Starts the server again on `dataDir`: it takes the database back, holds every enquiry the dead one accepted, and cleans what it left. */
async function restartedWithNoneLost(dataDir: string, answers: Answer[], what: string, left: Leftovers): Promise<void> {
  const second = await startServer(site.dir, environment(dataDir));
  cleanups.push(() => second.stop());
  const back = await takenBack(second);
  expect(existsSync(left.note), 'the dead server’s note is removed').toBe(false);
  expect(left.deadDrafts.filter(existsSync), 'the dead server’s drafts are removed').toEqual([]);
  expect(existsSync(left.liveDraft), 'a live process’s draft stays').toBe(true);
  expect(
    left.emails.filter((e) => !existsSync(e)),
    'every email stays',
  ).toEqual([]);
  const counted = await accountEmbedded(dataDir, answers);
  faultRow(
    `kill -9 mid-burst (${what})`,
    counted,
    `${left.deadDrafts.length - 1} draft(s) of the burst and 1 planted removed, the note removed`,
  );
  const accepted = answers.flatMap((a) => (a.id ? [a.id] : []));
  expect(accepted.length).toBeGreaterThan(0);
  const found = await accounted(second, dataDir, accepted);
  console.info(
    `[crash, ${what}] taken back after ${back} ms; enquiries accepted ${accepted.length}, stored ${found.stored}, delivered ${found.delivered}; ${answers.length - accepted.length} died with the server`,
  );
  expect(found).toEqual({ stored: accepted.length, delivered: accepted.length });
}

describe('the embedded database after kill -9 of the server', () => {
  it('is taken back while the dead server is a zombie on its pid, and no accepted enquiry is lost', async () => {
    const dataDir = newDataDir('crash-zombie-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The server under a parent that never reaps it (sh replaced by sleep): killed, it stays a zombie.
    const port = await freePort();
    const parent = spawn(
      'sh',
      ['-c', '"$0" "$1" & echo "$!"; exec sleep 600', process.execPath, path.join(site.dir, 'server.ts')],
      {
        cwd: site.dir,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...environment(dataDir) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(() => parent.kill('SIGKILL'));
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (d) => resolve(Number(String(d).split('\n')[0]))),
    );
    // Never stopped as a whole (its parent is left to keep the zombie): what it would remove is removed here.
    const unused = mkdtempSync(path.join(tmpdir(), 'crash-unused-'));
    cleanups.push(() => rmSync(unused, { recursive: true, force: true }));
    const first = await whenServing(parent, port, unused, listeningOn(port));
    expect(JSON.parse(readFileSync(hostFilePath(path.join(dataDir, 'pglite')), 'utf8')).pid).toBe(pid);
    const ticks = startTicks(pid);

    const answers: Answer[] = [];
    const killed = accepting(answers, 5).then(() => process.kill(pid, 'SIGKILL'));
    await burst(first.url, killed, answers);
    await killed;
    await eventually(async () => expect(processState(pid), 'the dead server is a zombie on its pid').toBe('Z'), 5000);

    const left = leftBehind(dataDir, pid, ticks, port);
    await restartedWithNoneLost(dataDir, answers, 'the dead server a zombie on its pid', left);
  });

  it('is taken back while another long-lived process has the dead server’s pid, and no accepted enquiry is lost', async () => {
    const dataDir = newDataDir('crash-reused-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startServer(site.dir, environment(dataDir));
    cleanups.push(() => first.stop());
    const pid = first.process.pid!;
    const ticks = startTicks(pid);
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    const answers: Answer[] = [];
    const killed = accepting(answers, 5).then(() => first.process.kill('SIGKILL'));
    await burst(first.url, killed, answers);
    await killed;
    await exited; // reaped: the pid is free for the next process
    const left = leftBehind(dataDir, pid, ticks, first.port);

    // Where the system does not let a test choose the next pid, the host file is made to name a live
    // process of another program instead, as the reused pid would: what the server reads is the same.
    const { squatter, how } = await occupyDeadHostPid(pid, path.join(dataDir, 'pglite'));
    cleanups.push(() => squatter.kill('SIGKILL'));
    expect(processState(squatter.pid!)).toMatch(/^[RS]$/);
    await restartedWithNoneLost(dataDir, answers, how, left);
  });
});
