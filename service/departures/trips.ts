/**
 * What the departure rules need to know about trips: which slugs exist, their length (a new
 * departure's default end date) and their price (the fallback shown with a departure). The
 * site reads it from the catalogue; the CLI reads the trip files directly, without a build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { bySlug } from '../../domain/catalogue/by-slug.ts';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { slugPattern } from '../../domain/schemas/vocabulary.ts';

export interface KnownTrip {
  slug: string;
  name: string;
  durationDays: number | null;
  priceInr: number | null;
}

export function knownTrips(catalogue: Catalogue): KnownTrip[] {
  return catalogue.trips.map(({ trip }) => ({
    slug: trip.slug,
    name: trip.name,
    durationDays: trip.durationDays ?? null,
    priceInr: trip.priceInr ?? null,
  }));
}

/** The known trip with this slug (an index of the list, made once). */
export function knownTrip(trips: readonly KnownTrip[], slug: string | null | undefined): KnownTrip | undefined {
  return bySlug(trips, (trip) => trip.slug, slug);
}

function frontmatter(text: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const data = match ? load(match[1] ?? '') : null;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

function positiveInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** The trips in `<contentDir>/trips/*.md`; the file name is the slug, as on the site. */
export function readKnownTrips(contentDir: string): KnownTrip[] {
  const dir = path.join(contentDir, 'trips');
  if (!existsSync(dir))
    throw new Error(`no trips folder at ${dir}; run the command from the project folder or set CONTENT_DIR`);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3))
    .filter((slug) => slugPattern.test(slug))
    .sort()
    .map((slug) => {
      const data = frontmatter(readFileSync(path.join(dir, `${slug}.md`), 'utf8'));
      return {
        slug,
        name: typeof data.name === 'string' ? data.name : slug,
        durationDays: positiveInteger(data.durationDays),
        priceInr: positiveInteger(data.priceInr),
      };
    });
}
