/**
 * One day of a trip's itinerary, and the rules a whole itinerary must keep: safe gains in
 * sleeping altitude, and no walking figure that lives only in the prose.
 */
import { z } from 'astro/zod';

export const altitudeM = z
  .number()
  .int({ error: (issue) => `must be a whole number of metres (it is ${String(issue.input)})` })
  .min(0)
  .max(8900);

export const itineraryDay = z
  .strictObject({
    day: z.number().int().min(1),
    title: z.string().min(3),
    from: z.string().min(2),
    to: z.string().min(2),
    startAltitudeM: altitudeM.describe("Where the day starts: the previous night's place."),
    endAltitudeM: altitudeM.describe('Where the night is spent. The acclimatisation rule reads this altitude.'),
    highPoint: z
      .object({ name: z.string().min(2), altitudeM })
      .optional()
      .describe(
        'The highest place reached on the day (a pass, a summit, a lake), only when higher than both ends of the day.',
      ),
    distanceKm: z.number().min(0).max(60).optional(),
    walkingHours: z.number().min(0).max(18).optional(),
    description: z.string().min(20),
    acclimatisationNote: z
      .string()
      .min(40, { error: 'must explain, in a sentence or two, why this gain is safe (at least 40 characters)' })
      .optional()
      .describe('Published justification for a day that breaks the acclimatisation rule; shown on the page.'),
    acclimatisationSource: z
      .url({ error: "must be the full web address of one of the trip's sources" })
      .optional()
      .describe('The trip source the justification rests on (one of `sources`); the page links it beside the note.'),
  })
  .superRefine((day, ctx) => {
    if (day.highPoint && day.highPoint.altitudeM <= Math.max(day.startAltitudeM, day.endAltitudeM)) {
      ctx.addIssue({
        code: 'custom',
        path: ['highPoint', 'altitudeM'],
        message: `must be higher than both ends of the day (it is ${day.highPoint.altitudeM} m; the day starts at ${day.startAltitudeM} m and ends at ${day.endAltitudeM} m): give a high point only when the day climbs above both`,
      });
    }
  });
export type ItineraryDay = z.infer<typeof itineraryDay>;

/**
 * The Wilderness Medical Society's guidance on gradual ascent (Luks et al., 2024 update):
 * once above 3,000 m, raise the sleeping altitude by no more than about 500 m a day, and take
 * a rest day (no higher night) every three to four days of gains.
 */
const acclimatisationRule = {
  /** Gains in sleeping altitude count from this altitude up. */
  aboveM: 3000,
  /** Largest rise in sleeping altitude above `aboveM` in one night. */
  maxGainM: 500,
  /** Nights in a row above `aboveM`, each higher than the one before, before a rest day is due. */
  maxRisingNights: 4,
} as const;

export interface AcclimatisationBreach {
  /** Index into the itinerary. */
  index: number;
  reason: string;
  /**
   * For a gain: the nights from this one through the rest nights straight after it (none higher),
   * and the gain above 3,000 m averaged over them. A rest day justifies the jump only when that
   * average stays at or under the daily limit.
   */
  nights?: number;
  averageGainM?: number;
}

type Night = Pick<ItineraryDay, 'startAltitudeM' | 'endAltitudeM'>;

/** The part of a night's rise that lies above 3,000 m, whatever the night before. */
export function gainAboveM(previousNight: number, night: number): number {
  const { aboveM } = acclimatisationRule;
  return night > aboveM ? Math.max(0, night - Math.max(previousNight, aboveM)) : 0;
}

/**
 * Days that break the rule. The night before day 1 is spent at day 1's start altitude (the
 * town the trip starts from). A night counts as gained from 3,000 m up, so a day from 2,960 m to
 * 3,970 m gains 970 m; a night counts as rising when it is above 3,000 m and higher than the one
 * before, wherever that one was.
 */
