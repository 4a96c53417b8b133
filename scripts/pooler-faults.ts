/**
 * `npm run pooler-faults`: enquiries through faults of a deployment on a pooled database, and what
 * became of each. Two Node hosts of the real content (as behind a load balancer) on one PostgreSQL
 * through PgBouncer in transaction mode (the direct address beside it, as Neon gives both) and
 * one Redis. In each phase a stream of enquiries is sent, each with an Idempotency-Key and a
 * message of its own, by a client that sends it again under the same key (to the other host)
 * whenever no reference came back: a timeout, a dropped connection, a 5xx without one, a 409.
 * The phases: no fault; the pooler restarted; PostgreSQL stopped at once (a crash: its commits
 * durable, as on a real server) and started again behind it; PostgreSQL frozen
 * (SIGSTOP); every enquiry sent to both hosts at once and then again; the web form sent to both
 * hosts at once. Afterwards `npm run enquiries -- retry --all` runs (through the direct address)
 * a minute after the last enquiry, and storage is read: per phase, the enquiries sent (and the requests it took), accepted (a
 * reference came back), stored, delivered and duplicated (kept more than once). Fails when an
 * accepted enquiry is not stored or not delivered, or any is duplicated.
 *
 *   npm run pooler-faults -- [--seconds 12] [--freeze-seconds 6] [--outage-seconds 4]
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openServer } from '../service/storage/postgres.ts';
import { startPostgres } from '../tests/departures/postgres.ts';
import { realContent } from '../tests/helpers/content.ts';
import { startPgBouncer } from '../tests/helpers/pgbouncer.ts';
import { buildProject, copyProject, startServer, type RunningServer } from '../tests/helpers/project.ts';
import { startRedis } from '../tests/helpers/redis.ts';
import { post } from './soak/enquiries.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '12' },
    'freeze-seconds': { type: 'string', default: '6' },
    'outage-seconds': { type: 'string', default: '4' },
  },
});
const phaseMs = Number(values.seconds) * 1000;
const freezeMs = Number(values['freeze-seconds']) * 1000;
const outageMs = Number(values['outage-seconds']) * 1000;
const siteUrl = 'http://127.0.0.1:4321';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  phase: string;
  message: string;
  requests: number;
  /** The reference that came back, if one did. */
  id?: string;
}

let addresses = 0;
/** A loopback address of its own per enquiry: the enquiry limit (5 per 10 minutes) counts per address. */
const nextAddress = () => {
  addresses += 1;
  return `127.${140 + Math.floor(addresses / 62_500)}.${Math.floor(addresses / 250) % 250}.${1 + (addresses % 250)}`;
};

const referenceOf = (text: string): string | undefined => {
  try {
    return (JSON.parse(text) as { enquiry?: { id?: string } }).enquiry?.id;
  } catch {
    return undefined;
  }
};

/** An enquiry of its own: a message no other has, as JSON. */
function enquiryOf(phase: string, n: number): { message: string; body: string } {
  const message = `${phase} #${n} ${randomUUID().slice(0, 8)}`;
  const fields = { tripSlug: 'hampta-pass-trek', name: 'Pooler Faults', phone: '+91 98765 43210', groupSize: 2 };
  return { message, body: JSON.stringify({ ...fields, message }) };
}

/**
 * One enquiry as a careful client sends it: under one key, again to the other host while no
 * reference has come back, up to `attempts` requests (the enquiry limit allows 5 per address).
 */
async function sendOnce(hosts: RunningServer[], phase: string, n: number, attempts = 5): Promise<Sent> {
  const { message, body } = enquiryOf(phase, n);
  const key = `"${randomUUID()}"`;
  const address = nextAddress();
  const sent: Sent = { phase, message, requests: 0 };
  for (let attempt = 0; attempt < attempts && !sent.id; attempt += 1) {
    if (attempt > 0) await pause(1000);
    sent.requests += 1;
    const answer = await post(hosts[(n + attempt) % hosts.length]!.url, '/api/bookings', address, body, {
      'Idempotency-Key': key,
    });
    const id = referenceOf(answer.text);
    if (id) sent.id = id;
    else if (typeof answer.status === 'number' && answer.status >= 400 && answer.status < 500 && answer.status !== 409)
      break;
  }
  return sent;
}

