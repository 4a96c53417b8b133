/**
 * The fixture and real content folders, read by the reader the site and the live functions use
 * (domain/catalogue/content-files.ts), so unit tests can build a catalogue without running Astro.
 */
import path from 'node:path';
import { readContent } from '../../domain/catalogue/content-files.ts';
import { buildCatalogue, type Catalogue } from '../../domain/catalogue/index.ts';
import { datasetReleases, readReleaseArchive, type DatasetRelease } from '../../domain/catalogue/releases.ts';

export { readContent };

export const fixtureContent = path.resolve(import.meta.dirname, '..', 'fixtures', 'content');
export const realContent = path.resolve(import.meta.dirname, '..', '..', 'content');

export function loadCatalogue(dir = fixtureContent, siteUrl = 'https://example.test'): Catalogue {
  return buildCatalogue(readContent(dir), siteUrl);
}

/** The dataset's releases of a content folder, as the build lists them: its kept files and the current version's. */
export function loadReleases(catalogue: Catalogue, dir = fixtureContent): DatasetRelease[] {
  return datasetReleases(catalogue.site, readReleaseArchive(dir).releases);
}

/** The fixture's site settings with its dataset raised to 2.2.0, a release after the fixture's 2.1.0. */
export function withNextFixtureRelease(settings: string): string {
  return settings
    .replace('  version: 2.1.0\n  lastUpdated: 2026-05-15', '  version: 2.2.0\n  lastUpdated: 2026-06-01')
    .replace(
      '  changelog:\n',
      '  changelog:\n    - version: 2.2.0\n      date: 2026-06-01\n      fixed:\n        - "A fixture release after 2.1.0."\n',
    );
}
