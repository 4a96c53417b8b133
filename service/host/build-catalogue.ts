/**
 * The catalogue of a build, read from the editors' files it was made of with the same reader,
 * schemas and cross-checks as the site (domain/catalogue/content-files.ts), for the site's
 * settings: what the Node host's functions answer from, and what a published build is checked
 * against before it is published.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { readContent } from '../../domain/catalogue/content-files.ts';
import type { Settings } from '../config.ts';
import { catalogueOf } from '../functions/site-build.ts';

export function catalogueFromContent(dir: string, settings: Pick<Settings, 'siteUrl' | 'CONTACT_EMAIL'>): Catalogue {
  return catalogueOf(readContent(dir), settings);
}
