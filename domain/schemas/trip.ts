/**
 * Trips: the public Trip resource of the API (`tripResource`) and the editors' trip file
 * (`tripContent`: the same fields plus everything the trip page shows).
 */
import type { ImageMetadata } from 'astro';
import { z } from 'astro/zod';
import {
  acclimatisationBreaches,
  altitudeM,
  figuresOnlyInProse,
  itineraryDay,
  restDayFallsShort,
  restNightsAfter,
} from './itinerary.ts';
import { alpineGrades, difficulties, isoDate, reference, slug, tags, tripTypes } from './vocabulary.ts';
import { contestedFactOf, contestedProblems } from './peak.ts';

/** Facts of a trip the sources may disagree on (a peak's are in its record). */
const tripContestableFacts = ['summitAltitudeM'] as const;

/** The Trip fields of the contract, in the order the contract lists them. */
export const tripResource = z.object({
  slug: slug.describe('Stable identifier; equals the slug of the public page URL.'),
  name: z.string().min(3).describe('Published trip name.'),
  type: z.enum(tripTypes).describe('`trek` walks; `expedition` climbs a named summit.'),
  region: z.string().min(2).describe('Region the trip runs in (a comma-separated place and country text).'),
  difficulty: z.enum(difficulties).describe('Published difficulty band.'),
  alpineGrade: z
    .enum(alpineGrades)
    .optional()
    .describe('Alpine French grade for climbing objectives. Absent on treks.'),
  summitAltitudeM: altitudeM.nullable().optional().describe('Highest altitude reached, metres.'),
  altitudeLabel: z.string().optional().describe('Altitude as published.'),
  durationDays: z.number().int().min(1).nullable().optional().describe('Trip length in days.'),
  durationLabel: z.string().optional().describe('Duration as published; may note buffer days.'),
  season: z.string().min(3).describe('Season the trip runs in.'),
  seasonWindow: z.string().optional().describe('Tighter climbing window, when one is published.'),
  groupSize: z.string().optional().describe('Published group-size cap.'),
  startEnd: z.string().optional().describe('Start and end city text.'),
  priceInr: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe('Per-person price in INR; null when priced on request.'),
  priceNote: z.string().optional().describe('What the price covers.'),
  description: z.string().min(40).describe('One-paragraph summary.'),
  shortAnswer: z.string().optional().describe('Direct answer to what the trip is, written for quoting.'),
  alternateNames: z.array(z.string()).optional().describe('Other names of the peak or route.'),
  tags: z.array(z.enum(tags)).optional().describe('Shared taxonomy keys.'),
  lastUpdated: z.iso.date().optional().describe('Date the trip data was last verified.'),
  url: z.url().describe('Canonical HTML page of the trip.'),
  markdownUrl: z.url().describe('The same page as Markdown, with itinerary, inclusions, FAQs and live departures.'),
});
export type Trip = z.infer<typeof tripResource>;

/**
 * A photograph's file as the editor names it (relative to the trip file, e.g.
 * `images/hampta-pass-crossing.jpg`). The site's collection (src/content.config.ts) checks the
 * file and replaces the path with the image's metadata for Astro's image pipeline; the live
 * functions read the path and ignore photographs.
 */
export type PhotoFile = string | ImageMetadata;
export const photoFormats = ['jpg', 'jpeg', 'png', 'webp', 'avif'] as const;
const photoPath = z
  .string()
  .trim()
  .regex(new RegExp(`\\.(${photoFormats.join('|')})$`, 'i'), {
    error: `must name a photograph file ending in ${photoFormats.map((f) => `.${f}`).join(', ')}`,
  })
  .transform((file): PhotoFile => file);