export function acclimatisationBreaches(days: readonly Night[]): AcclimatisationBreach[] {
  const { aboveM, maxGainM, maxRisingNights } = acclimatisationRule;
  const breaches: AcclimatisationBreach[] = [];
  let previousNight = days[0]?.startAltitudeM ?? 0;
  let risingNights = 0;
  days.forEach((day, index) => {
    const night = day.endAltitudeM;
    const gain = gainAboveM(previousNight, night);
    risingNights = night > aboveM && night > previousNight ? risingNights + 1 : 0;
    if (gain > maxGainM) {
      let restNights = 0;
      while (index + restNights + 1 < days.length && days[index + restNights + 1]!.endAltitudeM <= night)
        restNights += 1;
      const nights = restNights + 1;
      const averageGainM = Math.round(gain / nights);
      breaches.push({
        index,
        nights,
        averageGainM,
        reason: `raises the sleeping altitude by ${gain} m above ${aboveM} m (from ${previousNight} m to ${night} m), over the limit of ${maxGainM} m a night`,
      });
    } else if (risingNights > maxRisingNights) {
      breaches.push({
        index,
        reason: `is the ${risingNights}th night in a row above ${aboveM} m higher than the one before; a rest day (a night no higher than the previous one) is due after ${maxRisingNights}`,
      });
    }
    previousNight = night;
  });
  return breaches;
}

/**
 * What the rest nights straight after a jump allow, for an editor choosing how to fix it: a rest
 * day can be the published reason only when the gain averaged over the jump and those nights is
 * within the limit. Nothing when no rest night follows.
 */
export function restNightsAfter(breach: AcclimatisationBreach): string | undefined {
  if (breach.nights === undefined || breach.averageGainM === undefined || breach.nights < 2) return undefined;
  const rest = breach.nights - 1;
  const [nights, s, they] = rest === 1 ? ['the rest night', 's', 'it'] : [`the ${rest} rest nights`, '', 'they'];
  return breach.averageGainM <= acclimatisationRule.maxGainM
    ? `${nights} after it bring${s} the gain down to ${breach.averageGainM} m a night on average, so ${they} can be that reason`
    : `${nights} after it still leave${s} ${breach.averageGainM} m a night on average, so a rest day alone is not a reason`;
}

/** A justification that leans on a rest day (or a day with no gain in sleeping height). */
const leansOnRest = /\b(rest|acclimati[sz]ation)\s+days?\b|no gain in sleeping/i;

/**
 * Why a day's published justification does not hold: it leans on a rest day, but the gain
 * averaged over the jump and the rest nights after it is still above the daily limit (or no rest
 * night follows at all). WMS: an extra night offsets a forced jump only if the average stays at or
 * under 500 m a night.
 */
export function restDayFallsShort(breach: AcclimatisationBreach, note: string): string | undefined {
  if (breach.averageGainM === undefined || !leansOnRest.test(note)) return undefined;
  const { maxGainM } = acclimatisationRule;
  if (breach.nights === 1)
    return `leans on a rest day, but no night after it is at or below this height; add the rest day or give another reason`;
  if (breach.averageGainM <= maxGainM) return undefined;
  return `leans on a rest day, but the gain still averages ${breach.averageGainM} m a night over the jump and the ${breach.nights! - 1} rest night(s) after it, above the ${maxGainM} m a rest day must bring it to; add a night or a lower camp`;
}

/** Sentences about travel by road: their figures are not walking data. */
const byRoad = /\b(drive|drives|driving|driven|road|vehicle|jeep|taxi|bus|car)\b/i;
const distanceInProse = /\b\d+(?:[.,]\d+)?(?:\s*(?:to|-|–|or)\s*\d+(?:[.,]\d+)?)?\s*(?:km|kilomet(?:re|er)s?)\b/i;
const timeInProse = /\b\d+(?:\.\d+)?(?:\s*(?:to|-|–|or)\s*\d+(?:\.\d+)?)?\s*(?:hours?|hrs?)\b/i;

/**
 * Walking figures a day's description states but its data lacks: the table, the altitude
 * chart and the API read the data, so a figure only in prose is lost to them.
 */
export function figuresOnlyInProse(
  day: Pick<ItineraryDay, 'description' | 'distanceKm' | 'walkingHours'>,
): ('distanceKm' | 'walkingHours')[] {
  const onFoot = day.description.split(/(?<=[.!?])\s+/).filter((sentence) => !byRoad.test(sentence));
  const missing: ('distanceKm' | 'walkingHours')[] = [];
  if (day.distanceKm === undefined && onFoot.some((s) => distanceInProse.test(s))) missing.push('distanceKm');
  if (day.walkingHours === undefined && onFoot.some((s) => timeInProse.test(s))) missing.push('walkingHours');
  return missing;
}
