/**
 * The words of the peak dataset page (licence, attribution, derived-field rules), shared by the
 * HTML page and its Markdown twin, and the twin itself.
 */
import { contestedLines } from '../../domain/catalogue/contested.ts';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { publisherOf } from '../../domain/catalogue/references.ts';
import { firstSixThousanderGrades, normalLeaveWindowDays } from '../../domain/catalogue/peaks.ts';
import type { PeakRecord } from '../../domain/schemas/peak.ts';
import { formatDate, formatMetres } from '../../domain/format.ts';
import { peakDataDir, peakDataFileList, peakDataFiles } from '../../domain/catalogue/peak-data-files.ts';
import { peakElsewhere } from '../../domain/catalogue/peak-links.ts';

export const peakDataPath = peakDataDir;
export const peakDownloadPath = peakDataFiles.json.path;

export function peakDatasetCopy(catalogue: Catalogue) {
  const { dataset } = catalogue.site;
  const grades = [...firstSixThousanderGrades];
  return {
    title: `${dataset.name}: ${catalogue.peaks.length} climbing peaks, open data`,
    intro: `An open dataset of ${catalogue.peaks.length} climbing peaks in the Indian Himalaya: altitude, Alpine grade, Indian Mountaineering Foundation (IMF) royalty band, open-peak status, best months and typical duration, each checked against the sources listed with it. Free to reuse under CC-BY-4.0.`,
    version: `Version ${dataset.version}, last updated ${formatDate(dataset.lastUpdated)}. What changed in each version: ${peakDataFiles.changelog.name}.`,
    formats: `Every file is built from the same records as the JSON and the API, on every update. GeoJSON puts each summit at [longitude, latitude] (WGS84) and leaves the geometry empty where no source gives the position; the CSV holds one row per peak of the single-valued fields (lists such as references and contested accounts are in the JSON and GeoJSON); the Data Package describes every file and the CSV's columns; CITATION.cff says how to cite version ${dataset.version}.`,
    licence: `Licence: Creative Commons Attribution 4.0 (CC-BY-4.0). You may copy, adapt and reuse the data, including commercially, if you credit it with this attribution and a link back:`,
    attribution: catalogue.attribution,
    firstSixThousander: `A "first 6,000 m candidate" is a peak on the open-peak list, at least 6,000 m high, graded ${grades[0]} to ${grades.at(-1)}, and climbable in ${normalLeaveWindowDays} days or fewer from the road-head town.`,
    royalty: `The IMF royalty shown is for a team of two, in US dollars, from the IMF schedule in force since ${formatDate(catalogue.royalty.effectiveFrom)} (source: ${catalogue.royalty.source.title}). Peaks with no band are on the IMF's trekking-peak list and pay its flat fee of US$${catalogue.royalty.trekkingPeak.partyOf2} for two (source: ${catalogue.royalty.trekkingPeak.source.title}).`,
  };
}

export function firstAscentText(peak: PeakRecord): string {
  if (peak.firstAscent === 'unknown') return 'Not recorded in our sources';
  const { year, party, earliestDocumented } = peak.firstAscent;
  const text = [year, party].filter(Boolean).join(', ');
  if (!text) return 'Not recorded in our sources';
  return earliestDocumented ? `Not recorded; the earliest documented ascent is ${text}` : text;
}

export function coordinatesText(peak: PeakRecord): string {
  if (!peak.coordinates) return "Not published: no source we could read gives the summit's own position to 0.001°";
  const { latitude, longitude } = peak.coordinates;
  const source = peak.coordinatesSource ? ` (${publisherOf(peak.coordinatesSource)})` : '';
  return `${latitude.toFixed(3)}° N, ${longitude.toFixed(3)}° E${source}`;
}

/** The IMF fee in words: the band and its fee, or the flat fee of a trekking peak. */
export function feeText(peak: PeakRecord): string {
  const fee =
    peak.imfRoyaltyUsdPartyOf2 != null
      ? `US$${peak.imfRoyaltyUsdPartyOf2.toLocaleString('en-IN')} for two`
      : 'fee not published';
  return peak.feeCategory === 'trekking-peak' ? `IMF trekking peak, flat fee ${fee}` : `${peak.imfBand} m band, ${fee}`;
}

const yesNo = (value: boolean | undefined) => (value ? 'yes' : 'no');
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function peakDataMarkdown(catalogue: Catalogue): string {
  const copy = peakDatasetCopy(catalogue);
  const peaks = [...catalogue.peaks].sort((a, b) => b.altitudeM - a.altitudeM);
  const lines = [
    `# ${copy.title}`,
    '',
    copy.intro,
    '',
    copy.version,
    '',
    `- Download (JSON, every field with coordinates, first ascent and references): ${catalogue.siteUrl}${peakDownloadPath}`,
    ...peakDataFileList
      .filter((f) => f.path !== peakDownloadPath)
      .map((f) => `- ${f.format}: ${catalogue.siteUrl}${f.path} (${f.description})`),
    `- API: ${catalogue.siteUrl}/v1/peaks (filters: openPeak, firstSixThousanderCandidate, operatorOperated, maxAltitudeM)`,
    '',
    '## Licence and attribution',
    '',
    copy.licence,
    '',
    `> ${copy.attribution}`,
    '',
    `Licence text: ${catalogue.site.dataset.licenseUrl}`,
    '',
    '## The peaks, highest first',
    '',
    '| Peak | Altitude | Range | Region | Grade | Open peak | IMF band | Royalty (USD, party of 2) | Best months | Typical days | First 6,000 m candidate | Our expedition |',
    '| --- | ---: | --- | --- | --- | --- | --- | ---: | --- | ---: | --- | --- |',
    ...peaks.map(
      (p) =>
        `| ${cell(p.name)} | ${formatMetres(p.altitudeM)} | ${cell(p.range)} | ${cell(p.region)} | ${p.technicalGrade} | ${yesNo(p.openPeak)} | ${p.imfBand ?? 'trekking peak'} | ${p.imfRoyaltyUsdPartyOf2 ?? '–'} | ${p.bestMonths?.join(', ') ?? '–'} | ${p.typicalDurationDays ?? '–'} | ${yesNo(p.firstSixThousanderCandidate)} | ${p.operatorUrl ? `[yes](${p.operatorUrl}.md)` : 'no'} |`,
    ),
    '',
    '## How the derived columns are worked out',
    '',
    `- ${copy.firstSixThousander}`,
    `- ${copy.royalty}`,
    '',
    '## Each peak',
    '',
  ];
  for (const p of [...catalogue.peaks].sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push(`### ${p.name}`, '');
    if (p.alternateNames?.length) lines.push(`Also known as ${p.alternateNames.join(', ')}.`, '');
    lines.push(p.summary, '');
    lines.push(`- Altitude: ${formatMetres(p.altitudeM)}; ${p.range}, ${p.region}, ${p.country}`);
    lines.push(`- Coordinates: ${coordinatesText(p)}`);
    lines.push(`- First ascent: ${firstAscentText(p)}`);
    for (const line of contestedLines(p)) lines.push(`- ${line}`);
    const elsewhere = peakElsewhere(p);
    if (elsewhere.length) lines.push(`- Elsewhere: ${elsewhere.map((l) => `[${l.label}](${l.url})`).join('; ')}`);
    lines.push(`- IMF fee: ${feeText(p)}`);
    lines.push(`- Last verified: ${formatDate(p.lastVerified)}`);
    lines.push(`- Sources: ${p.references.map((r) => `[${r.title}](${r.url})`).join('; ')}`, '');
  }
  return lines.join('\n');
}
