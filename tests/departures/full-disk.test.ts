/**
 * The data folder's disk full while enquiries arrive, on the embedded database: every enquiry the
 * server accepts (answers with a reference) is stored and, once there is room again, delivered;
 * every other one is refused in the contract's words, so the person knows to try again. The server
 * never crashes, answers trips and peaks throughout, and takes enquiries again when room is made.
 *
 * A server started on a full disk says so in plain words, leaves nothing half-made behind (no
 * empty host file, no half-made database), and opens the database by itself once there is room:
 * no restart, no file removed by hand.
 *
 * The folder is a small tmpfs of its own, so filling it touches nothing else: mounting one needs
 * root, as CI runs; elsewhere the test says so and is skipped.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { sendEnquiry as sendFrom, type EnquiryAnswer } from '../../scripts/soak/enquiries.ts';
import { hostFilePath } from '../../service/storage/host-file.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { accountEmbedded, faultRow } from '../helpers/enquiry-accounts.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';

vi.setConfig({ testTimeout: 180_000 });

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Why this machine cannot mount a disk of the test's own, if it cannot. */
const cannotMount = process.getuid?.() === 0 ? undefined : 'mounting a tmpfs needs root (CI runs as root)';

/** A tmpfs of `size` mounted on a new folder, unmounted after the test. */
function smallDisk(size: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'full-disk-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  cleanups.push(() => execFileSync('umount', ['-l', dir]));
  return dir;
}

/** Fills the disk `dir` is on with one file, to the last byte it takes; removing the file makes the room again. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (let size = chunk.length; size >= 1;) {
      try {
        writeSync(fd, chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

let address = 0;

async function sendEnquiry(url: string): Promise<{ status: number; id?: string; code?: string }> {
  address += 1;
  const response = await fetch(`${url}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': `198.51.100.${address % 250}` },
    body: JSON.stringify({
      tripSlug: 'sample-trek',
      name: 'Asha Rao',
      phone: '+91 98765 43210',
      groupSize: 2,
      message: `enquiry ${address}`,
    }),
  });
  expect(response.headers.get('content-type')).toMatch(/json/);
  const body = (await response.json()) as { enquiry?: { id: string }; error?: { code: string } };
  return {
    status: response.status,
    ...(body.enquiry ? { id: body.enquiry.id } : {}),
    ...(body.error ? { code: body.error.code } : {}),
  };
}

describe('the data folder’s disk full', () => {
  it.skipIf(cannotMount)(
    `loses no accepted enquiry, refuses the rest plainly, and takes enquiries again when room is made${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
    async () => {
      const disk = smallDisk('160m');
      const dataDir = path.join(disk, 'data');
      // TRUST_PROXY=vercel: each enquiry speaks from an address of its own (x-real-ip), within the quota.
      const environment = { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded', TRUST_PROXY: 'vercel', SITE_URL: '' };
      let server: RunningServer = await startServer(inject('fixtureSite'), environment);
      cleanups.push(() => server.stop());
      const answers: { status: number; id?: string; code?: string }[] = [];
      for (let i = 0; i < 3; i += 1) answers.push(await sendEnquiry(server.url));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);

      const filler = fill(disk);
      const full: typeof answers = [];
      for (let i = 0; i < 20; i += 1) full.push(await sendEnquiry(server.url));
      answers.push(...full);
      const trips = await fetch(`${server.url}/v1/trips`);
      console.info(
        `[full disk] answers with the disk full: ${full.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`).join(', ')}; /v1/trips ${trips.status}`,
      );
      expect(trips.status).toBe(200);
      for (const answer of full) {
        // Accepted with a reference, or refused as the contract words a storage or delivery failure.
        if (answer.status >= 400)
          expect(answer.code, JSON.stringify(answer)).toMatch(
            /^(storage_error|delivery_failed|delivery_unavailable|enquiries_unavailable)$/,
          );
        else expect([201, 202]).toContain(answer.status);
      }
      expect(server.process.exitCode, server.output()).toBeNull();

      unlinkSync(filler);
      await eventually(
        async () => {
          const again = await sendEnquiry(server.url);
          answers.push(again);
          expect(again.status, 'an enquiry is taken again once there is room').toBe(201);
        },
        { withinMs: 30_000, everyMs: 250 },
      );

      // Restarted on the same data: every enquiry that got a reference is stored, and delivered.
      await server.stop().catch(() => undefined);
      server = await startServer(inject('fixtureSite'), environment);
      const accepted = answers.flatMap((a) => (a.id ? [a.id] : []));
      let stored = 0;
      for (const [i, id] of accepted.entries()) {
        const page = await fetch(`${server.url}/enquiry-sent?ref=${id}`, {
          headers: { 'x-real-ip': `203.0.113.${i % 250}` },
        });
        if (page.status === 200 && (await page.text()).includes(id)) stored += 1;
      }
      const enquiries = (...args: string[]) =>
        execFileSync(process.execPath, ['scripts/enquiries.ts', ...args], {
          cwd: inject('fixtureSite'),
          env: { ...process.env, ...environment },
          encoding: 'utf8',
        });
      const retry = enquiries('retry', '--all');
      const delivered = (id: string) => existsSync(path.join(dataDir, 'outbox', `${id}.eml`));
      // A delivery the full disk cut short (its failure could not be written either) is still
      // pending; `retry --all` leaves one that began under a minute ago, naming it, and the
      // operator delivers it by its reference.
      const skipped = accepted.filter((id) => !delivered(id));
      for (const id of skipped) enquiries('retry', id);
      const deliveredCount = accepted.filter(delivered).length;
      console.info(
        `[full disk] enquiries accepted ${accepted.length}, stored ${stored}, delivered ${deliveredCount} (${skipped.length} by reference); refused ${answers.length - accepted.length}; retry: ${retry.trim().split('\n').at(-1)}`,
      );
      for (const id of skipped) expect(retry, 'what retry --all left, it named').toContain(`${id}: skipped`);
      expect({ stored, delivered: deliveredCount }).toEqual({ stored: accepted.length, delivered: accepted.length });
    },
  );
});

/** The departures answer's status, and an enquiry sent from an address of its own. */
async function departuresStatus(url: string): Promise<number> {
  return (await fetch(`${url}/v1/departures`)).status;
}

