/** The catalogue as the site and the on-demand routes see it: built once per process. */
import { getCollection, getEntry } from 'astro:content';
import { buildCatalogue, type Catalogue } from '../../domain/catalogue/index.ts';
import { readSettings } from '../../service/config.ts';

let cached: Promise<Catalogue> | undefined;

async function load(): Promise<Catalogue> {
  const [trips, peaks, site, royalty] = await Promise.all([
    getCollection('trips'),
    getCollection('peaks'),
    getEntry('site', 'site'),
    getEntry('royalty', 'imf-royalty'),
  ]);
  if (!site) throw new Error('content/settings/site.yaml is missing');
  if (!royalty) throw new Error('content/settings/imf-royalty.yaml is missing');
  const settings = readSettings();
  const siteSettings = settings.CONTACT_EMAIL ? { ...site.data, contactEmail: settings.CONTACT_EMAIL } : site.data;
  return buildCatalogue({ trips, peaks, site: siteSettings, royalty: royalty.data }, settings.siteUrl);
}

export function getCatalogue(): Promise<Catalogue> {
  cached ??= load();
  return cached;
}
