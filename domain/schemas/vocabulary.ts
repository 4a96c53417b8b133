/**
 * Closed value sets shared by the content schemas, the API and the OpenAPI document.
 * Editors extend a list here (and nowhere else) when a new value is genuinely needed.
 */
import { z } from 'astro/zod';
import { slugPattern } from '../slug.ts';

export { slugPattern };

export const slug = z
  .string()
  .regex(slugPattern, { error: 'must use only lowercase letters a-z, digits 0-9 and hyphens (pattern ^[a-z0-9-]+$)' });

export const tripTypes = ['trek', 'expedition'] as const;
export const difficulties = ['Easy', 'Moderate', 'Difficult', 'Very Difficult'] as const;

/** Alpine French grades from F through TD, with the usual +/- steps. */
export const alpineGrades = [
  'F',
  'F+',
  'PD-',
  'PD',
  'PD+',
  'AD-',
  'AD',
  'AD+',
  'D-',
  'D',
  'D+',
  'TD-',
  'TD',
  'TD+',
] as const;

export const tags = [
  'ladakh',
  'himachal',
  'uttarakhand',
  'sikkim',
  'first-trek',
  'pass-crossing',
  'summit',
  'glacier',
  'high-altitude',
  'camping',
  'homestays',
  'snow',
  'forest',
  'lakes',
  'meadows',
  'flowers',
  'river-crossing',
  'technical',
  'first-6000',
  'alpine-climbing',
  'winter',
  'monsoon',
  'autumn',
  'spring',
  'summer',
  'family',
  'wildlife',
  'culture',
] as const;

export const imfBands = ['<6500', '6501-7000', '7001+'] as const;

/**
 * How the Indian Mountaineering Foundation charges for a peak: `expedition` peaks pay the
 * altitude-band fee, `trekking-peak`s (on the IMF's trekking-peak list) a flat fee.
 */
export const feeCategories = ['expedition', 'trekking-peak'] as const;

/** The identifiers a peak may carry in other datasets (Wikidata, OpenStreetMap, GeoNames). */
export const externalIdFields = ['wikidataId', 'osmNodeId', 'geonamesId'] as const;

export const departureStatuses = ['open', 'filling', 'sold_out', 'cancelled'] as const;

/** A plain-language list of accepted values, for error messages and hints. */
export function listOf(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

/**
 * An ISO calendar date. YAML turns unquoted dates into Date objects, so both forms are accepted
 * from content files and the output is always the `YYYY-MM-DD` string the API publishes.
 */
export const isoDate = z.preprocess(
  (value) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value),
  z.iso.date({
    error: (issue) => `"${String(issue.input)}" is not a real date; write it as YYYY-MM-DD, for example 2026-04-30`,
  }),
);

/** A source of facts, published as a numbered reference: title, who publishes it, where. */
export const reference = z.strictObject({
  title: z.string().min(3),
  publisher: z
    .string()
    .min(2)
    .optional()
    .describe("Journal, body or site that publishes the source; the web address's host when absent."),
  url: z.url({ error: 'must be a full web address starting with https://' }),
});
