/**
 * Every rule the build enforces on the editors' content, run without building a page: each
 * file read and checked against its schema (the acclimatisation, walking-figure and other rules
 * of domain/schemas), each photograph's file, then the records read together (links between
 * trips and peaks, the agreement of their facts, independent sources, distinct summits), and the
 * dataset's releases (the files each earlier release published, kept in content/peak-data, and
 * every id they published still answered by a record or a removed id).
 * `npm run check` prints the result and the build stops on it (src/content.config.ts), both
 * through this one function, so the two cannot disagree; both list every problem at once.
 */
import { catalogueProblems, type CatalogueSource } from './index.ts';
import { readReleaseArchive, releaseProblems } from './releases.ts';
import {
  photoFileProblems,
  readContentFiles,
  validateContent,
  type ContentFiles,
  type ParsedYaml,
} from './content-files.ts';

export interface ContentCheck {
  files: ContentFiles;
  /** The validated records, when every file passed its own checks. */
  source: CatalogueSource | undefined;
  /** One line a problem, starting with the file, grouped by file in the order the files were read. */
  problems: string[];
}

export interface ContentCheckOptions {
  /** The origin being built: its pages, like the canonical site's, are the operator's own. */
  siteUrl: string;
  /** Whether photographs' files must exist: the site needs them, the live functions never open them. */
  photoFiles: boolean;
  /** YAML parsed by an earlier run, by text (the build keeps it; the result is the same without it). */
  parsed?: ParsedYaml;
}

const fileOf = (problem: string) => problem.slice(0, problem.indexOf(': '));

export function checkContent(dir: string, { siteUrl, photoFiles, parsed }: ContentCheckOptions): ContentCheck {
  const files = readContentFiles(dir, parsed);
  const records = validateContent(files);
  const problems = [...files.problems, ...records.problems];
  if (photoFiles) problems.push(...files.trips.flatMap(photoFileProblems));
  const { site, royalty } = records;
  const linked = site && royalty ? { trips: records.trips, peaks: records.peaks, site, royalty } : undefined;
  const archive = readReleaseArchive(dir);
  problems.push(...archive.problems);
  if (site && files.site)
    problems.push(...releaseProblems(site, archive.releases, files.present.peaks, files.site.filePath, dir));
  if (linked) {
    problems.push(...catalogueProblems(linked, siteUrl, files.present));
  } else if (files.site && files.royalty) {
    problems.push(
      `${(site ? files.royalty : files.site).filePath}: the links between trips and peaks cannot be checked until this file's problems are fixed`,
    );
  }
  // A stable sort by file keeps each file's problems together, in the order they were found.
  const order = new Map<string, number>();
  for (const problem of problems) if (!order.has(fileOf(problem))) order.set(fileOf(problem), order.size);
  const grouped = [...problems].sort((a, b) => order.get(fileOf(a))! - order.get(fileOf(b))!);
  return { files, source: grouped.length === 0 ? linked : undefined, problems: grouped };
}