/** The same enquiry to every host at the same moment, then once more: all under one key. */
async function sendToAll(hosts: RunningServer[], phase: string, n: number): Promise<Sent> {
  const { message, body } = enquiryOf(phase, n);
  const headers = { 'Idempotency-Key': `"${randomUUID()}"` };
  const address = nextAddress();
  const answers = await Promise.all(hosts.map((h) => post(h.url, '/api/bookings', address, body, headers)));
  await pause(300);
  answers.push(await post(hosts[n % hosts.length]!.url, '/api/bookings', address, body, headers));
  const id = answers.map((a) => referenceOf(a.text)).find(Boolean);
  return { phase, message, requests: answers.length, ...(id ? { id } : {}) };
}

/** The web form to every host at the same moment (a double submit, a resend after a timeout). */
async function formToAll(hosts: RunningServer[], phase: string, n: number): Promise<Sent> {
  const message = `${phase} #${n} ${randomUUID().slice(0, 8)}`;
  const form = new URLSearchParams({
    tripSlug: 'hampta-pass-trek',
    name: 'Pooler Faults',
    phone: '+91 98765 43210',
    groupSize: '2',
    message,
    website: '',
  }).toString();
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const address = nextAddress();
  const answers = await Promise.all(hosts.map((h) => formPost(h.url, address, form, headers)));
  const id = answers.find((a) => a?.startsWith('/enquiry-sent?ref='))?.split('ref=')[1];
  return { phase, message, requests: answers.length, ...(id ? { id: decodeURIComponent(id) } : {}) };
}

/** A form post's Location (the enquiry's page on success), or null. */
function formPost(origin: string, address: string, body: string, headers: Record<string, string>) {
  return new Promise<string | null>((resolve) => {
    const req = request(
      `${origin}/api/bookings`,
      {
        method: 'POST',
        localAddress: address,
        timeout: 20_000,
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(typeof res.headers.location === 'string' ? res.headers.location : null));
      },
    );
    req.on('timeout', () => (req.destroy(), resolve(null)));
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/** Enquiries one after another, from `lanes` clients at once, until `done()`. */
async function stream(
  send: (n: number) => Promise<Sent>,
  lanes: number,
  done: () => boolean,
  into: Sent[],
): Promise<void> {
  let n = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (!done()) {
        into.push(await send((n += 1)));
        await pause(150);
      }
    }),
  );
}

