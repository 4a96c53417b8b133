/**
 * One day of a trip's itinerary, and the rules a whole itinerary must keep: safe gains in
 * sleeping altitude, and no walking figure that lives only in the prose.
 */
import { z } from 'astro/zod';

export const altitudeM = z.number().int({ error: 'must be a whole number of metres' }).min(0).max(8900);

export const itineraryDay = z
  .object({
    day: z.number().int().min(1),
    title: z.string().min(3),
    from: z.string().min(2),
    to: z.string().min(2),
    startAltitudeM: altitudeM.describe('Where the day starts: the previous night\'s place.'),
    endAltitudeM: altitudeM.describe('Where the night is spent. The acclimatisation rule reads this altitude.'),
    highPoint: z
      .object({ name: z.string().min(2), altitudeM })
      .optional()
      .describe('The highest place reached on the day (a pass, a summit, a lake), only when higher than both ends of the day.'),
    distanceKm: z.number().min(0).max(60).optional(),
    walkingHours: z.number().min(0).max(18).optional(),
    description: z.string().min(20),
    acclimatisationNote: z
      .string()
      .min(40, { error: 'must explain, in a sentence or two, why this gain is safe (at least 40 characters)' })
      .optional()
      .describe('Published justification for a day that breaks the acclimatisation rule; shown on the page.'),
  })
  .superRefine((day, ctx) => {
    if (day.highPoint && day.highPoint.altitudeM <= Math.max(day.startAltitudeM, day.endAltitudeM)) {
      ctx.addIssue({
        code: 'custom',
        path: ['highPoint', 'altitudeM'],
        message: `is ${day.highPoint.altitudeM} m, not higher than the day's start (${day.startAltitudeM} m) and end (${day.endAltitudeM} m); give a high point only when the day climbs above both`,
      });
    }
  });
export type ItineraryDay = z.infer<typeof itineraryDay>;

/**
 * The Wilderness Medical Society's guidance on gradual ascent (Luks et al., 2024 update):
 * once above 3,000 m, raise the sleeping altitude by no more than about 500 m a day, and take
 * a rest day (no higher night) every three to four days of gains.
 */
export const acclimatisationRule = {
  /** The rule applies from a night spent at or above this altitude. */
  aboveM: 3000,
  /** Largest rise in sleeping altitude over the previous night. */
  maxGainM: 500,
  /** Nights in a row higher than the one before, above `aboveM`, before a rest day is due. */
  maxRisingNights: 4,
} as const;

export interface AcclimatisationBreach {
  /** Index into the itinerary. */
  index: number;
  reason: string;
}

/**
 * Days that break the rule. The night before day 1 is spent at day 1's start altitude (the
 * town the trip starts from). A night counts as rising when it is higher than the previous
 * night and that previous night was at or above 3,000 m.
 */
export function acclimatisationBreaches(days: readonly Pick<ItineraryDay, 'startAltitudeM' | 'endAltitudeM'>[]): AcclimatisationBreach[] {
  const { aboveM, maxGainM, maxRisingNights } = acclimatisationRule;
  const breaches: AcclimatisationBreach[] = [];
  let previousNight = days[0]?.startAltitudeM ?? 0;
  let risingNights = 0;
  days.forEach((day, index) => {
    const gain = day.endAltitudeM - previousNight;
    const rising = previousNight >= aboveM && gain > 0;
    risingNights = rising ? risingNights + 1 : 0;
    if (rising && gain > maxGainM) {
      breaches.push({ index, reason: `raises the sleeping altitude by ${gain} m (from ${previousNight} m to ${day.endAltitudeM} m); above ${aboveM} m the limit is ${maxGainM} m a day` });
    } else if (risingNights > maxRisingNights) {
      breaches.push({ index, reason: `is the ${risingNights}th night in a row higher than the one before above ${aboveM} m; a rest day (a night no higher than the previous one) is due after ${maxRisingNights}` });
    }
    previousNight = day.endAltitudeM;
  });
  return breaches;
}

/** Sentences about travel by road: their figures are not walking data. */
const byRoad = /\b(drive|drives|driving|driven|road|vehicle|jeep|taxi|bus|car)\b/i;
const distanceInProse = /\b\d+(?:[.,]\d+)?(?:\s*(?:to|-|–|or)\s*\d+(?:[.,]\d+)?)?\s*(?:km|kilomet(?:re|er)s?)\b/i;
const timeInProse = /\b\d+(?:\.\d+)?(?:\s*(?:to|-|–|or)\s*\d+(?:\.\d+)?)?\s*(?:hours?|hrs?)\b/i;

/**
 * Walking figures a day's description states but its data lacks: the table, the altitude
 * chart and the API read the data, so a figure only in prose is lost to them.
 */
export function figuresOnlyInProse(day: Pick<ItineraryDay, 'description' | 'distanceKm' | 'walkingHours'>): ('distanceKm' | 'walkingHours')[] {
  const onFoot = day.description.split(/(?<=[.!?])\s+/).filter((sentence) => !byRoad.test(sentence));
  const missing: ('distanceKm' | 'walkingHours')[] = [];
  if (day.distanceKm === undefined && onFoot.some((s) => distanceInProse.test(s))) missing.push('distanceKm');
  if (day.walkingHours === undefined && onFoot.some((s) => timeInProse.test(s))) missing.push('walkingHours');
  return missing;
}
