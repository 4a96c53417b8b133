/**
 * The social cards' words measured where Satori sets them: inside the text area above the ridge,
 * on the lines they are given, each figure with its unit. Black Peak's card once ran past the
 * right edge ("…summit 6,3") and wrapped "m" onto a line of its own.
 */
import { describe, expect, it } from 'vitest';
import type { TripPage } from '../../domain/catalogue/index.ts';
import { cardTextArea, tripCardWords } from '../../src/components/social-card.ts';
import {
  assertSocialCardTextFits,
  cardTextProblems,
  socialCardTextProblems,
} from '../../src/components/social-card-text-check.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

const catalogue = loadCatalogue(realContent);
const trip = (slug: string) => {
  const page = catalogue.trips.find((t) => t.trip.slug === slug);
  if (!page) throw new Error(`no trip ${slug}`);
  return page;
};

describe('social card words', () => {
  it("fit every card of the catalogue: the site's and each trip's", async () => {
    expect(await socialCardTextProblems(catalogue)).toEqual([]);
  }, 60_000);

  it("keep Black Peak's facts inside the card, with 6,387 m on one line", async () => {
    const words = tripCardWords(catalogue, trip('black-peak-expedition'));
    expect(words.facts.text).toContain('6,387\u00a0m');
    expect(words.facts.text).toContain('15\u00a0days');
    expect(await cardTextProblems(words)).toEqual([]);
    expect(cardTextArea.right).toBeLessThanOrEqual(1200 - 72);
  });

  it('stop the build naming the trip whose words would be cut or wrapped', async () => {
    const long: TripPage = {
      ...trip('black-peak-expedition'),
      trip: {
        ...trip('black-peak-expedition').trip,
        slug: 'very-long-expedition',
        name: 'The Very Long Named Traverse of Every High Col Between Two Distant Valleys of Garhwal',
      },
    };
    const found = await socialCardTextProblems({ ...catalogue, trips: [...catalogue.trips, long] });
    expect(found.map((f) => f.card)).toEqual(['very-long-expedition']);
    expect(found[0]?.problems.join('\n')).toMatch(/the title ".*" takes 3 lines, at most 2 fit/);
    await expect(assertSocialCardTextFits({ ...catalogue, trips: [...catalogue.trips, long] })).rejects.toThrow(
      /Social card of very-long-expedition:\n {2}- the title/,
    );
  }, 60_000);

  it('name a word wider than its box and a unit parted from its figure', async () => {
    const words = tripCardWords(catalogue, trip('hampta-pass-trek'));
    const problems = await cardTextProblems({
      ...words,
      lines: [{ ...words.lines[0]!, text: 'KulluAndLahaulHimachalPradeshIndiaWrittenWithoutASingleSpaceOrHyphen' }],
      facts: { ...words.facts, text: 'Moderate · 5 days · Hampta Pass 4,270 m' },
    });
    expect(problems).toContainEqual(
      expect.stringMatching(/^the word "KulluAndLahaul.*" of the line 1 is \d+ px wide, its box 1056 px$/),
    );
    expect(problems).toContainEqual(expect.stringContaining('parts the unit "m" from its figure'));
    expect(problems).toContainEqual(expect.stringContaining('parts the unit "days" from its figure'));
  }, 60_000);
});
