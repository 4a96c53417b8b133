/** Site settings: who the operator is and the terms the peak dataset is published under. */
import { z } from 'astro/zod';
import { isoDate, slug } from './vocabulary.ts';

const semanticVersion = z.string().regex(/^\d+\.\d+\.\d+$/, { error: 'must be a semantic version such as 2.0.0' });

/** The sections of a release in Keep a Changelog (https://keepachangelog.com/en/1.1.0/), in its order. */
export const changeKinds = ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'] as const;

/** One release of the peak dataset: its version, its date and what changed, in the editors' words. */
const datasetRelease = z.strictObject({
  version: semanticVersion,
  date: isoDate,
  ...(Object.fromEntries(changeKinds.map((kind) => [kind, z.array(z.string().trim().min(10)).optional()])) as Record<
    (typeof changeKinds)[number],
    z.ZodOptional<z.ZodArray<z.ZodString>>
  >),
});

/**
 * A peak id an earlier release published that no record has any more. Ids stay: such an id keeps
 * answering, with where the peak went. `movedTo` is the id the same summit has now (the API
 * redirects to it); otherwise the id is gone, and `addedInstead` may name the record that took its
 * place in the dataset. The content check holds `lastIn` to the archived files
 * (content/peak-data/<version>/peaks.json) and every id those files publish to a record or to
 * this list.
 */
const removedPeakId = z
  .strictObject({
    id: slug,
    /** The peak's name as that release gave it. */
    name: z.string().trim().min(2),
    /** The release whose files no longer have it. */
    removedIn: semanticVersion,
    /** The last release whose files have it (its record stays downloadable there). */
    lastIn: semanticVersion,
    /** Why the record went, in one or two sentences: shown by the API, the files and the pages. */
    reason: z.string().trim().min(20),
    movedTo: slug.optional(),
    addedInstead: slug.optional(),
  })
  .refine((removed) => !(removed.movedTo && removed.addedInstead), {
    error: 'give movedTo (the same summit under a new id) or addedInstead (another summit in its place), not both',
    path: ['addedInstead'],
  });
export type RemovedPeakId = z.infer<typeof removedPeakId>;

/** Versions compared part by part: 2.10.0 comes after 2.9.0. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i += 1) if (x![i] !== y![i]) return x![i]! - y![i]!;
  return 0;
}

export const siteSettings = z.strictObject({
  operatorName: z.string().min(2),
  siteUrl: z.url({ error: 'must be the public origin, for example https://example.com' }),
  contactEmail: z.email({ error: 'must be an email address' }),
  /**
   * When someone who sent an enquiry can expect a guide's call, as it reads after "A guide will
   * call you": shown on the thank-you page, in the answer and in the team's email.
   */
  callbackPromise: z.string().min(10).max(160).default('within one working day, between 9:00 and 19:00 India time'),
  /**
   * Web domains of the operator's own pages (the host of siteUrl always counts). A record whose
   * only references are on these domains is refused: facts need an independent source.
   */
  operatorDomains: z
    .array(
      z.string().regex(/^(?:[a-z0-9-]+\.)+[a-z]{2,}$/, {
        error: 'must be a bare domain such as example.com, without https:// or a path',
      }),
    )
    .optional(),
  /**
   * The terms of a booking, shown beside every trip's price. Each is optional: a term left out
   * is shown nowhere, rather than guessed.
   */
  booking: z
    .strictObject({
      /** GST charged on the price, in percent; the total with GST is worked out from it. */
      gstPercent: z.number().min(0).max(28).optional(),
      /** Share of the price paid to confirm a seat, in percent. */
      depositPercent: z.number().int().min(1).max(100).optional(),
      /** The cancellation terms in one line; a trip's FAQ about cancelling holds them in full. */
      cancellation: z
        .string()
        .trim()
        .min(20)
        .max(200, { error: "must fit in one line (at most 200 characters); the full terms belong in the trips' FAQs" })
        .optional(),
    })
    .optional(),
  serviceName: z.string().min(3),
  description: z.string().min(20),
  dataset: z
    .strictObject({
      name: z.string().min(3),
      version: semanticVersion,
      lastUpdated: isoDate,
      license: z.literal('CC-BY-4.0'),
      licenseUrl: z.url(),
      /** Every release, newest first: the newest is `version` of `lastUpdated` (peak-data/CHANGELOG.md). */
      changelog: z.array(datasetRelease).min(1, { error: 'needs at least the current release' }),
      /** Ids earlier releases published that no record has now, each saying where it went. */
      removedIds: z.array(removedPeakId).optional(),
    })
    .superRefine((dataset, ctx) => {
      const [newest] = dataset.changelog;
      if (newest && (newest.version !== dataset.version || newest.date !== dataset.lastUpdated)) {
        ctx.addIssue({
          code: 'custom',
          path: ['changelog', 0],
          message: `the newest release must be version ${dataset.version} of ${dataset.lastUpdated}, the dataset's version and date (it is ${newest.version} of ${newest.date})`,
        });
      }
      dataset.changelog.forEach((release, i) => {
        const older = dataset.changelog[i + 1];
        if (older && compareVersions(release.version, older.version) <= 0)
          ctx.addIssue({
            code: 'custom',
            path: ['changelog', i + 1, 'version'],
            message: `releases run newest first: ${older.version} must be lower than ${release.version}`,
          });
        if (!changeKinds.some((kind) => release[kind]?.length))
          ctx.addIssue({
            code: 'custom',
            path: ['changelog', i],
            message: `release ${release.version} must say what changed (${changeKinds.join(', ')})`,
          });
      });
    }),
});
export type SiteSettings = z.infer<typeof siteSettings>;
