/**
 * The fixture and real content folders, read by the reader the site and the live functions use
 * (domain/catalogue/content-files.ts), so unit tests can build a catalogue without running Astro.
 */
import path from 'node:path';
import { readContent } from '../../domain/catalogue/content-files.ts';
import { buildCatalogue, type Catalogue } from '../../domain/catalogue/index.ts';

export { readContent };

export const fixtureContent = path.resolve(import.meta.dirname, '..', 'fixtures', 'content');
export const realContent = path.resolve(import.meta.dirname, '..', '..', 'content');

export function loadCatalogue(dir = fixtureContent, siteUrl = 'https://example.test'): Catalogue {
  return buildCatalogue(readContent(dir), siteUrl);
}
