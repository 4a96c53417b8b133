/**
 * llms-full.txt: the whole catalogue as one Markdown text, for agents that would rather read
 * once than follow links: every trip in full (its Markdown twin, nested), the peaks table and
 * the API guide.
 */
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { tripMarkdown } from '../markdown/trip.ts';
import type { PeakRecord } from '../../domain/schemas/peak.ts';
import { apiGuideMarkdown } from '../guidance/api-guide.ts';
import { agentGuidance, mustNotList } from '../guidance/agent-guidance.ts';

/**
 * A trip's Markdown twin, two heading levels down, with its live departures section replaced
 * by where to read them: a file built once per deploy cannot hold dates that sell by the minute.
 */
function tripSection(catalogue: Catalogue, page: TripPage): string {
  const lines = tripMarkdown(catalogue, page, { state: 'live', departures: [] }).split('\n');
  const start = lines.indexOf('## Departures');
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  if (start < 0 || end < 0)
    throw new Error(
      'service/markdown/trip.ts no longer has a "## Departures" section followed by another; update tripSection in service/agents/llms-full.ts',
    );
  const pointer = `Not in this file, because dates and seats change by the minute: read ${catalogue.siteUrl}/v1/departures?trip=${page.trip.slug} or ${page.trip.markdownUrl}.`;
  lines.splice(start + 1, end - start - 1, '', pointer, '');
  return lines.map((line) => (/^#{1,4} /.test(line) ? `##${line}` : line)).join('\n');
}

/** Table cells cannot hold a pipe or a line break. */
function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value).replace(/\|/g, '/').replace(/\s+/g, ' ');
}

function peakRow(p: PeakRecord): string {
  return `| ${[
    p.operatorUrl ? `[${cell(p.name)}](${p.operatorUrl})` : cell(p.name),
    `\`${p.id}\``,
    p.altitudeM,
    cell(p.range),
    cell(p.region),
    p.technicalGrade,
    cell(p.openPeak),
    cell(p.imfBand ?? 'none'),
    cell(p.imfRoyaltyUsdPartyOf2),
    cell(p.bestMonths?.join(', ')),
    cell(p.typicalDurationDays),
    cell(p.firstSixThousanderCandidate),
  ].join(' | ')} |`;
}

function peaksTableMarkdown(catalogue: Catalogue): string {
  return [
    '| Peak | id | Altitude (m) | Range | Region | Grade | Open peak | Royalty band | Royalty, USD, party of 2 | Best months | Typical days | First 6,000 m candidate |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...catalogue.peaks.map(peakRow),
  ].join('\n');
}

export function buildLlmsFull(catalogue: Catalogue): string {
  const site = catalogue.siteUrl;
  const { dataset } = catalogue.site;
  const guidance = agentGuidance(catalogue);
  return [
    `# ${catalogue.site.operatorName}: the full catalogue`,
    '',
    `> ${catalogue.site.description.trim()}`,
    '',
    `Built from the same content as ${site} and its API. ${guidance.authoritativeSource.rule} ` +
      `Live departures are not in this text: read ${site}/v1/departures or ${site}/departures.md.`,
    '',
    '## Using this catalogue',
    '',
    ...mustNotList(guidance),
    `- Full instructions: ${guidance.instructionsUrl}`,
    '',
    `## Trips (${catalogue.trips.length})`,
    '',
    ...catalogue.trips.map((page) => tripSection(catalogue, page)),
    `## Peaks (${catalogue.peaks.length})`,
    '',
    `${dataset.name} v${dataset.version}, last updated ${dataset.lastUpdated}, ${dataset.license}. Full records with coordinates, first ascents and references: ${site}/peak-data/peaks.json. ` +
      `Royalty figures follow "${catalogue.royalty.source.title}" (${catalogue.royalty.source.url}), effective ${catalogue.royalty.effectiveFrom}.`,
    '',
    `Attribution (required when you use the data): ${catalogue.attribution}`,
    '',
    peaksTableMarkdown(catalogue),
    '',
    apiGuideMarkdown(catalogue, 2),
  ].join('\n');
}
