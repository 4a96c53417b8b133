/** The response envelopes and the service index of /v1, as the contract names them. */
import { z } from 'astro/zod';
import { departureResource } from './departure.ts';
import { peakResource } from './peak.ts';
import { tripResource } from './trip.ts';

const count = z.number().int().min(0).describe('Number of items in `data`.');
const license = z.literal('CC-BY-4.0').describe('Licence of the peak dataset.');

export const tripList = z.object({ object: z.literal('list'), count, data: z.array(tripResource) });
export const tripEnvelope = z.object({ object: z.literal('trip'), data: tripResource });
export const peakList = z.object({
  object: z.literal('list'),
  count,
  license,
  attribution: z.string().describe('Attribution text that satisfies the licence; cite it with a link back.'),
  data: z.array(peakResource),
});
export const peakEnvelope = z.object({ object: z.literal('peak'), license, data: peakResource });
export const departureList = z.object({ object: z.literal('list'), count, data: z.array(departureResource) });

export const serviceIndex = z.object({
  name: z.string().describe('Service name.'),
  version: z.string().describe('API major version.'),
  description: z.string(),
  documentationUrl: z.url().describe('Address of the developer reference.'),
  openapiUrl: z.url().describe('Address of the machine-readable API specification.'),
  baseUrl: z.url().describe('API root.'),
  authentication: z.literal('none').describe('No registration, token or key is needed.'),
  rateLimit: z
    .object({
      requests: z.number().int().min(1),
      windowSeconds: z.number().int().min(1),
      scope: z.string(),
      headers: z.array(z.string()),
    })
    .describe('The limit actually enforced and the headers that report it.'),
  endpoints: z
    .array(
      z.object({
        operationId: z.string(),
        method: z.literal('GET'),
        // A URI once its path parameter, written as in the OpenAPI paths (`{slug}`), is filled in.
        url: z
          .url()
          .meta({ format: 'uri-template' })
          .describe(
            'Absolute URL of the operation; a path parameter appears as an RFC 6570 template such as `{slug}`.',
          ),
        summary: z.string(),
      }),
    )
    .describe('Every operation of the API.'),
  machineReadableFiles: z
    .array(z.object({ url: z.url(), description: z.string() }))
    .describe('Non-API files the site publishes.'),
  license: z
    .object({ peakDataset: z.literal('CC-BY-4.0'), peakDatasetUrl: z.url(), attribution: z.string() })
    .describe('Licence and attribution terms of the peak dataset.'),
});
export type ServiceIndex = z.infer<typeof serviceIndex>;
