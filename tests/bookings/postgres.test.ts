/**
 * Enquiries on a real PostgreSQL server (OPERATIONAL_STORAGE=postgres): kept when mail fails,
 * retried exactly once by the command, and a clear 502 while the database is down.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleBookingEnquiry, type BookingDeps } from '../../service/bookings/index.ts';
import { mailerFromSettings } from '../../service/bookings/mailer.ts';
import { EnquiryStore } from '../../service/bookings/store.ts';
import { readSettings } from '../../service/config.ts';
import { openOperationalStorage } from '../../service/storage/connection.ts';
import { startPostgres, type TestPostgres } from '../departures/postgres.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { projectRoot } from '../helpers/project.ts';
import { barePage } from './page-writer.ts';
import { startFakeResend, type FakeResend } from './resend-fake.ts';

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };

let postgres: TestPostgres;
let fake: FakeResend;
let env: Record<string, string>;
let store: EnquiryStore;

beforeAll(async () => {
  [postgres, fake] = await Promise.all([startPostgres(), startFakeResend()]);
  env = {
    OPERATIONAL_STORAGE: 'postgres',
    DATABASE_URL: await postgres.createDatabase('enquiries'),
    RESEND_API_KEY: fake.apiKey,
    RESEND_BASE_URL: fake.url,
    BOOKING_EMAIL_TO: 'bookings@example.test',
    BOOKING_EMAIL_FROM: 'enquiries@example.test',
    CONTACT_EMAIL: 'hello@example.test',
  };
  store = new EnquiryStore((await openOperationalStorage(readSettings(env)))!);
}, 180_000);
afterAll(async () => {
  await store?.close();
  await fake?.close();
  postgres?.remove();
});

async function send(): Promise<{ status: number; body: Record<string, any> }> {
  const deps: BookingDeps = {
    catalogue,
    enquiries: store,
    mailer: mailerFromSettings(readSettings(env), { contactEmail: 'hello@example.test' }),
    limiter: null,
    departures: null,
    clock: () => new Date(),
    page: barePage,
  };
  const request = new Request('http://127.0.0.1:4321/api/bookings', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(valid),
  });
  const response = await handleBookingEnquiry(request, deps, { clientIp: '203.0.113.20' });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

function enquiriesCommand(...args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts', 'enquiries.ts'), ...args], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}

describe('enquiries on PostgreSQL', () => {
  it('kept as failed when Resend fails, then delivered exactly once by the command', async () => {
    fake.mode = 'fail';
    const failed = await send();
    expect(failed.status).toBe(502);
    expect(await store.get(failed.body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      attempts: 1,
      createdAt: expect.any(Date),
    });

    fake.mode = 'ok';
    fake.requests.length = 0;
    const retried = await enquiriesCommand('retry', '--all');
    expect(retried.output).toContain('1 of 1 delivered.');
    expect(retried.status).toBe(0);
    expect((await enquiriesCommand('retry', '--all')).output).toContain('Nothing to retry.');
    expect(fake.requests.map((r) => r.idempotencyKey)).toEqual([`enquiry/${failed.body.enquiry.id}`]);
    expect(await store.get(failed.body.enquiry.id)).toMatchObject({
      deliveryState: 'delivered',
      attempts: 2,
      deliveredAt: expect.any(Date),
    });
  });

  it('database down: 502 storage_error within seconds and nothing emailed; back up: 201', async () => {
    fake.requests.length = 0;
    postgres.stop();
    try {
      const started = Date.now();
      const down = await send();
      expect(down.status).toBe(502);
      expect(down.body.error.code).toBe('storage_error');
      expect(down.body.error.message).toContain(catalogue.site.contactEmail);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(fake.requests).toEqual([]);
    } finally {
      postgres.start();
    }
    expect((await send()).status).toBe(201);
    expect(fake.requests).toHaveLength(1);
  });
});
