/**
 * Enquiries on a real PostgreSQL server (OPERATIONAL_STORAGE=postgres), directly and through
 * PgBouncer in transaction mode: kept when mail fails, retried exactly once by the command, a
 * clear 502 while the database is down, each taken once under its key (the suite of
 * idempotency-suite.ts), where requests sent at once really race, and the team's command (the
 * suite of command-suite.ts). The command runs through its entry function in this process; the
 * command line itself is tests/bookings/delivery.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleBookingEnquiry, type BookingDeps } from '../../service/bookings/index.ts';
import { mailerFromSettings } from '../../service/bookings/mailer.ts';
import { EnquiryStore } from '../../service/bookings/store.ts';
import { readSettings } from '../../service/config.ts';
import { openOperationalStorage } from '../../service/storage/connection.ts';
import { openServer } from '../../service/storage/postgres.ts';
import { postgresRoutes, type PostgresRoute } from '../departures/postgres.ts';
import { loadCatalogue } from '../helpers/content.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/project.ts';
import { enquiries, enquiriesCommandSuite } from './command-suite.ts';
import { enquiriesTakenOnce } from './idempotency-suite.ts';
import { barePage } from './page-writer.ts';
import { startFakeResend, type FakeResend } from './resend-fake.ts';

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:4321');
const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 2 };

// Durable, as a real server: a test stops it as a crash and expects what it committed (the
// schema, stored enquiries) to be there when it is back.
const postgres = postgresRoutes({ durable: true });
let fake: FakeResend;

beforeAll(async () => {
  fake = await startFakeResend();
}, 180_000);
afterAll(async () => {
  await fake?.close();
  await postgres.remove();
});

async function send(
  store: EnquiryStore,
  env: Record<string, string>,
): Promise<{ status: number; body: Record<string, any> }> {
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

describe.each(postgres.routes)('enquiries on $name', (route: PostgresRoute) => {
  let env: Record<string, string>;
  let store: EnquiryStore;

  beforeAll(async () => {
    env = {
      OPERATIONAL_STORAGE: 'postgres',
      DATABASE_URL: await route.newDatabase('enquiries'),
      RESEND_API_KEY: fake.apiKey,
      RESEND_BASE_URL: fake.url,
      BOOKING_EMAIL_TO: 'bookings@example.test',
      BOOKING_EMAIL_FROM: 'enquiries@example.test',
      CONTACT_EMAIL: 'hello@example.test',
    };
    store = new EnquiryStore((await openOperationalStorage(readSettings(env)))!);
  }, 180_000);
  afterAll(() => store?.close());

  it('kept as failed when Resend fails, then delivered exactly once by the command', async () => {
    fake.mode = 'fail';
    const failed = await send(store, env);
    expect(failed.status).toBe(502);
    expect(await store.get(failed.body.enquiry.id)).toMatchObject({
      deliveryState: 'failed',
      attempts: 1,
      createdAt: expect.any(Date),
    });

    fake.mode = 'ok';
    fake.requests.length = 0;
    const retried = await enquiries(env, 'retry', '--all');
    expect(retried.out).toContain('1 of 1 delivered.');
    expect(retried.code).toBe(0);
    expect((await enquiries(env, 'retry', '--all')).out).toContain('Nothing to retry.');
    expect(fake.requests.map((r) => r.idempotencyKey)).toEqual([`enquiry/${failed.body.enquiry.id}`]);
    expect(await store.get(failed.body.enquiry.id)).toMatchObject({
      deliveryState: 'delivered',
      attempts: 2,
      deliveredAt: expect.any(Date),
    });
  });

  it('database down: 502 storage_error while it is down and nothing emailed; back up: 201', async () => {
    const { postgres: server } = await postgres.servers();
    fake.requests.length = 0;
    server.stop();
    try {
      // Answered while the server is still down: nothing waits for it to come back.
      const down = await send(store, env);
      expect(down.status).toBe(502);
      expect(down.body.error.code).toBe('storage_error');
      expect(down.body.error.message).toContain(catalogue.site.contactEmail);
      expect(fake.requests).toEqual([]);
    } finally {
      server.start();
    }
    await eventually(async () => expect((await send(store, env)).status).toBe(201), 20_000);
    expect(fake.requests).toHaveLength(1);
  });

  enquiriesCommandSuite(route.name, () => env);
});

describe('npm run enquiries beside a pooled address', () => {
  it.each(['DATABASE_URL_UNPOOLED', 'POSTGRES_URL_NON_POOLING'])(
    'lists and retries through the direct address in %s, the pooled one out of reach',
    async (name) => {
      const direct = await postgres.routes[0]!.newDatabase('enquiries_direct');
      const env = {
        OPERATIONAL_STORAGE: 'postgres',
        DATABASE_URL: direct,
        RESEND_API_KEY: fake.apiKey,
        RESEND_BASE_URL: fake.url,
        BOOKING_EMAIL_TO: 'bookings@example.test',
        BOOKING_EMAIL_FROM: 'enquiries@example.test',
        CONTACT_EMAIL: 'hello@example.test',
      };
      const store = new EnquiryStore((await openOperationalStorage(readSettings(env)))!);
      fake.mode = 'fail';
      const saved = await send(store, env);
      await store.close();
      fake.mode = 'ok';
      const tools = {
        ...env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`,
        [name]: direct,
      };
      const listed = await enquiries(tools, 'list');
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(saved.body.enquiry.id);
      expect((await enquiries(tools, 'retry', '--all')).out).toContain('1 of 1 delivered.');
    },
  );
});

for (const route of postgres.routes)
  enquiriesTakenOnce(route.name, async () => openServer(await route.newDatabase('enquiries_once')));
