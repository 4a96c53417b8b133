/**
 * Pages, Markdown twins and /v1 through the local server against the bytes baseline: the same
 * status, headers and body sent from memory by a bare node:http server.
 */
import { fixed, ratio, type Section } from './report.ts';
import { interleaved, type LoadSettings, type Medians } from './load.ts';
import type { ChildServer } from './processes.ts';
import path from 'node:path';
import { startChildServer } from './processes.ts';
import { record, startBytesServer } from './site.ts';

export interface Target {
  label: string;
  path: string;
  /** The least share of the baseline's throughput this path should reach, when it has a goal. */
  goal?: number;
  /** Also measure handleV1 alone on this path (scripts/bench/api-server.ts). */
  handler?: boolean;
}

export function comparisonRow(label: string, server: Medians, baseline: Medians, bytes: number): string[] {
  const flagged = server.non2xx + server.errors > 0 ? ` (${server.non2xx} non-2xx, ${server.errors} errors)` : '';
  return [
    `${label}${flagged}`,
    fixed(bytes),
    fixed(server.rps),
    fixed(baseline.rps),
    ratio(server.rps / baseline.rps),
    `${fixed(server.p50)} / ${fixed(baseline.p50)}`,
    `${fixed(server.p99)} / ${fixed(baseline.p99)}`,
  ];
}

export const comparisonHeader = ['Path', 'Body bytes', 'Server req/s', 'Baseline req/s', 'Ratio', 'p50 ms server / baseline', 'p99 ms server / baseline'];

export async function httpSection(server: ChildServer, targets: Target[], load: LoadSettings): Promise<Section> {
  const recordings = [];
  for (const t of targets) {
    const r = await record(server.url, t.path);
    if (r.status !== 200) throw new Error(`${t.path} answered ${r.status}; the benchmark needs a 200`);
    recordings.push(r);
  }
  const baseline = await startBytesServer(recordings);
  const handlerOnly = await startChildServer(path.join(import.meta.dirname, 'api-server.ts'), { cwd: import.meta.dirname, readyPath: '/v1/' });
  const rows: string[][] = [];
  const goals: { label: string; value: number; goal: number }[] = [];
  const handlerRatios: string[] = [];
  try {
    for (const [i, t] of targets.entries()) {
      const contenders = [
        { label: 'server', url: `${server.url}${t.path}` },
        { label: 'baseline', url: `${baseline.url}${t.path}` },
      ];
      if (t.handler) contenders.push({ label: 'handler', url: `${handlerOnly.url}${t.path}` });
      const [s, b, h] = await interleaved(contenders, load);
      const bytes = Buffer.from(recordings[i]!.bodyBase64, 'base64').length;
      rows.push(comparisonRow(`${t.label}: \`${t.path}\``, s!, b!, bytes));
      if (h) {
        rows.push(comparisonRow(`… handleV1 alone in a bare node:http server`, h, b!, bytes));
        handlerRatios.push(`\`${t.path}\` ${ratio(h.rps / b!.rps)}`);
      }
      if (t.goal !== undefined) goals.push({ label: t.path, value: s!.rps / b!.rps, goal: t.goal });
      console.log(`[bench] ${t.path}: ${fixed(s!.rps)} vs ${fixed(b!.rps)} req/s${h ? `, handler alone ${fixed(h.rps)}` : ''}`);
    }
  } finally {
    await baseline.stop();
    await handlerOnly.stop();
  }
  return {
    title: 'Pages, Markdown twins and /v1 against the bytes baseline',
    about:
      'Each path through `server.ts` (the request rules, then a built file or a live function of `api/`, routed by the same table as on Vercel) started by `scripts/bench/serve.ts`, against `scripts/bench/bytes-server.ts` answering the same status, headers and body from memory. Uncompressed (autocannon sends only `Host`). Ratio = server throughput / baseline throughput. Below some /v1 rows, `handleV1` alone in a bare node:http server (`scripts/bench/api-server.ts`, the same catalogue) splits the gap between the handler\'s own work and its host.',
    header: comparisonHeader,
    rows,
    findings: [
      ...goals.map((g) => `\`${g.label}\`: ${ratio(g.value)} of the baseline, goal ${ratio(g.goal)}: ${g.value >= g.goal ? 'met' : `not met, ${ratio(g.goal - g.value)} short`}.`),
      ...(handlerRatios.length ? [`handleV1 alone, without the request rules and the host (\`scripts/bench/api-server.ts\`), reaches ${handlerRatios.join(', ')} of the baseline.`] : []),
    ],
  };
}
