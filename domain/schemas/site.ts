/** Site settings: who the operator is and the terms the peak dataset is published under. */
import { z } from 'astro/zod';
import { isoDate } from './vocabulary.ts';

export const siteSettings = z.object({
  operatorName: z.string().min(2),
  siteUrl: z.url({ error: 'must be the public origin, for example https://example.com' }),
  contactEmail: z.email({ error: 'must be an email address' }),
  /**
   * When someone who sent an enquiry can expect a guide's call, as it reads after "A guide will
   * call you": shown on the thank-you page, in the answer and in the team's email.
   */
  callbackPromise: z
    .string()
    .min(10)
    .max(160)
    .default('within one working day, between 9:00 and 19:00 India time'),
  /**
   * Web domains of the operator's own pages (the host of siteUrl always counts). A record whose
   * only references are on these domains is refused: facts need an independent source.
   */
  operatorDomains: z
    .array(z.string().regex(/^(?:[a-z0-9-]+\.)+[a-z]{2,}$/, { error: 'must be a bare domain such as example.com, without https:// or a path' }))
    .optional(),
  /**
   * The terms of a booking, shown beside every trip's price. Each is optional: a term left out
   * is shown nowhere, rather than guessed.
   */
  booking: z
    .object({
      /** GST charged on the price, in percent; the total with GST is worked out from it. */
      gstPercent: z.number().min(0).max(28).optional(),
      /** Share of the price paid to confirm a seat, in percent. */
      depositPercent: z.number().int().min(1).max(100).optional(),
      /** The cancellation terms in one line; a trip's FAQ about cancelling holds them in full. */
      cancellation: z.string().trim().min(20).max(200, { error: 'must fit in one line (at most 200 characters); the full terms belong in the trips\' FAQs' }).optional(),
    })
    .optional(),
  serviceName: z.string().min(3),
  description: z.string().min(20),
  dataset: z.object({
    name: z.string().min(3),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, { error: 'must be a semantic version such as 2.0.0' }),
    lastUpdated: isoDate,
    license: z.literal('CC-BY-4.0'),
    licenseUrl: z.url(),
  }),
});
export type SiteSettings = z.infer<typeof siteSettings>;