/** A photograph of the trip, always with its alt text, credit and licence (docs/editing-content.md). */
function tripPhoto(file: z.ZodType<PhotoFile>) {
  return z.strictObject({
    file,
    alt: z
      .string({ error: 'is required: describe what the photograph shows, for people who cannot see it' })
      .trim()
      .min(1, { error: 'is required: describe what the photograph shows, for people who cannot see it' }),
    credit: z
      .string({ error: 'is required: who took the photograph, as the licence asks to credit them' })
      .trim()
      .min(2, { error: 'is required: who took the photograph' }),
    licence: z
      .string({
        error:
          'is required: the licence the photograph is published under, e.g. "CC BY-SA 4.0", or "Used with permission"',
      })
      .trim()
      .min(2, { error: 'is required' }),
    licenceUrl: z.url({ error: 'must be a full web address starting with https://' }).optional(),
    sourceUrl: z.url({ error: 'must be a full web address starting with https://' }).optional(),
  });
}

/** One part of the way to the start, in the editor's words, with a figure (distance or time) where it has one. */
const travelNote = (what: string) =>
  z
    .string({ error: `is required: ${what}` })
    .trim()
    .min(10, { error: `must say ${what}` });

/**
 * How a trekker reaches the start and gets home: the nearest airport and railhead with a
 * distance or time, the usual road journey, where and when we meet, and where to stay either
 * side. Every part comes from the trip's sources, which `sources` names by address.
 */
const gettingThere = z.strictObject({
  airport: travelNote('the nearest airport and how far it is from the start (a distance or a time)'),
  railhead: travelNote('the nearest railway station with a useful service and how far it is'),
  road: travelNote('the usual road journey to the start, by bus or shared vehicle, with its time'),
  pickup: travelNote('where and when the group meets on day 1'),
  stayBefore: travelNote('where to spend the night before day 1'),
  stayAfter: travelNote('where the trip ends and where to stay or travel on from there'),
  sources: z
    .array(z.url({ error: "must be the full web address of one of the trip's sources" }))
    .min(1, { error: "needs at least one of the trip's sources for these facts" }),
});

/**
 * The fields the trip-wide rules below read. The rules run whenever these fields are valid, even
 * when another field is not, so an editor sees their problems with the rest; a rule that comes
 * to read another field adds it here.
 */
const fieldsTheTripRulesRead = new Set([
  'type',
  'peak',
  'alpineGrade',
  'itinerary',
  'durationDays',
  'summitAltitudeM',
  'sources',
  'gettingThere',
  'contested',
]);

/**
 * The frontmatter of `content/trips/<slug>.md`. The slug is the file name. `photoFile` is how a
 * photograph's file is read: a checked path here, Astro's `image()` in the site's collection.
 */
