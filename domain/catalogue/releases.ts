/**
 * Every released version of the peak dataset, downloadable at its own address. The current
 * version's files are built from the records on every build; each earlier release's files are
 * kept as that release published them, byte for byte, in `content/peak-data/<version>/`
 * (written by `npm run peak-data -- archive` before the version is raised). The build serves
 * them at `/peak-data/<version>/<file>`, the Data Package and the changelog list them, and the
 * content check holds them to the changelog and every id they publish to a record or to the
 * removed ids (content-check.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compareVersions, type SiteSettings } from '../schemas/site.ts';
import { peakDataFileList, releaseFilePath, type PeakDataFile } from './peak-data-files.ts';

/** The folder of the content directory that keeps earlier releases, one folder per version. */
export const releaseArchiveFolder = 'peak-data';

const versionFolder = /^\d+\.\d+\.\d+$/;

/** One file an earlier release published. */
interface ArchivedFile {
  name: string;
  bytes: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

/** An earlier release as kept: its files and the peak ids its peaks.json published. */
export interface ArchivedRelease {
  version: string;
  /** The folder, as an editor names it (relative to the working directory when inside it). */
  folder: string;
  /** Its full path on disk. */
  dir: string;
  files: ArchivedFile[];
  /** The ids of its peaks.json; undefined when that file is missing or unreadable (a problem says why). */
  peakIds: string[] | undefined;
}

export interface ReleaseArchive {
  releases: ArchivedRelease[];
  /** What is wrong with the kept files, one line each starting with the file or folder. */
  problems: string[];
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
}

/** The ids and version a kept peaks.json publishes, or the reason it cannot be read. */
function readPeaksFile(file: string, version: string): { ids: string[] } | { problem: string } {
  const where = displayPath(file);
  if (!existsSync(file)) return { problem: `${where}: the file is missing; every release published its peaks.json` };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { problem: `${where}: the JSON cannot be read: ${(error as Error).message}` };
  }
  const record = data as { version?: unknown; peaks?: unknown };
  if (record.version !== version)
    return {
      problem: `${where}: says version ${JSON.stringify(record.version)}, but its folder is ${version}; keep each release's files in the folder of its version`,
    };
  if (!Array.isArray(record.peaks) || record.peaks.some((p) => typeof (p as { id?: unknown }).id !== 'string'))
    return { problem: `${where}: has no list of peaks with ids` };
  return { ids: record.peaks.map((p) => (p as { id: string }).id) };
}

