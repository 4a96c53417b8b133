/**
 * The dataset's releases as the site publishes them: the kept files of each earlier release
 * (content/peak-data/<version>/, read from the content folder the build reads) and the current
 * release's files, each at /peak-data/<version>/<file>. Read once per build.
 */
import {
  readReleaseArchive,
  datasetReleases,
  type ArchivedRelease,
  type DatasetRelease,
} from '../../domain/catalogue/releases.ts';
import { readSettings } from '../../service/config.ts';
import { getCatalogue } from './catalogue.ts';

let kept: ArchivedRelease[] | undefined;

/** The earlier releases kept in the content folder (the content check has held them to the changelog). */
export function getArchivedReleases(): ArchivedRelease[] {
  kept ??= readReleaseArchive(readSettings().CONTENT_DIR).releases;
  return kept;
}

/** Every release of the changelog with its files at their versioned addresses, newest first. */
export async function getReleases(): Promise<DatasetRelease[]> {
  return datasetReleases((await getCatalogue()).site, getArchivedReleases());
}