export function tripContentSchema(photoFile: z.ZodType<PhotoFile>) {
  return (
    tripResource
      .omit({ slug: true, url: true, markdownUrl: true, lastUpdated: true })
      .extend({
        peak: slug.optional().describe('Expeditions: id of the summit in the peak dataset.'),
        lastUpdated: isoDate.optional(),
        distanceKm: z.number().min(0).max(400).optional(),
        base: z.string().optional(),
        gettingThere,
        fitness: z.string().min(20),
        experience: z.string().min(10),
        itinerary: z.array(itineraryDay).min(1),
        inclusions: z.array(z.string().min(3)).min(1),
        exclusions: z.array(z.string().min(3)).min(1),
        gear: z.array(z.object({ category: z.string().min(2), items: z.array(z.string().min(2)).min(1) })).min(1),
        faqs: z
          .array(z.object({ question: z.string().min(8), answer: z.string().min(20) }))
          .min(5, { error: 'needs at least 5 questions and answers' }),
        sources: z.array(reference).min(1, { error: 'needs at least one source for its altitudes and distances' }),
        /** Facts the trip's sources disagree on, every account from its own source (as a peak's `contested`). */
        contested: z.array(contestedFactOf(tripContestableFacts)).optional(),
        photos: z
          .array(tripPhoto(photoFile))
          .optional()
          .describe('Photographs by editors, with credit and licence; shown on the trip page.'),
      })
      // A field the schema does not know is a mistake (a misspelt optional field would otherwise vanish without a word).
      .strict()
      .superRefine(
        (trip, ctx) => {
          if (trip.type === 'expedition') {
            if (!trip.peak)
              ctx.addIssue({
                code: 'custom',
                path: ['peak'],
                message: 'an expedition must name the peak it climbs (an id from content/peaks)',
              });
            if (!trip.alpineGrade)
              ctx.addIssue({
                code: 'custom',
                path: ['alpineGrade'],
                message: 'an expedition must give the Alpine grade of its route',
              });
          } else {
            if (trip.alpineGrade)
              ctx.addIssue({
                code: 'custom',
                path: ['alpineGrade'],
                message: 'treks have no Alpine grade; remove this field',
              });
            if (trip.peak)
              ctx.addIssue({
                code: 'custom',
                path: ['peak'],
                message: 'only expeditions climb a peak; remove this field or set type: expedition',
              });
          }
          trip.itinerary.forEach((day, index) => {
            if (day.day !== index + 1) {
              ctx.addIssue({
                code: 'custom',
                path: ['itinerary', index, 'day'],
                message: `days must run 1, 2, 3 … in order; expected day ${index + 1}`,
              });
            }
          });
          if (trip.durationDays != null && trip.durationDays !== trip.itinerary.length) {
            ctx.addIssue({
              code: 'custom',
              path: ['durationDays'],
              message: `must match the itinerary, which has ${trip.itinerary.length} days (it says ${trip.durationDays})`,
            });
          }
          const highest = Math.max(
            ...trip.itinerary.flatMap((d) => [d.startAltitudeM, d.endAltitudeM, d.highPoint?.altitudeM ?? 0]),
          );
          if (trip.summitAltitudeM != null && trip.summitAltitudeM < highest) {
            ctx.addIssue({
              code: 'custom',
              path: ['summitAltitudeM'],
              message: `must be at least ${highest} m, the highest the itinerary reaches (it is ${trip.summitAltitudeM} m)`,
            });
          }
          for (const breach of acclimatisationBreaches(trip.itinerary)) {
            const { index, reason } = breach;
            const breaks = `day ${index + 1} breaks the acclimatisation rule: it ${reason}`;
            const note = trip.itinerary[index]?.acclimatisationNote;
            if (!note) {
              const rest = restNightsAfter(breach);
              ctx.addIssue({
                code: 'custom',
                path: ['itinerary', index, 'acclimatisationNote'],
                message: `${breaks}. Add an acclimatisation night or a lower camp, or give the published reason in acclimatisationNote${rest ? ` (${rest})` : ''}; see docs/editing-content.md`,
              });
              continue;
            }
            const shortfall = restDayFallsShort(breach, note);
            if (shortfall)
              ctx.addIssue({
                code: 'custom',
                path: ['itinerary', index, 'acclimatisationNote'],
                message: `${breaks}; its note ${shortfall}`,
              });
          }
          const sourceUrls = new Set(trip.sources.map((s) => s.url));
          for (const { path, message } of contestedProblems(trip.contested, sourceUrls, 'sources'))
            ctx.addIssue({ code: 'custom', path, message });
          trip.gettingThere.sources.forEach((url, index) => {
            if (!sourceUrls.has(url))
              ctx.addIssue({
                code: 'custom',
                path: ['gettingThere', 'sources', index],
                message: `${url} is not among the trip's sources; add it to sources or cite one of them`,
              });
          });
          trip.itinerary.forEach((day, index) => {
            if (day.acclimatisationSource && !sourceUrls.has(day.acclimatisationSource)) {
              ctx.addIssue({
                code: 'custom',
                path: ['itinerary', index, 'acclimatisationSource'],
                message: `day ${index + 1} cites ${day.acclimatisationSource}, which is not among the trip's sources; add it to sources or cite one of them`,
              });
            }
          });
          trip.itinerary.forEach((day, index) => {
            for (const field of figuresOnlyInProse(day)) {
              const what = field === 'distanceKm' ? 'a distance' : 'a walking time';
              ctx.addIssue({
                code: 'custom',
                path: ['itinerary', index, field],
                message: `day ${index + 1}'s description gives ${what}, so the day needs ${field} too (the table, the chart and the API read the data, not the prose)`,
              });
            }
          });
        },
        { when: (payload) => payload.issues.every((issue) => !fieldsTheTripRulesRead.has(String(issue.path?.[0]))) },
      )
  );
}
export const tripContent = tripContentSchema(photoPath);
export type TripContent = z.infer<typeof tripContent>;
