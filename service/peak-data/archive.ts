/**
 * `npm run peak-data -- archive` (scripts/peak-data.ts): keeps the files of the dataset's current
 * release in content/peak-data/<version>/, exactly as the build writes them for the canonical site,
 * so that release stays downloadable at /peak-data/<version>/ once the version is raised. Run it
 * before raising the version: it keeps what the content says now. The content check then asks for
 * the new release at the top of the changelog, and from then on holds every id the kept files
 * publish to a record or to the removed ids (domain/catalogue/releases.ts).
 *
 * The command takes its arguments, environment and output streams as given, so the script passes
 * the process's own and tests run it in theirs. Exit codes: 0 kept, 1 refused (nothing written).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkContent } from '../../domain/catalogue/content-check.ts';
import { contentProblemsMessage } from '../../domain/catalogue/content-files.ts';
import { buildCatalogue } from '../../domain/catalogue/index.ts';
import { peakDataFileList } from '../../domain/catalogue/peak-data-files.ts';
import { datasetReleases, readReleaseArchive, releaseArchiveFolder } from '../../domain/catalogue/releases.ts';
import { readSettings, SettingsError } from '../config.ts';
import type { CommandIo } from '../departures/command.ts';
import { peakDataFileBody } from './files.ts';

const usage = `The peak dataset's releases.

Usage: npm run peak-data -- archive

  archive   Keeps the files of the current release (the version in content/settings/site.yaml) in
            content/peak-data/<version>/, as the site publishes them, so the release stays
            downloadable at /peak-data/<version>/<file>. Run it before raising the version, then
            add the new release at the top of the changelog; npm run check says what is missing.
  help      This text.

CONTENT_DIR names another content folder. Exit codes: 0 kept, 1 refused (nothing written).`;

export async function runPeakDataCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [command] = args;
  if (command === undefined || command === 'help' || command === '--help') {
    io.stdout.write(`${usage}\n`);
    return command === undefined ? 1 : 0;
  }
  if (command !== 'archive' || args.length > 1) {
    io.stderr.write(`${command} is not a command of npm run peak-data (or it takes no arguments).\n\n${usage}\n`);
    return 1;
  }
  let settings: { dir: string; siteUrl: string };
  try {
    const { CONTENT_DIR, siteUrl } = readSettings(io.env);
    settings = { dir: path.resolve(CONTENT_DIR), siteUrl };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return 1;
  }
  return archiveCurrentRelease(settings, io);
}

function archiveCurrentRelease({ dir, siteUrl }: { dir: string; siteUrl: string }, io: CommandIo): number {
  // The release the site publishes: content the check passes (photographs aside, which the
  // dataset does not carry). The check also refuses kept files of the current version, so a
  // release is never kept twice.
  const check = checkContent(dir, { siteUrl, photoFiles: false });
  if (!check.source) {
    io.stderr.write(`${contentProblemsMessage(check.problems)}\n\nNothing was kept: fix these first.\n`);
    return 1;
  }
  const { site } = check.source;
  const { version } = site.dataset;
  const target = path.join(dir, releaseArchiveFolder, version);
  // The files as the canonical site publishes them: every address in them is that site's.
  const catalogue = buildCatalogue(check.source, site.siteUrl);
  const releases = datasetReleases(site, readReleaseArchive(dir).releases);
  mkdirSync(target, { recursive: true });
  for (const file of peakDataFileList)
    writeFileSync(path.join(target, file.name), peakDataFileBody(file, catalogue, releases));
  io.stdout.write(
    `Kept release ${version} in ${target} (${peakDataFileList.length} files). Now raise dataset.version in content/settings/site.yaml and add the new release at the top of its changelog; npm run check says what is still missing.\n`,
  );
  return 0;
}