/** The earlier releases kept under `contentDir/peak-data/`, oldest first, with what is wrong with them. */
export function readReleaseArchive(contentDir: string): ReleaseArchive {
  const root = path.join(contentDir, releaseArchiveFolder);
  if (!existsSync(root)) return { releases: [], problems: [] };
  const problems: string[] = [];
  const releases: ArchivedRelease[] = [];
  for (const name of readdirSync(root).sort(compareVersionNames)) {
    const dir = path.join(root, name);
    if (!statSync(dir).isDirectory()) {
      problems.push(`${displayPath(dir)}: only folders named after a release (2.1.0) belong in ${displayPath(root)}`);
      continue;
    }
    if (!versionFolder.test(name)) {
      problems.push(`${displayPath(dir)}: the folder must be named after the release it keeps, for example 2.1.0`);
      continue;
    }
    const files = readdirSync(dir)
      .sort(inPublishedOrder)
      .filter((file) => statSync(path.join(dir, file)).isFile())
      .map((file): ArchivedFile => {
        const bytes = readFileSync(path.join(dir, file));
        return { name: file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      });
    const peaks = readPeaksFile(path.join(dir, 'peaks.json'), name);
    if ('problem' in peaks) problems.push(peaks.problem);
    releases.push({
      version: name,
      folder: displayPath(dir),
      dir,
      files,
      peakIds: 'ids' in peaks ? peaks.ids : undefined,
    });
  }
  return { releases, problems };
}

/** Files in the order the dataset offers them (the data first, then what describes it); others after, by name. */
function inPublishedOrder(a: string, b: string): number {
  const rank = (name: string) => {
    const i = peakDataFileList.findIndex((file) => file.name === name);
    return i === -1 ? peakDataFileList.length : i;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

function compareVersionNames(a: string, b: string): number {
  return versionFolder.test(a) && versionFolder.test(b) ? compareVersions(a, b) : a.localeCompare(b);
}

/** One file of a release at its versioned address. */
interface ReleaseFile {
  name: string;
  /** Path under the site origin: /peak-data/<version>/<name>. */
  path: string;
  mediaType: string;
  /** Size and digest of a kept file; the current release's files are built, so unknown until then. */
  bytes?: number;
  sha256?: string;
}

/** A release of the dataset as the files and pages list it, newest first. */
export interface DatasetRelease {
  version: string;
  date: string;
  current: boolean;
  files: ReleaseFile[];
}

/** The media type a published dataset file is served with, by its name (the current list's type). */
function datasetFileByName(name: string): PeakDataFile | undefined {
  return peakDataFileList.find((file) => file.name === name);
}

const fallbackMediaType = 'application/octet-stream';

/**
 * Every release of the changelog with its files at their versioned addresses: the current one's
 * built files, each earlier one's kept files (none when its folder is missing, which the content
 * check reports).
 */
export function datasetReleases(site: SiteSettings, archive: readonly ArchivedRelease[]): DatasetRelease[] {
  const { dataset } = site;
  return dataset.changelog.map((release) => {
    const current = release.version === dataset.version;
    const kept = archive.find((r) => r.version === release.version);
    const files: ReleaseFile[] = current
      ? peakDataFileList.map((file) => ({
          name: file.name,
          path: releaseFilePath(release.version, file.name),
          mediaType: file.mediaType,
        }))
      : (kept?.files ?? []).map((file) => ({
          name: file.name,
          path: releaseFilePath(release.version, file.name),
          mediaType: datasetFileByName(file.name)?.mediaType ?? fallbackMediaType,
          bytes: file.bytes,
          sha256: file.sha256,
        }));
    return { version: release.version, date: release.date, current, files };
  });
}

/**
 * What keeps the releases and their ids from holding together, each line starting with the file
 * at fault: an earlier release without its kept files, kept files of no release (or of the
 * current one, which the build writes), an id an earlier release published that neither a record
 * nor the removed ids account for, and a removed id that does not match the kept files.
 */
export function releaseProblems(
  site: SiteSettings,
  archive: readonly ArchivedRelease[],
  peakIds: readonly string[],
  siteFile: string,
  contentDir: string,
): string[] {
  const { dataset } = site;
  const problems: string[] = [];
  const field = (name: string) => `${siteFile}: field "dataset.${name}"`;
  const keptFolder = (version: string) => displayPath(path.join(contentDir, releaseArchiveFolder, version));
  const byVersion = new Map(archive.map((r) => [r.version, r]));
  const listed = new Set(dataset.changelog.map((r) => r.version));

  dataset.changelog.forEach((release, i) => {
    if (release.version === dataset.version || byVersion.has(release.version)) return;
    problems.push(
      `${field(`changelog.${i}`)}: release ${release.version} has no files kept in ${keptFolder(release.version)}/; every release stays downloadable at ${releaseFilePath(release.version, '')}, so keep its files there (npm run peak-data -- archive, while the content is still that release; see docs/editing-content.md)`,
    );
  });
  for (const release of archive) {
    if (release.version === dataset.version)
      problems.push(
        `${release.folder}: keeps files of ${release.version}, the current version, whose files every build writes from the records; raise the version (a new release at the top of the changelog) or remove the folder`,
      );
    else if (!listed.has(release.version))
      problems.push(
        `${release.folder}: keeps release ${release.version}, which the changelog in ${siteFile} does not list`,
      );
  }

  const current = new Set(peakIds);
  const removed = dataset.removedIds ?? [];
  const accounted = new Set([...current, ...removed.map((r) => r.id)]);
  for (const release of archive) {
    for (const id of release.peakIds ?? []) {
      if (accounted.has(id)) continue;
      accounted.add(id);
      problems.push(
        `${field('removedIds')}: "${id}" was published in ${release.version} (${release.folder}/peaks.json) but no record has it now; ids stay, so restore content/peaks/${id}.yaml or list the id here with the release that removed it, the last that had it, why, and where it went (movedTo or addedInstead)`,
      );
    }
  }

  const order = [...dataset.changelog].reverse().map((r) => r.version);
  const seen = new Set<string>();
  removed.forEach((entry, i) => {
    const at = (name: string) => field(`removedIds.${i}.${name}`);
    if (seen.has(entry.id)) problems.push(`${at('id')}: "${entry.id}" is listed twice`);
    seen.add(entry.id);
    if (current.has(entry.id))
      problems.push(
        `${at('id')}: "${entry.id}" is the id of content/peaks/${entry.id}.yaml; a removed id belongs to no record`,
      );
    const last = byVersion.get(entry.lastIn);
    if (!listed.has(entry.lastIn) || entry.lastIn === dataset.version)
      problems.push(`${at('lastIn')}: ${entry.lastIn} is not an earlier release of the changelog`);
    else if (last?.peakIds && !last.peakIds.includes(entry.id))
      problems.push(`${at('lastIn')}: ${last.folder}/peaks.json has no record "${entry.id}"`);
    const later = archive.find(
      (r) => compareVersions(r.version, entry.lastIn) > 0 && (r.peakIds ?? []).includes(entry.id),
    );
    if (later)
      problems.push(
        `${at('lastIn')}: ${later.version} (${later.folder}/peaks.json) still has "${entry.id}"; lastIn is the last release that has it`,
      );
    const next = order[order.indexOf(entry.lastIn) + 1];
    if (order.includes(entry.lastIn) && next !== undefined && entry.removedIn !== next)
      problems.push(
        `${at('removedIn')}: the release after ${entry.lastIn} is ${next}, the first without "${entry.id}"`,
      );
    for (const name of ['movedTo', 'addedInstead'] as const) {
      const target = entry[name];
      if (target !== undefined && !current.has(target))
        problems.push(`${at(name)}: "${target}" is not the id of a record (there is no content/peaks/${target}.yaml)`);
    }
  });
  return problems;
}
