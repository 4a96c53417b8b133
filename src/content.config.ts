/**
 * The editors' content, validated at build time by the schemas in domain/schemas.
 * A record that breaks a rule stops `npm run build` with the file, the field and the reason.
 * Files are read by domain/catalogue/content-files.ts, the same reader the live functions use,
 * so the site and the functions always see the same records. Links between collections (a
 * trip's peak, a peak's trip) are checked in domain/catalogue.
 */
import { defineCollection } from 'astro:content';
import type { Loader } from 'astro/loaders';
import path from 'node:path';
import { ContentError, contentFolders, photoFileProblems, readFolder, readSettingsFile, settingsFiles, type RawEntry } from '../domain/catalogue/content-files.ts';
import { tripContentSchema } from '../domain/schemas/trip.ts';
import { peakContent, royaltySchedule } from '../domain/schemas/peak.ts';
import { siteSettings } from '../domain/schemas/site.ts';

/** Where the editors' files are; tests and benchmarks point this at generated catalogues. */
const contentDir = process.env.CONTENT_DIR ?? './content';

/** `check` finds what the schema cannot see (files an entry names); its problems stop the build, all listed at once. */
function entriesLoader(name: string, read: () => RawEntry[], check?: (entry: RawEntry) => string[]): Loader {
  return {
    name,
    load: async ({ store, parseData, generateDigest }) => {
      store.clear();
      const entries = read();
      const problems = check ? entries.flatMap(check) : [];
      if (problems.length > 0) throw new ContentError(`The content has ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
      for (const entry of entries) {
        const data = await parseData({ id: entry.id, data: entry.data as Record<string, unknown>, filePath: entry.filePath });
        store.set({ id: entry.id, data, filePath: entry.filePath, digest: generateDigest(entry.text), ...(entry.body !== undefined ? { body: entry.body } : {}) });
      }
    },
  };
}

const folder = (kind: keyof typeof contentFolders) => () => readFolder(path.join(contentDir, contentFolders[kind].folder), contentFolders[kind].ext);
/** A settings file is one entry, named as the site reads it. */
const settings = (file: string, id: string) => () => [{ ...readSettingsFile(path.join(contentDir, file)), id }];

// Photographs go through Astro's image() helper, which resolves a path against the entry's
// filePath (given to parseData and the store), so <Picture> gets the image's metadata.
const trips = defineCollection({ loader: entriesLoader('trip-files', folder('trips'), photoFileProblems), schema: ({ image }) => tripContentSchema(image()) });
const peaks = defineCollection({ loader: entriesLoader('peak-files', folder('peaks')), schema: peakContent });
const site = defineCollection({ loader: entriesLoader('site-settings', settings(settingsFiles.site, 'site')), schema: siteSettings });
const royalty = defineCollection({ loader: entriesLoader('royalty-settings', settings(settingsFiles.royalty, 'imf-royalty')), schema: royaltySchedule });

export const collections = { trips, peaks, site, royalty };