describe('a server started on a full disk', () => {
  it.skipIf(cannotMount)(
    `says so plainly, serves the site, and opens the database by itself once there is room${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
    async () => {
      const disk = smallDisk('160m');
      const dataDir = newDataDir('data-', disk);
      const environment = { DATA_DIR: dataDir, OPERATIONAL_STORAGE: 'embedded', SITE_URL: '' };
      const filler = fill(disk);
      const server = await startServer(inject('fixtureSite'), environment);
      cleanups.push(() => server.stop());
      const pid = server.process.pid;

      expect(existsSync(hostFilePath(path.join(dataDir, 'pglite'))), 'a claim that failed leaves no host file').toBe(
        false,
      );
      expect(server.output()).toMatch(/The embedded database cannot be opened: the disk holding .+ is full/);
      expect((await fetch(`${server.url}/v1/trips`)).status).toBe(200);
      expect(await departuresStatus(server.url)).toBe(502);
      const answers: EnquiryAnswer[] = [];
      for (let i = 0; i < 3; i += 1) answers.push(await sendFrom(server.url, 34, 'full at start', 'sample-trek'));
      // Refused as the contract words storage that cannot be reached (502) or used (503): the visitor tries again later.
      for (const answer of answers) expect([502, 503]).toContain(answer.status);

      unlinkSync(filler);
      // No restart and no hand: the same server opens the database once there is room.
      await eventually(async () => expect(await departuresStatus(server.url)).toBe(200), 60_000);
      for (let i = 0; i < 3; i += 1) answers.push(await sendFrom(server.url, 34, 'room again', 'sample-trek'));
      expect(answers.slice(3).map((a) => a.status)).toEqual([201, 201, 201]);
      expect(server.process.pid).toBe(pid);
      expect(server.process.exitCode).toBeNull();
      await eventually(async () =>
        expect(server.output()).toContain('is open: departures and enquiries are answered again'),
      );

      server.process.kill('SIGTERM');
      await new Promise((resolve) => server.process.once('exit', resolve));
      const counted = await accountEmbedded(dataDir, answers);
      faultRow('disk full at start', counted, 'refused while full (502), taken again once there was room, no restart');
      expect(counted).toMatchObject({ accepted: 3, stored: 3, delivered: 3, storedUnanswered: 0 });
    },
  );

  it.skipIf(cannotMount)(
    `with too little room to make the database: says so, leaves nothing half-made, and makes it once there is room${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
    async () => {
      const disk = smallDisk('160m');
      const dataDir = mkdtempSync(path.join(disk, 'data-'));
      const filler = fill(disk);
      // Room for the host file, not for a new database (about 40 MB).
      truncateSync(filler, statSync(filler).size - 16 * 1024 * 1024);
      const server = await startServer(inject('fixtureSite'), {
        DATA_DIR: dataDir,
        OPERATIONAL_STORAGE: 'embedded',
        SITE_URL: '',
      });
      cleanups.push(() => server.stop());
      expect(existsSync(path.join(dataDir, 'pglite')), 'the half-made database is removed').toBe(false);
      expect(existsSync(path.join(dataDir, 'pglite.creating'))).toBe(false);
      expect(existsSync(hostFilePath(path.join(dataDir, 'pglite')))).toBe(false);
      expect(server.output()).toMatch(/The embedded database cannot be opened: the disk holding .+ is full/);

      unlinkSync(filler);
      await eventually(async () => expect(await departuresStatus(server.url)).toBe(200), 90_000);
      expect((await sendFrom(server.url, 35, 'made once there is room', 'sample-trek')).status).toBe(201);
    },
  );
});
