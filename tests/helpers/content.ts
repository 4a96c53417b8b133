/**
 * Reads a content folder the way the site's collections do (same files, same schemas), so unit
 * tests can build a catalogue without running Astro.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { buildCatalogue, type Catalogue, type CatalogueSource } from '../../domain/catalogue/index.ts';
import { peakContent, royaltySchedule } from '../../domain/schemas/peak.ts';
import { siteSettings } from '../../domain/schemas/site.ts';
import { tripContent } from '../../domain/schemas/trip.ts';

export const fixtureContent = path.resolve(import.meta.dirname, '..', 'fixtures', 'content');
export const realContent = path.resolve(import.meta.dirname, '..', '..', 'content');

function parseFrontmatter(text: string): { data: unknown; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error('no frontmatter');
  return { data: load(match[1] ?? ''), body: match[2] ?? '' };
}

export function readContent(dir: string): CatalogueSource {
  const list = (sub: string, ext: string) =>
    readdirSync(path.join(dir, sub))
      .filter((f) => f.endsWith(ext))
      .sort();
  const trips = list('trips', '.md').map((f) => {
    const file = path.join(dir, 'trips', f);
    const { data, body } = parseFrontmatter(readFileSync(file, 'utf8'));
    return { id: f.replace(/\.md$/, ''), data: tripContent.parse(data), body, filePath: path.relative(process.cwd(), file) };
  });
  const peaks = list('peaks', '.yaml').map((f) => {
    const file = path.join(dir, 'peaks', f);
    return { id: f.replace(/\.yaml$/, ''), data: peakContent.parse(load(readFileSync(file, 'utf8'))), filePath: path.relative(process.cwd(), file) };
  });
  return {
    trips,
    peaks,
    site: siteSettings.parse(load(readFileSync(path.join(dir, 'settings', 'site.yaml'), 'utf8'))),
    royalty: royaltySchedule.parse(load(readFileSync(path.join(dir, 'settings', 'imf-royalty.yaml'), 'utf8'))),
  };
}

export function loadCatalogue(dir = fixtureContent, siteUrl = 'https://example.test'): Catalogue {
  return buildCatalogue(readContent(dir), siteUrl);
}
