/**
 * The editors' content, checked at build time by domain/catalogue/content-check.ts, the check
 * `npm run check` runs: the files read by domain/catalogue/content-files.ts (the reader the live
 * functions use too), the schemas of domain/schemas, photographs' files and the links between
 * records. Any problem stops `npm run build` with the whole list, each with file, field and reason.
 *
 * Each collection then stores its records. A record whose file and validated data are those of
 * the last build keeps its stored entry (Astro keeps the store in its cache folder), and YAML
 * read before is not parsed again (src/lib/parsed-yaml.ts), so a rebuild after one edit parses
 * one file again; every rule still runs on every record.
 */
import { defineCollection } from 'astro:content';
import type { Loader } from 'astro/loaders';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkContent, type ContentCheck } from '../domain/catalogue/content-check.ts';
import { ContentError } from '../domain/catalogue/content-error.ts';
import { contentProblemsMessage, type RawEntry } from '../domain/catalogue/content-files.ts';
import { tripContentSchema } from '../domain/schemas/trip.ts';
import { peakContent, royaltySchedule } from '../domain/schemas/peak.ts';
import { siteSettings } from '../domain/schemas/site.ts';
import { readSettings } from '../service/config.ts';
import { keptParsedYaml } from './lib/parsed-yaml.ts';

/** Where the editors' files are; tests and benchmarks point this at generated catalogues. */
const contentDir = readSettings().CONTENT_DIR;

/** Every file's name, size and time under the content folder: the check runs again when it changes. */
function contentFingerprint(): string {
  return readdirSync(contentDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const { size, mtimeMs } = statSync(file);
      return `${file} ${size} ${mtimeMs}`;
    })
    .sort()
    .join('\n');
}

let last: { fingerprint: string; check: ContentCheck } | undefined;

/** The checked content, once for all four collections; every problem at once, or none. */
function checkedContent(): ContentCheck {
  const fingerprint = contentFingerprint();
  if (last?.fingerprint !== fingerprint) {
    const parsed = keptParsedYaml();
    last = {
      fingerprint,
      check: checkContent(contentDir, { siteUrl: readSettings().siteUrl, photoFiles: true, parsed }),
    };
    parsed.save();
  }
  if (last.check.problems.length > 0) {
    const error = new ContentError(
      `${contentProblemsMessage(last.check.problems)}\n\nThe build stopped here: nothing was published, and a running server keeps serving the build it has. Fix these and build again; npm run check lists them in a second or two, and docs/editing-content.md explains each rule.`,
    );
    // The mistakes are in the content, not the code: Astro prints no stack trace for an error without one.
    error.stack = '';
    throw error;
  }
  return last.check;
}

type Validated = NonNullable<ContentCheck['source']>;

function entriesLoader(
  name: string,
  pick: (check: ContentCheck) => { raw: RawEntry; id: string; data: unknown }[],
): Loader {
  return {
    name,
    load: async (context) => {
      const { store } = context;
      const entries = pick(checkedContent());
      const ids = new Set(entries.map((e) => e.id));
      for (const id of store.keys()) if (!ids.has(id)) store.delete(id);
      for (const { raw, id, data } of entries) {
        // The validated data is part of the digest: a schema change that changes a record's data parses it again.
        const digest = context.generateDigest(`${raw.text}\n${JSON.stringify(data)}`);
        if (store.get(id)?.digest === digest) continue;
        const parsed = await context.parseData({
          id,
          data: raw.data as Record<string, unknown>,
          filePath: raw.filePath,
        });
        store.set({
          id,
          data: parsed,
          filePath: raw.filePath,
          digest,
          ...(raw.body !== undefined ? { body: raw.body } : {}),
        });
      }
    },
  };
}

/** Each file of a folder with its validated record. */
const records = (kind: 'trips' | 'peaks') => (check: ContentCheck) => {
  const valid = new Map<string, unknown>((check.source as Validated)[kind].map((r) => [r.id, r.data]));
  return check.files[kind].map((raw) => ({ raw, id: raw.id, data: valid.get(raw.id) }));
};
/** A settings file is one entry, named as the site reads it. */
const setting = (kind: 'site' | 'royalty', id: string) => (check: ContentCheck) => [
  { raw: check.files[kind]!, id, data: (check.source as Validated)[kind] },
];

// Photographs go through Astro's image() helper, which resolves a path against the entry's
// filePath (given to parseData and the store), so <Picture> gets the image's metadata.
const trips = defineCollection({
  loader: entriesLoader('trip-files', records('trips')),
  schema: ({ image }) => tripContentSchema(image()),
});
const peaks = defineCollection({ loader: entriesLoader('peak-files', records('peaks')), schema: peakContent });
const site = defineCollection({
  loader: entriesLoader('site-settings', setting('site', 'site')),
  schema: siteSettings,
});
const royalty = defineCollection({
  loader: entriesLoader('royalty-settings', setting('royalty', 'imf-royalty')),
  schema: royaltySchedule,
});

export const collections = { trips, peaks, site, royalty };
