/**
 * Delivery through Resend, against a real HTTP server on 127.0.0.1 that speaks Resend's API
 * (RESEND_BASE_URL points at it), and the retry command: as a real child process, as the team
 * runs it, and for the further cases through its entry function in this process.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleBookingEnquiry, type BookingDeps } from '../../service/bookings/index.ts';
import { runEnquiriesCommand } from '../../service/bookings/command.ts';
import { mailerFromSettings } from '../../service/bookings/mailer.ts';
import { EnquiryStore } from '../../service/bookings/store.ts';
import { readSettings } from '../../service/config.ts';
import { openOperationalStorage } from '../../service/storage/connection.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { projectRoot } from '../helpers/project.ts';
import { barePage } from './page-writer.ts';
import { startFakeResend, type FakeResend } from './resend-fake.ts';
import { newDataDir } from '../helpers/embedded-template.ts';

// The command as a child process opens the embedded database itself: seconds of CPU, many more on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const valid = {
  tripSlug: 'sample-expedition',
  name: 'Tenzin Dorje',
  phone: '+977 980-1234567',
  groupSize: 2,
  preferredDeparture: 'May 2027',
};

let fake: FakeResend;
let dataDir: string;
let env: Record<string, string>;
let store: EnquiryStore;

beforeAll(async () => {
  fake = await startFakeResend();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  dataDir = newDataDir('enquiries-resend-');
  env = {
    OPERATIONAL_STORAGE: 'embedded',
    DATA_DIR: dataDir,
    RESEND_API_KEY: fake.apiKey,
    RESEND_BASE_URL: fake.url,
    BOOKING_EMAIL_TO: 'bookings@example.test',
    BOOKING_EMAIL_FROM: 'Enquiries <enquiries@example.test>',
    CONTACT_EMAIL: 'hello@example.test',
  };
  fake.mode = 'ok';
  fake.requests.length = 0;
  fake.sent.length = 0;
  store = await openStore();
});
afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function openStore(): Promise<EnquiryStore> {
  const sql = await openOperationalStorage(readSettings(env));
  return new EnquiryStore(sql!);
}

function deps(timeoutMs: number): BookingDeps {
  return {
    catalogue,
    enquiries: store,
    mailer: mailerFromSettings(readSettings(env), { contactEmail: env.CONTACT_EMAIL!, timeoutMs }),
    limiter: null,
    departures: null,
    clock: () => new Date(),
    page: barePage,
  };
}

/** Posts an enquiry; the mail timeout is short only where a test waits for it. */
async function send(body: unknown = valid, timeoutMs = 10_000): Promise<{ status: number; body: Record<string, any> }> {
  const request = new Request('http://127.0.0.1:4321/api/bookings', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const response = await handleBookingEnquiry(request, deps(timeoutMs), { clientIp: '203.0.113.9' });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/**
 * `npm run enquiries -- …` as a real child process, with the test's settings. Asynchronous, so
 * this process's fake Resend keeps answering while the command runs.
 */
function enquiriesCommand(...args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts', 'enquiries.ts'), ...args], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}

/** The same command run in this process, with the test's settings and nothing else. */
async function enquiriesInProcess(...args: string[]): Promise<{ status: number | null; output: string }> {
  let output = '';
  const write = { write: (text: string) => (output += text) };
  const status = await runEnquiriesCommand(args, { env, stdout: write, stderr: write });
  return { status, output };
}

describe('delivery through Resend', () => {
  it('success: 201 and exactly one email request, authorised and idempotent', async () => {
    const { status, body } = await send();
    expect(status).toBe(201);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/emails',
      authorization: `Bearer ${fake.apiKey}`,
      idempotencyKey: `enquiry/${body.enquiry.id}`,
    });
    expect(request?.body).toMatchObject({
      from: 'Enquiries <enquiries@example.test>',
      to: ['bookings@example.test'],
      subject: 'Enquiry: Fixture Expedition, 2 people, Tenzin Dorje',
    });
    expect(request?.body.text).toContain('Dates wanted: May 2027');
    expect(request?.body.html).toContain('<th align="left" valign="top">Phone</th><td>+977 980-1234567</td>');
    expect(await store.get(body.enquiry.id)).toMatchObject({
      deliveryState: 'delivered',
      attempts: 1,
      deliveryRef: 'resend:email-1',
    });
  });

  it("the visitor's email address, when given, is the Reply-To and a row of the email", async () => {
    const { status } = await send({ ...valid, email: 'tenzin@example.com' });
    expect(status).toBe(201);
    expect(fake.requests[0]?.body).toMatchObject({ reply_to: 'tenzin@example.com' });
    expect(fake.requests[0]?.body.text).toMatch(/Email: +tenzin@example\.com/);
  });

  it('a connection cut before any answer is tried once more at once, with the same key', async () => {
    fake.mode = 'reset-once';
    const { status, body } = await send();
    expect(status).toBe(201);
    expect(fake.requests.map((r) => r.idempotencyKey)).toEqual([
      `enquiry/${body.enquiry.id}`,
      `enquiry/${body.enquiry.id}`,
    ]);
    expect(fake.sent).toHaveLength(1);
  });

  it('Resend failing (HTTP 500): 502, the enquiry kept as failed with the reason', async () => {
    fake.mode = 'fail';
    const { status, body } = await send();
    expect(status).toBe(502);
    expect(body.error.code).toBe('delivery_failed');
    expect(body.enquiry).toEqual({ id: expect.any(String), status: 'saved', tripSlug: 'sample-expedition' });
    expect(await store.get(body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/HTTP 500.*Something broke/),
    });
  });

  it('Resend not answering: 502 once the timeout passes, the enquiry kept as failed', async () => {
    fake.mode = 'hang';
    // The fake never answers: a 502 at all means the timeout (1.5 s here, 10 s as shipped) cut the wait.
    const started = Date.now();
    const { status, body } = await send(valid, 1500);
    expect(status).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1490);
    expect(await store.get(body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      lastError: 'Resend: no answer within 1500 ms',
    });
  });
});

