/**
 * The server stopped by its supervisor (SIGTERM) in the middle of a burst of enquiries, with mail
 * through a Resend stand-in that takes its time over each email, so enquiries are in flight when
 * the signal comes: on the embedded database, and on PostgreSQL with the counters in Redis. Every
 * enquiry the server had begun is answered (stored, mailed, and its visitor told so): none is
 * stored while its visitor sees a dropped connection and sends it again. The server exits with 0,
 * its storage closed (no host file left; no connection left on PostgreSQL or Redis) and its note
 * in dist/serving/ removed. A request that would outlast the grace is cut when the grace
 * (SHUTDOWN_GRACE_MS, lowered here) is over, and the server still stops.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { account, enquiryClient, sendEnquiry, type EnquiryAnswer } from '../../scripts/soak/enquiries.ts';
import { servingNoteFile } from '../../service/host/build-layout.ts';
import { hostFilePath } from '../../service/storage/host-file.ts';
import { openServer } from '../../service/storage/postgres.ts';
import { startFakeResend, type FakeResend } from '../bookings/resend-fake.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { accountEmbedded, faultRow } from '../helpers/enquiry-accounts.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { startRedis } from '../helpers/redis.ts';
import { startPostgres } from './postgres.ts';

vi.setConfig({ testTimeout: 120_000 });

let fake: FakeResend;
const cleanups: (() => unknown)[] = [];
beforeAll(async () => {
  fake = await startFakeResend();
});
afterAll(() => fake.close());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverWithSlowMail(
  graceMs: number,
  storage: Record<string, string> = { OPERATIONAL_STORAGE: 'embedded' },
): Promise<{ server: RunningServer; dataDir: string }> {
  const dataDir = newDataDir('shutdown-');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServer(inject('fixtureSite'), {
    DATA_DIR: dataDir,
    SITE_URL: '',
    RESEND_API_KEY: fake.apiKey,
    RESEND_BASE_URL: fake.url,
    BOOKING_EMAIL_TO: 'bookings@example.test',
    BOOKING_EMAIL_FROM: 'Enquiries <enquiries@example.test>',
    SHUTDOWN_GRACE_MS: String(graceMs),
    ...storage,
  });
  cleanups.push(() => server.stop());
  return { server, dataDir };
}

/** The exit of the server's process: its code, or the signal that ended it. */
function exited(server: RunningServer): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (server.process.exitCode !== null || server.process.signalCode !== null)
      resolve({ code: server.process.exitCode, signal: server.process.signalCode });
    else server.process.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

interface Stopped {
  answers: EnquiryAnswer[];
  /** The enquiries whose email the stand-in was taking its time over when the signal came. */
  inFlight: string[];
  exit: { code: number | null; signal: NodeJS.Signals | null };
  /** From the signal to the process's exit. */
  stopMs: number;
  /** The server's own account of its stop. */
  stopped: string | undefined;
}

