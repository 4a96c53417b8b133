/**
 * peak-data/<version>/<file>: every release at its own address. The current version's files are
 * the ones /peak-data/<file> serves, byte for byte; an earlier release's are the files it
 * published, kept in content/peak-data/<version>/ and served as they are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRoute, GetStaticPaths } from 'astro';
import { peakDataFileList, releaseFilePath, type PeakDataFile } from '../../../../domain/catalogue/peak-data-files.ts';
import { publishedFile } from '../../../../service/agents/published-file.ts';
import { peakDataFileBody } from '../../../../service/peak-data/files.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';
import { getArchivedReleases, getReleases } from '../../../lib/releases.ts';

/** A file of the current release (built), or the kept file of an earlier one (its path on disk). */
type Props = { path: string } & ({ built: PeakDataFile } | { kept: string });

export const getStaticPaths = (async () => {
  const { version } = (await getCatalogue()).site.dataset;
  return [
    ...peakDataFileList.map((file) => ({
      params: { version, file: file.name },
      props: { path: releaseFilePath(version, file.name), built: file } satisfies Props,
    })),
    ...getArchivedReleases().flatMap((release) =>
      release.files.map((file) => ({
        params: { version: release.version, file: file.name },
        props: {
          path: releaseFilePath(release.version, file.name),
          kept: path.join(release.dir, file.name),
        } satisfies Props,
      })),
    ),
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute<Props> = async ({ props }) =>
  publishedFile(
    props.path,
    'built' in props
      ? peakDataFileBody(props.built, await getCatalogue(), await getReleases())
      : new Uint8Array(readFileSync(props.kept)),
  );
