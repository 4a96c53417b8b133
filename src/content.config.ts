/**
 * The editors' content, validated at build time by the schemas in src/schemas.
 * A record that breaks a rule stops `npm run build` with the file, the field and the reason.
 * Links between collections (a trip's peak, a peak's trip) are checked in service/catalogue.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { load as parseYaml } from 'js-yaml';
import { tripContent } from './schemas/trip.ts';
import { peakContent, royaltySchedule } from './schemas/peak.ts';
import { siteSettings } from './schemas/site.ts';
import { slugPattern } from './schemas/vocabulary.ts';

/** Where the editors' files are; tests and benchmarks point this at generated catalogues. */
const contentDir = process.env.CONTENT_DIR ?? './content';

/** The file name is the id; refuse names that would make a bad URL instead of silently rewriting them. */
function idFromFileName({ entry }: { entry: string }): string {
  const name = entry.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
  if (!slugPattern.test(name)) {
    throw new Error(`${entry}: the file name "${name}" is used as the id and must use only lowercase letters, digits and hyphens (pattern ^[a-z0-9-]+$)`);
  }
  return name;
}

/** A settings file holds one object; the file loader wants entries keyed by id. */
function singleEntry(id: string) {
  return (text: string) => ({ [id]: parseYaml(text) as Record<string, unknown> });
}

const trips = defineCollection({
  loader: glob({ pattern: '*.md', base: `${contentDir}/trips`, generateId: idFromFileName }),
  schema: tripContent,
});

const peaks = defineCollection({
  loader: glob({ pattern: '*.yaml', base: `${contentDir}/peaks`, generateId: idFromFileName }),
  schema: peakContent,
});

const site = defineCollection({
  loader: file(`${contentDir}/settings/site.yaml`, { parser: singleEntry('site') }),
  schema: siteSettings,
});

const royalty = defineCollection({
  loader: file(`${contentDir}/settings/imf-royalty.yaml`, { parser: singleEntry('imf-royalty') }),
  schema: royaltySchedule,
});

export const collections = { trips, peaks, site, royalty };
