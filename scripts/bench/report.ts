/** The benchmark report: sections of Markdown tables, written to docs/benchmarks.md. */
import os from 'node:os';

export interface Section {
  title: string;
  /** What was measured and how, in a sentence or two. */
  about: string;
  header: string[];
  rows: string[][];
  /** Findings computed from the figures (targets met or not, linearity). */
  findings: string[];
}

/** A Markdown table; the first column names the row, the others are figures (right-aligned). */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

export const fixed = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';
export const ratio = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export interface MachineFacts {
  date: string;
  cpus: string;
  node: string;
  memory: string;
  loadAtStart: string;
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown'}`,
    node: process.version,
    memory: mib(os.totalmem()),
    loadAtStart: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', '),
  };
}

/** Hand-written notes between these markers survive a rewrite of the report. */
const notesStart = '<!-- notes: written by hand, kept by npm run bench -->';
const notesEnd = '<!-- end of notes -->';

export function keptNotes(previous: string | null): string {
  if (!previous) return `${notesStart}\n${notesEnd}`;
  const start = previous.indexOf(notesStart);
  const end = previous.indexOf(notesEnd);
  return start >= 0 && end > start ? previous.slice(start, end + notesEnd.length) : `${notesStart}\n${notesEnd}`;
}

export function renderReport(
  facts: MachineFacts,
  settings: string,
  sections: Section[],
  notes: string,
  loadAtEnd: string,
): string {
  const parts = [
    '# Benchmarks',
    '',
    "Produced by `npm run bench` (scripts/bench/). Every throughput and latency figure is measured in the same run, on the same machine, as its baseline, with the raw medians beside the ratio. Servers run as child processes on 127.0.0.1 and the bench process loads them over keep-alive connections from many loopback client addresses (`tests/helpers/loopback-load.ts`; a connection moves to a fresh 127.x.y.z every 100 requests, so per-client quotas are counted and never reached); candidate and baseline take turns of a quarter of a second within each round (the order rotating), and the medians of the rounds are reported, a ratio as the median of the rounds' own ratios, because the machine is shared; in the pages-and-/v1 sections each round has processes of its own, started afresh. Each server's own CPU time per request is read from /proc beside its throughput; it is the headline figure, as the ratio to the same bytes sent by a bare node:http server. Every server runs pinned to one core and the load generator to the other (`taskset`).",
    '',
    `- Date: ${facts.date}`,
    `- Machine: ${facts.cpus}, ${facts.memory} memory, load average ${facts.loadAtStart} at start and ${loadAtEnd} at end`,
    `- Node ${facts.node}; ${settings}`,
    '',
  ];
  for (const s of sections) {
    parts.push(`## ${s.title}`, '', s.about, '', table(s.header, s.rows), '');
    if (s.findings.length) parts.push(...s.findings.map((f) => `- ${f}`), '');
  }
  parts.push('## Notes', '', notes, '');
  return parts.join('\n');
}
