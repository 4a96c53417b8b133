/**
 * Several instances as one site: two Node hosts (server.ts, each a process of its own, as behind
 * a load balancer) on one PostgreSQL through PgBouncer in transaction mode and one Redis, asked
 * in turn. The /v1 quota is one quota across them; a departure the operator changes with the
 * tool (through the direct address) shows on both within the contract's minute; a restarted
 * pooler is survived within seconds; an enquiry sent again (the same Idempotency-Key, the same
 * form) to either host, or to both at once, is kept once.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { apiRateLimit } from '../../service/rules/policy.ts';
import { openServer } from '../../service/storage/postgres.ts';
import { runCommand } from '../departures/cli.ts';
import { postgresRoutes } from '../departures/postgres.ts';
import { eventually } from '../helpers/eventually.ts';
import { clientAt } from '../helpers/loopback-client.ts';
import { startServer, type RunningServer } from '../helpers/project.ts';
import { startRedis, type RunningRedis } from '../helpers/redis.ts';

vi.setConfig({ testTimeout: 120_000 });

const routes = postgresRoutes();
let site: string;
let redis: RunningRedis;
let hosts: RunningServer[];
/** The operator's tool: the pooled address as the site has it, and the direct one beside it, which the tool takes. */
let toolEnv: Record<string, string>;
let direct: string;

beforeAll(async () => {
  site = inject('fixtureSite');
  redis = await startRedis();
  const { postgres, pooler } = await routes.servers();
  direct = await postgres.createDatabase('several_instances');
  const env = {
    OPERATIONAL_STORAGE: 'postgres',
    DATABASE_URL: pooler.url('several_instances'),
    DATABASE_URL_UNPOOLED: direct,
    REDIS_URL: redis.url,
    // The shortest a read of departures is kept: a change shows at once, well within the minute.
    DEPARTURES_FRESH_MS: '0',
  };
  toolEnv = env;
  const added = await runCommand(site, ['add', '--trip', 'sample-trek', '--start', '2031-06-10', '--seats', '12'], env);
  if (added.code !== 0) throw new Error(added.stderr);
  hosts = await Promise.all([startServer(site, env), startServer(site, env)]);
}, 180_000);
afterAll(async () => {
  await Promise.all((hosts ?? []).map((h) => h.stop()));
  await redis?.remove();
  await routes.remove();
});

/** The two hosts in turn: the nth request goes to host n mod 2. */
const host = (n: number) => hosts[n % 2]!;

async function enquiriesNamed(name: string): Promise<string[]> {
  const sql = await openServer(direct);
  try {
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM enquiries WHERE name = $1', [name]);
    return rows.map((r) => r.id);
  } finally {
    await sql.close();
  }
}

describe('two Node hosts on one pooled PostgreSQL and one Redis', () => {
  it(`count one /v1 quota: ${apiRateLimit.requests + 10} requests from one address, in turn, get ${apiRateLimit.requests} answers and 10 × 429`, async () => {
    const client = clientAt();
    const statuses: number[] = [];
    for (let n = 0; n < apiRateLimit.requests + 10; n += 1)
      statuses.push((await client(`${host(n).url}/v1/trips?type=trek`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(apiRateLimit.requests);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(apiRateLimit.requests)).toEqual(Array(10).fill(429));
  });

  it("show a departure changed with the operator's tool on both, within the contract's minute", async () => {
    const seatsOn = async (h: RunningServer) =>
      (await (await clientAt()(`${h.url}/v1/departures?trip=sample-trek`)).json()).data[0].seatsLeft;
    expect(await Promise.all(hosts.map(seatsOn))).toEqual([12, 12]);
    const changed = await runCommand(site, ['update', 'sample-trek-2031-06-10', '--seats-left', '3'], toolEnv);
    expect(changed.code, changed.stderr).toBe(0);
    await eventually(async () => expect(await Promise.all(hosts.map(seatsOn))).toEqual([3, 3]), 60_000);
  });

  it('keep an enquiry sent again to the other host, or to both at once, once', async () => {
    const enquiry = (name: string) =>
      JSON.stringify({ tripSlug: 'sample-trek', name, phone: '+91 98765 43210', groupSize: 2 });
    const post = (n: number, body: string, headers: Record<string, string>) =>
      clientAt()(`${host(n).url}/api/bookings`, { method: 'POST', headers, body });
    const json = (key: string) => ({ 'Content-Type': 'application/json', 'Idempotency-Key': `"${key}"` });

    // A retry to the other host, after the first answer was lost.
    const first = await post(0, enquiry('Retried Elsewhere'), json('several-hosts-retry'));
    const retried = await post(1, enquiry('Retried Elsewhere'), json('several-hosts-retry'));
    expect([first.status, retried.status]).toEqual([201, 201]);
    const id = (await first.json()).enquiry.id;
    expect((await retried.json()).enquiry.id).toBe(id);
    expect(await enquiriesNamed('Retried Elsewhere')).toEqual([id]);

    // The same request to both hosts at the same moment, several times over.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, n) => post(n, enquiry('Sent At Once'), json('several-hosts-race'))),
    );
    const kept = await enquiriesNamed('Sent At Once');
    expect(kept).toHaveLength(1);
    for (const answer of racing) {
      expect([201, 409]).toContain(answer.status);
      if (answer.status === 201) expect((await answer.json()).enquiry.id).toBe(kept[0]);
    }

    // A plain form sent twice, once to each host at once (a double submit, a resend after a timeout).
    const form = new URLSearchParams({
      tripSlug: 'sample-trek',
      name: 'Form Sent Twice',
      phone: '+91 98765 43210',
      groupSize: '2',
      website: '',
    }).toString();
    const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const answers = await Promise.all([post(0, form, formHeaders), post(1, form, formHeaders)]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    expect(answers[1].headers.get('Location')).toBe(answers[0].headers.get('Location'));
    expect(await enquiriesNamed('Form Sent Twice')).toHaveLength(1);
  });

  it('survive a restart of the pooler within seconds: departures and enquiries answer again on both', async () => {
    const { pooler } = await routes.servers();
    await pooler.restart();
    let n = 0;
    await eventually(async () => {
      n += 1;
      // A filter nothing has read yet, so storage is asked.
      for (const h of hosts)
        expect((await clientAt()(`${h.url}/v1/departures?trip=after-restart-${n}`)).status).toBe(200);
    }, 10_000);
    const sent = await clientAt()(`${host(1).url}/api/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': '"after-pooler-restart"' },
      body: JSON.stringify({ tripSlug: 'sample-trek', name: 'After Restart', phone: '+91 98765 43210', groupSize: 2 }),
    });
    expect(sent.status).toBe(201);
    for (const h of hosts) expect(h.process.exitCode).toBeNull();
  });
});
