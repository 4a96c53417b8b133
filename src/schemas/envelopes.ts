/** The response envelopes and the service index of /v1, as the contract names them. */
import { z } from 'astro/zod';
import { departureResource } from './departure.ts';
import { peakResource } from './peak.ts';
import { tripResource } from './trip.ts';

export const tripList = z.object({ object: z.literal('list'), count: z.number().int(), data: z.array(tripResource) });
export const tripEnvelope = z.object({ object: z.literal('trip'), data: tripResource });
export const peakList = z.object({
  object: z.literal('list'),
  count: z.number().int(),
  license: z.literal('CC-BY-4.0'),
  attribution: z.string().describe('Attribution text that satisfies the licence; cite it with a link back.'),
  data: z.array(peakResource),
});
export const peakEnvelope = z.object({ object: z.literal('peak'), license: z.literal('CC-BY-4.0'), data: peakResource });
export const departureList = z.object({ object: z.literal('list'), count: z.number().int(), data: z.array(departureResource) });

export const serviceIndex = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  documentationUrl: z.url(),
  openapiUrl: z.url(),
  baseUrl: z.url(),
  authentication: z.literal('none'),
  rateLimit: z.object({
    requests: z.number().int(),
    windowSeconds: z.number().int(),
    scope: z.string(),
    headers: z.array(z.string()),
  }),
  endpoints: z.array(z.object({ operationId: z.string(), method: z.string(), url: z.url(), summary: z.string() })),
  machineReadableFiles: z.array(z.object({ url: z.url(), description: z.string() })),
  license: z.object({ peakDataset: z.string(), peakDatasetUrl: z.url(), attribution: z.string() }),
});
export type ServiceIndex = z.infer<typeof serviceIndex>;
