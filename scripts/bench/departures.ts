/**
 * /v1/departures read live from embedded PGlite and from a real PostgreSQL server (a temp
 * cluster on loopback, as the departures tests start one), holding the same departures, against
 * the bytes baseline of the same answer.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgres } from '../../tests/departures/postgres.ts';
import { interleaved, type LoadSettings } from './load.ts';
import type { ChildServer } from './processes.ts';
import { fixed, ratio, type Section } from './report.ts';
import { record, startBenchServer, startBytesServer } from './site.ts';

function departuresCli(siteDir: string, args: string[], env: Record<string, string>): void {
  const result = spawnSync(process.execPath, [path.join(siteDir, 'scripts', 'departures.ts'), ...args], {
    cwd: siteDir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0)
    throw new Error(`departures ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`);
}

export async function departuresSection(embedded: ChildServer, siteDir: string, load: LoadSettings): Promise<Section> {
  const pathname = '/v1/departures';
  const postgres = await startPostgres();
  const scratch = mkdtempSync(path.join(tmpdir(), 'bench-departures-'));
  let server: ChildServer | undefined;
  let baseline: ChildServer | undefined;
  try {
    const databaseUrl = await postgres.createDatabase('bench_departures');
    // The same departures on both storages: the embedded store's seed, exported and imported.
    const csv = path.join(scratch, 'departures.csv');
    departuresCli(siteDir, ['export', csv], { OPERATIONAL_STORAGE: 'embedded', DATA_DIR: embedded.dataDir });
    departuresCli(siteDir, ['import', csv], { OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: databaseUrl });
    server = await startBenchServer(siteDir, { OPERATIONAL_STORAGE: 'postgres', DATABASE_URL: databaseUrl });
    const fromEmbedded = await record(embedded.url, pathname);
    const fromPostgres = await record(server.url, pathname);
    if (fromEmbedded.status !== 200 || fromPostgres.status !== 200)
      throw new Error(`departures answered ${fromEmbedded.status} (embedded) and ${fromPostgres.status} (postgres)`);
    const same = fromEmbedded.bodyBase64 === fromPostgres.bodyBase64;
    baseline = await startBytesServer([fromEmbedded]);
    const [e, p, b] = await interleaved(
      [
        { label: 'embedded', url: `${embedded.url}${pathname}`, pids: [embedded.process.pid!] },
        { label: 'postgres', url: `${server.url}${pathname}`, pids: [server.process.pid!] },
        { label: 'baseline', url: `${baseline.url}${pathname}`, pids: [baseline.process.pid!] },
      ],
      load,
    );
    const bytes = Buffer.from(fromEmbedded.bodyBase64, 'base64').length;
    const count = (JSON.parse(Buffer.from(fromEmbedded.bodyBase64, 'base64').toString()) as { count: number }).count;
    const row = (label: string, m: typeof e) => [
      `${label}${m!.non2xx + m!.errors > 0 ? ` (${m!.non2xx} non-2xx, ${m!.errors} errors)` : ''}`,
      fixed(m!.rps),
      ratio(m!.rps / b!.rps),
      fixed(m!.cpuUs),
      fixed(m!.p50, 2),
      fixed(m!.p99, 2),
    ];
    return {
      title: 'Live departures: embedded PGlite and PostgreSQL',
      about: `\`GET ${pathname}\` (${count} departures, ${fixed(bytes)} bytes) through \`server.ts\` on each storage, and the bytes baseline of the same answer. PostgreSQL ${postgres.port ? 'runs as a temp cluster on loopback (fsync off), ' : ''}filled by exporting the embedded store's departures and importing them with the departures CLI.`,
      header: ['Storage', 'req/s', 'Ratio to baseline', 'Server CPU µs per request', 'p50 ms', 'p99 ms'],
      rows: [
        row('Embedded (PGlite, in the server process)', e),
        row('PostgreSQL server (node-postgres pool)', p),
        row('Baseline: the same bytes from memory', b),
      ],
      findings: [
        `PostgreSQL / embedded throughput: ${ratio(p!.rps / e!.rps)}; p99 ${fixed(p!.p99, 2)} ms against ${fixed(e!.p99, 2)} ms.`,
        same
          ? 'Both storages answered byte-identical bodies.'
          : 'The two storages answered different bodies (see the departures export); the figures still compare the same query.',
      ],
    };
  } finally {
    await baseline?.stop();
    await server?.stop();
    postgres.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}
