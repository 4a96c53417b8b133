/**
 * The trips the departures command checks against, read from the trip files themselves
 * (`<contentDir>/trips/*.md`), without a build: what the site reads from the catalogue
 * (trips.ts), for the operations tool.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { slugPattern } from '../../domain/schemas/vocabulary.ts';
import type { KnownTrip } from './trips.ts';

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
