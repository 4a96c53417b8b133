/**
 * The same storage on a real PostgreSQL server (OPERATIONAL_STORAGE=postgres), directly and
 * through PgBouncer in transaction mode: the flows, and the races that only a real server shows,
 * where one code or one jti must win exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServer } from '../../service/storage/postgres.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { postgresRoutes, type PostgresRoute } from '../departures/postgres.ts';
import { siteUrl, startHarness, type Harness } from './harness.ts';
import { startIdentityProvider, type IdentityProvider } from './identity-provider.ts';

const postgres = postgresRoutes();
let idp: IdentityProvider;

beforeAll(async () => {
  idp = await startIdentityProvider(siteUrl);
});
afterAll(async () => {
  await idp?.stop();
  await postgres.remove();
});

const idJag = 'urn:ietf:params:oauth:token-type:id-jag';

describe.each(postgres.routes)('agent registration on $name', (route: PostgresRoute) => {
  let sql: Sql;
  let h: Harness;
  beforeAll(async () => {
    sql = await openServer(await route.newDatabase('agent_auth'));
    h = await startHarness({ trusted: [idp], sql });
  });
  afterAll(() => sql?.close());

  it('registers with an ID-JAG, exchanges, and is revoked by a security event', async () => {
    const registration = await (
      await h.register({ type: 'identity_assertion', assertion_type: idJag, assertion: await idp.idJag() })
    ).json();
    expect(registration.status).toBe('active');
    expect((await h.exchange(registration.identity_assertion)).status).toBe(200);
    expect((await h.event(await idp.securityEvent())).status).toBe(202);
    expect(await (await h.exchange(registration.identity_assertion)).json()).toMatchObject({
      error: 'invalid_grant',
      reason: 'registration_revoked',
    });
  });

  it('accepts a jti once even when the same ID-JAG arrives many times at once', async () => {
    const assertion = await idp.idJag({ claims: { sub: 'racer' } });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => h.register({ type: 'identity_assertion', assertion_type: idJag, assertion })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
  });

  it('confirms a code once even when it is typed many times at once, then hands the token out once', async () => {
    const registration = await (await h.register({ type: 'anonymous' })).json();
    expect(await (await h.poll(registration.claim_token)).json()).toMatchObject({ error: 'authorization_pending' });
    expect(await (await h.poll(registration.claim_token)).json()).toMatchObject({ error: 'slow_down', interval: 10 });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => h.confirm(registration.claim.user_code)));
    expect(outcomes.filter((o) => o.kind === 'confirmed')).toHaveLength(1);
    h.advance(10);
    const polls = await Promise.all(Array.from({ length: 4 }, () => h.poll(registration.claim_token)));
    expect(polls.filter((r) => r.status === 200)).toHaveLength(1);
  });
});