describe('npm run enquiries', () => {
  it('lists undelivered enquiries, then retry delivers each exactly once', async () => {
    fake.mode = 'fail';
    const first = await send();
    const second = await send({ ...valid, name: 'Pema Lhamo' });
    fake.mode = 'ok';
    const delivered = await send({ ...valid, name: 'Already Sent' });
    expect([first.status, second.status, delivered.status]).toEqual([502, 502, 201]);
    fake.requests.length = 0;
    fake.sent.length = 0;
    await store.close(); // the command opens the database itself

    const listing = await enquiriesInProcess('list', '--undelivered');
    expect(listing.status).toBe(0);
    expect(listing.output).toContain(first.body.enquiry.id);
    expect(listing.output).toContain(second.body.enquiry.id);
    expect(listing.output).not.toContain(delivered.body.enquiry.id);
    expect(listing.output).toMatch(
      /failed after 1 attempt\(s\)\] {2}open\n {4}Pema Lhamo {2}.+\n {4}last error: Resend: HTTP 500: Something broke/,
    );
    expect(listing.output).toContain('2 enquiries not delivered yet.');

    const retried = await enquiriesCommand('retry', '--all');
    expect(retried.output).toContain('2 of 2 delivered.');
    expect(retried.status).toBe(0);
    expect(fake.sent.map((r) => r.idempotencyKey).sort()).toEqual(
      [`enquiry/${first.body.enquiry.id}`, `enquiry/${second.body.enquiry.id}`].sort(),
    );
    expect(fake.requests).toHaveLength(2);

    const again = await enquiriesInProcess('retry', '--all');
    expect(again.output).toContain('Nothing to retry.');
    const one = await enquiriesInProcess('retry', first.body.enquiry.id);
    expect(one.output).toContain('already delivered, nothing sent');
    expect(fake.requests).toHaveLength(2);

    store = await openStore();
    expect(await store.get(first.body.enquiry.id)).toMatchObject({
      deliveryState: 'delivered',
      attempts: 2,
      lastError: null,
    });
    expect((await store.list({ state: 'undelivered' })).length).toBe(0);
  });

  it('an attempt whose answer was lost is not emailed twice when retried', async () => {
    // Resend accepts the email but the answer never arrives: the enquiry looks undelivered.
    fake.mode = 'hang';
    const lost = await send(valid, 1500);
    expect(lost.status).toBe(502);
    expect(fake.requests).toHaveLength(1);
    fake.mode = 'ok';
    // Here Resend did record the first request under its key (as the real one would have, had it answered).
    const [firstRequest] = fake.requests;
    const accepted = await fetch(`${fake.url}/emails`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${fake.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': firstRequest!.idempotencyKey!,
      },
      body: JSON.stringify(firstRequest!.body),
    });
    const { id: emailId } = (await accepted.json()) as { id: string };
    expect(fake.sent).toHaveLength(1);
    await store.close();

    const retried = await enquiriesInProcess('retry', lost.body.enquiry.id);
    expect(retried.status).toBe(0);
    expect(retried.output).toContain(`${lost.body.enquiry.id}: delivered (resend:${emailId})`);
    expect(fake.sent).toHaveLength(1); // the same key: Resend answered with the first email
    expect(fake.requests.at(-1)?.body).toEqual(firstRequest?.body); // the same email, byte for byte
    store = await openStore();
  });

  it('retry --all says what it skips: a pending enquiry whose delivery began under a minute ago, named', async () => {
    const context = { trip: { name: 'Sample Expedition', url: 'http://127.0.0.1:4321/x' }, callbackPromise: null };
    const input = { ...valid, email: null, message: null };
    const now = Date.now();
    const onItsWay = await store.add(input, context, new Date(now - 5_000));
    await store.beginAttempt(onItsWay.id, new Date(now - 5_000));
    const stalled = await store.add(input, context, new Date(now - 120_000));
    await store.beginAttempt(stalled.id, new Date(now - 120_000));
    await store.close();

    const help = await enquiriesInProcess('help');
    expect(help.output).toMatch(
      /retry --all +deliver every failed enquiry, and every pending one whose delivery\s+began over a minute ago/,
    );
    const retried = await enquiriesInProcess('retry', '--all');
    expect(retried.status).toBe(0);
    expect(retried.output).toContain(`${stalled.id}: delivered`);
    expect(retried.output).toMatch(
      new RegExp(`${onItsWay.id}: skipped: its delivery began [0-9]+ s ago and may still be on its way`),
    );
    expect(retried.output).toContain('1 of 1 delivered. 1 skipped: delivery under way.');
    // Nothing was sent for the one on its way: its own delivery (or the next retry) sends it, once.
    expect(fake.sent.map((r) => r.idempotencyKey)).toEqual([`enquiry/${stalled.id}`]);
    store = await openStore();
    expect(await store.get(onItsWay.id)).toMatchObject({ deliveryState: 'pending', attempts: 1 });
  });

  it('reports failures with a non-zero exit and keeps the enquiry undelivered', async () => {
    fake.mode = 'fail';
    const { body } = await send();
    await store.close();
    const retried = await enquiriesInProcess('retry', '--all');
    expect(retried.status).toBe(1);
    expect(retried.output).toContain(`${body.enquiry.id}: not delivered: Resend: HTTP 500`);
    expect((await enquiriesInProcess('retry')).status).toBe(2);
    expect((await enquiriesInProcess('retry', 'enq-unknown')).output).toContain('no such enquiry');
    store = await openStore();
    expect(await store.get(body.enquiry.id)).toMatchObject({ deliveryState: 'failed', attempts: 2 });
  });
});
