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
import {
  peakDataDir,
  peakDataFileList,
  peakDataFiles,
  releaseFilePath,
} from '../../domain/catalogue/peak-data-files.ts';
import { peakElsewhere } from '../../domain/catalogue/peak-links.ts';
import type { DatasetRelease } from '../../domain/catalogue/releases.ts';
import { publishedRemovedIds } from '../../domain/catalogue/removed-ids.ts';
import { duckdbQuery, gdalCommands, pandasCode } from '../../service/peak-data/reading.ts';

export const peakDataPath = peakDataDir;
export const peakDownloadPath = peakDataFiles.json.path;

export function peakDatasetCopy(catalogue: Catalogue) {
  const { dataset } = catalogue.site;
  const grades = [...firstSixThousanderGrades];
  return {
    title: `${dataset.name}: ${catalogue.peaks.length} climbing peaks, open data`,
    intro: `An open dataset of ${catalogue.peaks.length} climbing peaks in the Indian Himalaya: altitude, Alpine grade, Indian Mountaineering Foundation (IMF) royalty band, open-peak status, best months and typical duration, each checked against the sources listed with it. Free to reuse under CC-BY-4.0.`,
    version: `Version ${dataset.version}, last updated ${formatDate(dataset.lastUpdated)}. What changed in each version: ${peakDataFiles.changelog.name}.`,
    formats: `Every file is built from the same records as the JSON and the API, on every update. GeoJSON puts each summit at [longitude, latitude] (WGS84) and leaves the geometry empty where no source gives the position; the CSV holds one row per peak of the single-valued fields (lists such as references and contested accounts are in the JSON and GeoJSON), with true or false in every yes-or-no column, and its .csvt gives GDAL the column types; the Data Package describes every file, the CSV's columns and every release; CITATION.cff says how to cite version ${dataset.version}.`,
    reading: `Spreadsheets open peaks.csv as it is. Data tools guess each column's type from its cells, so a column with gaps or empty in every row can come out as text or as decimals; the Table Schema in ${peakDataFiles.dataPackage.name} gives every type, and these read it with them.`,
    versions: `Every release stays downloadable at its own address, ${peakDataDir}/<version>/<file>: the current one's files are the ones above, and each earlier release's are the files it published, byte for byte. Cite the version you used.`,
    removed:
      'Ids stay. An id an earlier release published that no record has now says where it went: in the files (removedIds in the JSON and GeoJSON), from the API (410 peak_removed, or 301 to the id the same summit has now) and here.',
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
  if (!peak.coordinates) return `Not published. ${peak.coordinatesUnknownReason ?? ''}`.trim();
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

/** The three ways of reading peaks.csv with its types, for the page and the twin. */
export function readingGuide(catalogue: Catalogue) {
  const csvUrl = `${catalogue.siteUrl}${peakDataFiles.csv.path}`;
  return [
    {
      tool: 'pandas',
      language: 'python',
      note: 'A dtype for every column: integers with gaps stay integers (Int64), text stays text, yes-or-no columns are booleans.',
      code: pandasCode(csvUrl),
    },
    {
      tool: 'GDAL and QGIS',
      language: 'sh',
      note: `GDAL reads ${peakDataFiles.csvTypes.name} from beside the CSV, over HTTP too, and QGIS reads through GDAL; the second command makes a point layer of the summits with a position.`,
      code: gdalCommands(csvUrl),
    },
    {
      tool: 'DuckDB',
      language: 'sql',
      note: 'A type for every column, so a column that is empty in every row (geonamesId) is still read as its type.',
      code: duckdbQuery(csvUrl),
    },
  ];
}

/** "2.1.0 (26 November 2026): peaks.json, peaks.csv …" as links, per release, newest first. */
export function releaseLines(catalogue: Catalogue, releases: readonly DatasetRelease[]) {
  return releases.map((release) => ({
    label: `${release.version} (${formatDate(release.date)})${release.current ? ', the current version' : ''}`,
    files: release.files.map((file) => ({ name: file.name, url: `${catalogue.siteUrl}${file.path}`, path: file.path })),
  }));
}

/** "frey-peak (Frey Peak): removed in 2.1.0. Why. Where it went." and its last record, for each id that went. */
export function removedIdLines(catalogue: Catalogue): { text: string; lastRecord: { label: string; url: string } }[] {
  const byId = new Map(catalogue.peaks.map((p) => [p.id, p.name]));
  return publishedRemovedIds(catalogue.site).map((r) => {
    const where = r.movedTo
      ? ` It is ${byId.get(r.movedTo)} (${r.movedTo}) now.`
      : r.addedInstead
        ? ` ${byId.get(r.addedInstead)} (${r.addedInstead}) was added in its place.`
        : '';
    return {
      text: `${r.id} (${r.name}): removed in ${r.removedIn}. ${r.reason}${where}`,
      lastRecord: {
        label: `Its last record, in ${r.lastIn}`,
        url: `${catalogue.siteUrl}${releaseFilePath(r.lastIn, peakDataFiles.json.name)}`,
      },
    };
  });
}

const yesNo = (value: boolean | undefined) => (value ? 'yes' : 'no');
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function peakDataMarkdown(catalogue: Catalogue, releases: readonly DatasetRelease[]): string {
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
    '## Reading the CSV with its types',
    '',
    copy.reading,
    '',
    ...readingGuide(catalogue).flatMap((guide) => [
      `### ${guide.tool}`,
      '',
      guide.note,
      '',
      `\`\`\`${guide.language}`,
      guide.code,
      '```',
      '',
    ]),
    '## Every version',
    '',
    copy.versions,
    '',
    ...releaseLines(catalogue, releases).map(
      (release) => `- ${release.label}: ${release.files.map((f) => `[${f.name}](${f.url})`).join(', ')}`,
    ),
    '',
    ...(catalogue.site.dataset.removedIds?.length
      ? [
          '## Ids that went',
          '',
          copy.removed,
          '',
          ...removedIdLines(catalogue).map(
            (line) => `- ${line.text} [${line.lastRecord.label}](${line.lastRecord.url})`,
          ),
          '',
        ]
      : []),
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
