/**
 * The server stopped by its supervisor (SIGTERM) in the middle of a burst of enquiries, on the
 * embedded database, with mail through a Resend stand-in that takes its time over each email, so
 * enquiries are in flight when the signal comes. Every enquiry the server had begun is answered
 * (stored, mailed, and its visitor told so): none is stored while its visitor sees a dropped
 * connection and sends it again. The server exits with 0, its storage closed (no host file left)
 * and its note in dist/serving/ removed. A request that would outlast the grace is cut when the
 * grace (SHUTDOWN_GRACE_MS, lowered here) is over, and the server still stops.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { enquiryClient, sendEnquiry, type EnquiryAnswer } from '../../scripts/soak/enquiries.ts';
import { servingNoteFile } from '../../service/host/build-layout.ts';
import { hostFilePath } from '../../service/storage/host-file.ts';
import { startFakeResend, type FakeResend } from '../bookings/resend-fake.ts';
import { newDataDir } from '../helpers/embedded-template.ts';
import { accountEmbedded, faultRow } from '../helpers/enquiry-accounts.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';

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

async function serverWithSlowMail(graceMs: number): Promise<{ server: RunningServer; dataDir: string }> {
  const dataDir = newDataDir('shutdown-');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServer(inject('fixtureSite'), {
    DATA_DIR: dataDir,
    OPERATIONAL_STORAGE: 'embedded',
    SITE_URL: '',
    RESEND_API_KEY: fake.apiKey,
    RESEND_BASE_URL: fake.url,
    BOOKING_EMAIL_TO: 'bookings@example.test',
    BOOKING_EMAIL_FROM: 'Enquiries <enquiries@example.test>',
    SHUTDOWN_GRACE_MS: String(graceMs),
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

describe('SIGTERM in the middle of a burst of enquiries', () => {
  it('answers every enquiry the server had begun, stores and mails each once, and exits with 0, its storage closed', async () => {
    fake.mode = 'ok';
    fake.delayMs = 400;
    fake.requests.length = 0;
    const { server, dataDir } = await serverWithSlowMail(15_000);
    const pid = server.process.pid!;
    const end = exited(server);
    let signalled = false;
    const answers: EnquiryAnswer[] = [];
    // Six visitors sending enquiries one after another, until the signal.
    const burst = Array.from({ length: 6 }, () =>
      enquiryClient(
        () => server.url,
        31,
        'shutdown',
        10,
        () => signalled,
        answers,
        'sample-trek',
      ),
    );
    // The signal comes while emails are being sent: those enquiries are stored and not yet answered.
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

    const accepted = new Set(answers.flatMap((a) => (a.id ? [a.id] : [])));
    const counted = await accountEmbedded(dataDir, answers);
    const mailed = new Set(fake.sent.map((s) => s.idempotencyKey));
    const stopped = /\[server\] Stopped on SIGTERM in .*/.exec(server.output())?.[0];
    faultRow(
      'SIGTERM mid-burst',
      counted,
      `${inFlight.length} in flight at the signal; exit ${exit.code ?? exit.signal} after ${stopMs} ms: ${stopped}`,
    );
    expect(
      inFlight.filter((id) => !accepted.has(id)),
      'enquiries in flight at the signal that got no answer',
    ).toEqual([]);
    expect(counted.accepted).toBeGreaterThan(0);
    expect(counted).toMatchObject({ stored: counted.accepted, delivered: counted.accepted, storedUnanswered: 0 });
    expect([...accepted].filter((id) => !mailed.has(`enquiry/${id}`))).toEqual([]);
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(stopped).toBeDefined();
    expect(existsSync(hostFilePath(path.join(dataDir, 'pglite'))), 'the host file is removed').toBe(false);
    expect(existsSync(servingNoteFile(inject('fixtureSite'), pid, server.port)), 'the serving note is removed').toBe(
      false,
    );
    // Every answer is a reference or a refused connection: nothing half-answered.
    for (const answer of answers) expect([201, 'error']).toContain(answer.status);
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
