/** The Departure resource of the API, read live from operational storage. */
import { z } from 'astro/zod';
import { departureStatuses, slug } from './vocabulary.ts';

export const departureResource = z.object({
  id: z.string().describe('Departure id.'),
  tripSlug: slug.describe('Slug of the trip the departure belongs to.'),
  tripName: z.string().describe('Trip name.'),
  tripUrl: z.url().describe('Canonical trip page.'),
  startDate: z.iso.date().describe('First day.'),
  endDate: z.iso.date().describe('Last day.'),
  status: z.enum(departureStatuses).describe('Whether the departure can still be joined.'),
  priceInr: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Price for this departure in INR, falling back to the trip price.'),
  seatsTotal: z.number().int().nullable().optional().describe('Total seats.'),
  seatsLeft: z.number().int().nullable().optional().describe('Seats still unbooked.'),
  note: z.string().optional().describe('Operational note published with the departure.'),
});
export type Departure = z.infer<typeof departureResource>;