async function main(): Promise<number> {
  console.log('[pooler-faults] building the real content; starting PostgreSQL, PgBouncer and Redis');
  const copy = copyProject({ content: realContent });
  // Durable, as a real server: a crash (the restart below) loses no commit it answered.
  const postgres = await startPostgres({ durable: true });
  const pooler = await startPgBouncer(postgres.port);
  const redis = await startRedis();
  let hosts: RunningServer[] = [];
  try {
    const build = buildProject(copy.dir, { SITE_URL: siteUrl });
    if (build.status !== 0) throw new Error(`build failed:\n${build.output.slice(-3000)}`);
    const direct = await postgres.createDatabase('pooler_faults');
    const env = {
      SITE_URL: siteUrl,
      OPERATIONAL_STORAGE: 'postgres',
      DATABASE_URL: pooler.url('pooler_faults'),
      DATABASE_URL_UNPOOLED: direct,
      REDIS_URL: redis.url,
    };
    hosts = await Promise.all([startServer(copy.dir, env), startServer(copy.dir, env)]);
    const sent: Sent[] = [];
    const phases: { name: string; run: () => Promise<void> }[] = [
      { name: 'no fault', run: async () => void (await pause(phaseMs)) },
      {
        name: 'PgBouncer restarted',
        run: async () => {
          await pause(phaseMs / 3);
          await pooler.restart();
          await pause((phaseMs * 2) / 3);
        },
      },
      {
        name: `PostgreSQL restarted (${outageMs / 1000} s down)`,
        run: async () => {
          await pause(phaseMs / 3);
          postgres.stop();
          await pause(outageMs);
          postgres.start();
          await pause((phaseMs * 2) / 3);
        },
      },
      {
        name: `PostgreSQL frozen (${freezeMs / 1000} s)`,
        run: async () => {
          await pause(phaseMs / 3);
          postgres.pause();
          await pause(freezeMs);
          postgres.resume();
          await pause((phaseMs * 2) / 3);
        },
      },
    ];
    for (const phase of phases) {
      let over = false;
      console.log(`[pooler-faults] ${phase.name}`);
      const load = stream(
        (n) => sendOnce(hosts, phase.name, n),
        3,
        () => over,
        sent,
      );
      await phase.run();
      over = true;
      await load;
    }
    for (const [name, send] of [
      ['same key to both hosts at once, then again', (n: number) => sendToAll(hosts, 'same key to both hosts', n)],
      ['web form to both hosts at once', (n: number) => formToAll(hosts, 'web form to both hosts', n)],
    ] as const) {
      console.log(`[pooler-faults] ${name}`);
      const deadline = Date.now() + phaseMs / 2;
      await stream(send, 3, () => Date.now() > deadline, sent);
    }

    // What the team's retry delivers, through the direct address as in production. It leaves an
    // enquiry still pending alone for a minute (a request may be sending it), so it runs a minute on.
    console.log("[pooler-faults] a minute on, the team's retry");
    await pause(61_000);
    const retried = spawnSync(process.execPath, [path.join(copy.dir, 'scripts', 'enquiries.ts'), 'retry', '--all'], {
      cwd: copy.dir,
      env: { ...process.env, ...env, DATA_DIR: path.join(copy.dir, '.retry-data') },
      encoding: 'utf8',
    });
    const sql = await openServer(direct);
    const { rows } = await sql.query<{ message: string; id: string; delivery_state: string }>(
      'SELECT message, id, delivery_state FROM enquiries',
    );
    await sql.close();
    const byMessage = new Map<string, { id: string; delivery_state: string }[]>();
    for (const row of rows) byMessage.set(row.message, [...(byMessage.get(row.message) ?? []), row]);

    console.log(
      `\n[pooler-faults] npm run enquiries -- retry --all: ${retried.status === 0 ? retried.stdout.trim().split('\n').at(-1) : `exit ${retried.status}: ${retried.stderr.trim()}`}`,
    );
    const header = ['enquiries', 'requests', 'accepted', 'stored', 'delivered', 'duplicated'];
    console.log(`\n| Fault | ${header.join(' | ')} |\n| --- |${header.map(() => ' ---: |').join('')}`);
    const problems: string[] = [];
    for (const name of [...new Set(sent.map((s) => s.phase))]) {
      const own = sent.filter((s) => s.phase === name);
      const accepted = own.filter((s) => s.id);
      const stored = own.filter((s) => byMessage.has(s.message));
      const delivered = stored.filter((s) => byMessage.get(s.message)!.some((r) => r.delivery_state === 'delivered'));
      const duplicated = own.reduce((sum, s) => sum + Math.max(0, (byMessage.get(s.message)?.length ?? 0) - 1), 0);
      const lost = accepted.filter((s) => !byMessage.get(s.message)?.some((r) => r.id === s.id));
      console.log(
        `| ${name} | ${[own.length, own.reduce((sum, s) => sum + s.requests, 0), accepted.length, stored.length, delivered.length, duplicated].join(' | ')} |`,
      );
      if (lost.length) problems.push(`${name}: ${lost.length} accepted enquiries not stored under their reference`);
      if (delivered.length < accepted.length)
        problems.push(`${name}: ${accepted.length - delivered.length} accepted enquiries not delivered`);
      if (duplicated) problems.push(`${name}: ${duplicated} enquiries kept twice`);
    }
    for (const host of hosts) if (host.process.exitCode !== null) problems.push('a host stopped');
    console.log(
      problems.length
        ? `\nFAIL\n- ${problems.join('\n- ')}`
        : '\nPASS: every accepted enquiry stored and delivered once',
    );
    return problems.length ? 1 : 0;
  } finally {
    await Promise.all(hosts.map((h) => h.stop()));
    await redis.remove();
    await pooler.remove();
    postgres.remove();
    copy.remove();
  }
}

process.exitCode = await main();
