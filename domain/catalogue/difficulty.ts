/**
 * What each published difficulty band means, and the plain answer to "is this for beginners?"
 * that follows from it. One place, so /treks, /expeditions, every trip page and the Markdown
 * twins say the same.
 */
import type { Trip } from '../schemas/trip.ts';

export const difficultyMeaning: Record<Trip['difficulty'], string> = {
  Easy: 'Short days on good trails; suits fit beginners.',
  Moderate: 'Longer days and some rough ground; fine for a first high-altitude trek with training.',
  Difficult: 'Long days, high passes or snow, and steep loose ground; needs a previous trek.',
  'Very Difficult': 'Glacier travel or summit climbs with technical sections; needs experience or a course.',
};

/** The one-line verdict for a beginner, by band; the trip's own experience text follows it. */
const beginnerVerdict: Record<Trip['difficulty'], string> = {
  Easy: 'Yes. A fit beginner with no Himalayan experience can do this trip.',
  Moderate: 'Yes, if you are fit and train for it: this can be a first high-altitude trip.',
  Difficult: 'No, not as a first Himalayan trip: do an easier high-altitude trek first.',
  'Very Difficult': 'No. This is for people with earlier high-altitude experience or mountaineering training.',
};

/** The plain answer a beginner is looking for: the band's verdict, then what this trip asks for. */
export function beginnerAnswer(difficulty: Trip['difficulty'], experience: string): string {
  return `${beginnerVerdict[difficulty]} ${experience.trim()}`;
}