/** Six visitors send enquiries one after another; SIGTERM comes once 20 are answered and 3 are being mailed. */
async function sigtermMidBurst(server: RunningServer, block: number): Promise<Stopped> {
  fake.mode = 'ok';
  fake.delayMs = 400;
  fake.requests.length = 0;
  const end = exited(server);
  let signalled = false;
  const answers: EnquiryAnswer[] = [];
  const burst = Array.from({ length: 6 }, () =>
    enquiryClient(
      () => server.url,
      block,
      'shutdown',
      10,
      () => signalled,
      answers,
      'sample-trek',
    ),
  );
  await eventually(async () => {
    expect(answers.filter((a) => a.id).length).toBeGreaterThanOrEqual(20);
    expect(fake.inFlight.size).toBeGreaterThanOrEqual(3);
  }, 60_000);
  const inFlight = [...fake.inFlight].map((key) => key.replace(/^enquiry\//, ''));
  const signalledAt = performance.now();
  server.process.kill('SIGTERM');
  signalled = true;
  const exit = await end;
  const stopMs = Math.round(performance.now() - signalledAt);
  await Promise.all(burst);
  const stopped = /\[server\] Stopped on SIGTERM in .*/.exec(server.output())?.[0];
  return { answers, inFlight, exit, stopMs, stopped };
}

/**
 * Prints the stop's row of the fault table, and holds that every enquiry in flight at the signal
 * was answered, each accepted one stored and mailed once, none stored unanswered, and exit 0.
 */
function expectNoneCut(fault: string, stop: Stopped, counted: Awaited<ReturnType<typeof account>>): void {
  faultRow(
    fault,
    counted,
    `${stop.inFlight.length} in flight at the signal; exit ${stop.exit.code ?? stop.exit.signal} after ${stop.stopMs} ms: ${stop.stopped}`,
  );
  const accepted = new Set(stop.answers.flatMap((a) => (a.id ? [a.id] : [])));
  expect(
    stop.inFlight.filter((id) => !accepted.has(id)),
    'enquiries in flight at the signal that got no answer',
  ).toEqual([]);
  expect(counted.accepted).toBeGreaterThan(0);
  expect(counted).toMatchObject({ stored: counted.accepted, delivered: counted.accepted, storedUnanswered: 0 });
  const mailed = fake.sent.map((s) => s.idempotencyKey);
  expect([...accepted].filter((id) => mailed.filter((key) => key === `enquiry/${id}`).length !== 1)).toEqual([]);
  expect(stop.exit).toEqual({ code: 0, signal: null });
  expect(stop.stopped).toBeDefined();
  // Every answer is a reference or a refused connection: nothing half-answered.
  for (const answer of stop.answers) expect([201, 'error']).toContain(answer.status);
}

describe('SIGTERM in the middle of a burst of enquiries', () => {
  it('on the embedded database: answers every enquiry the server had begun, and exits with 0, its storage closed', async () => {
    const { server, dataDir } = await serverWithSlowMail(15_000);
    const pid = server.process.pid!;
    const stop = await sigtermMidBurst(server, 31);
    const counted = await accountEmbedded(dataDir, stop.answers);
    expectNoneCut('SIGTERM mid-burst', stop, counted);
    expect(existsSync(hostFilePath(path.join(dataDir, 'pglite'))), 'the host file is removed').toBe(false);
    expect(existsSync(servingNoteFile(inject('fixtureSite'), pid, server.port)), 'the serving note is removed').toBe(
      false,
    );
  });

  it('on PostgreSQL with the counters in Redis: the same, and no connection is left on either', async () => {
    const postgres = await startPostgres();
    cleanups.push(() => postgres.remove());
    const redis = await startRedis();
    cleanups.push(() => redis.remove());
    const url = await postgres.createDatabase('shutdown');
    const { server } = await serverWithSlowMail(15_000, {
      OPERATIONAL_STORAGE: 'postgres',
      DATABASE_URL: url,
      REDIS_URL: redis.url,
    });
    const stop = await sigtermMidBurst(server, 36);
    const pg = await openServer(url);
    cleanups.push(() => pg.close());
    const counted = await account(pg, stop.answers);
    expectNoneCut('SIGTERM mid-burst, PostgreSQL and Redis', stop, counted);
    // The pool and the Redis client were closed by the server, not by its death.
    expect(
      (
        await pg.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rows[0]?.n,
    ).toBe(0);
    const client = createClient({ url: redis.url });
    await client.connect();
    cleanups.push(() => client.close());
    expect((await client.clientList()).length, 'Redis connections but the test’s own').toBe(1);
  });

  it('cuts what would outlast the grace and still stops with 0', async () => {
    fake.mode = 'hang';
    fake.delayMs = 0;
    fake.requests.length = 0;
    const { server } = await serverWithSlowMail(500);
    const end = exited(server);
    const pending = sendEnquiry(server.url, 32, 'hung mail', 'sample-trek');
    await eventually(async () => expect(fake.requests.length).toBeGreaterThan(0), 30_000);
    server.process.kill('SIGTERM');
    expect(await end, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/1 connection\(s\) still busy after 500 ms were cut/);
    expect((await pending).status).toBe('error');
  });
});
