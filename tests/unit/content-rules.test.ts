/**
 * The content rules the build enforces, each shown refusing a broken record: impossible dates,
 * unsafe gains in sleeping altitude, walking figures only in prose, high points below the day,
 * summits on one spot, records that cite only the operator, the trekking-peak fee, and a
 * trip's own contested facts.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue, CatalogueError } from '../../domain/catalogue/index.ts';
import { stageName, tripMarkdown } from '../../service/markdown/trip.ts';
import { tripContested } from '../../domain/catalogue/contested.ts';
import { acclimatisationBreaches, figuresOnlyInProse, gainAboveM } from '../../domain/schemas/itinerary.ts';
import { peakContent } from '../../domain/schemas/peak.ts';
import { bearingDeg, parseDistance, summaryGeographyProblems } from '../../domain/catalogue/summary-geography.ts';
import { gettingThereLines, gettingThereReferenceNumbers } from '../../domain/catalogue/getting-there.ts';
import { tripContent } from '../../domain/schemas/trip.ts';
import { isoDate } from '../../domain/schemas/vocabulary.ts';
import { fixtureContent, readContent, realContent } from '../helpers/content.ts';

const source = readContent(fixtureContent);
const trek = source.trips.find((t) => t.id === 'sample-trek')!.data;

/** A night-by-night itinerary from a start altitude and the altitudes of the nights. */
function days(start: number, nights: number[], extra: Record<number, object> = {}) {
  let previous = start;
  return nights.map((night, i) => {
    const day = {
      day: i + 1,
      title: `Day ${i + 1}`,
      from: `Camp ${i}`,
      to: `Camp ${i + 1}`,
      startAltitudeM: previous,
      endAltitudeM: night,
      description: 'A fixture day description.',
      ...extra[i + 1],
    };
    previous = night;
    return day;
  });
}

function issues(itinerary: object[]) {
  const result = tripContent.safeParse({ ...trek, durationDays: itinerary.length, summitAltitudeM: null, itinerary });
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('dates', () => {
  it('refuses impossible calendar dates given as strings, naming the value', () => {
    for (const value of ['2026-02-30', '2026-13-45', '2026-04-31', '2027-02-29']) {
      const result = isoDate.safeParse(value);
      expect(result.success, value).toBe(false);
      expect(result.error?.issues[0]?.message).toContain(`"${value}" is not a real date`);
    }
    expect(isoDate.parse('2028-02-29')).toBe('2028-02-29');
  });
});

describe('acclimatisation rule', () => {
  it('refuses a night more than 500 m above a night at or above 3,000 m, unless the day says why', () => {
    expect(issues(days(3300, [3800, 4700, 4700]))).toEqual([
      expect.stringMatching(
        /^itinerary\.1\.acclimatisationNote: day 2 breaks the acclimatisation rule: it raises the sleeping altitude by 900 m above 3000 m \(from 3800 m to 4700 m\), over the limit of 500 m a night\. Add/,
      ),
    ]);
    expect(
      issues(
        days(3300, [3800, 4700, 4700], {
          2: { acclimatisationNote: 'There is no campsite between the two; we rest a full day on arrival.' },
        }),
      ),
    ).toEqual([]);
  });

  it('starts counting from the altitude day 1 starts at, and counts only the gain above 3,000 m', () => {
    expect(acclimatisationBreaches(days(3500, [4200]))).toEqual([expect.objectContaining({ index: 0 })]);
    expect(acclimatisationBreaches(days(2050, [3300, 3800]))).toEqual([]);
    expect(gainAboveM(2050, 3300)).toBe(300);
    expect(gainAboveM(2960, 3970)).toBe(970);
    expect(gainAboveM(3200, 2900)).toBe(0);
  });

  it('refuses a night that starts below 3,000 m and ends more than 500 m above it (Tshoka to Dzongri)', () => {
    expect(acclimatisationBreaches(days(1780, [2195, 2960, 3970, 3970]))).toEqual([
      expect.objectContaining({
        index: 2,
        nights: 2,
        averageGainM: 485,
        reason: expect.stringMatching(/^raises the sleeping altitude by 970 m above 3000 m \(from 2960 m to 3970 m\)/),
      }),
    ]);
    expect(issues(days(2960, [3970]))).toEqual([
      expect.stringMatching(
        /^itinerary\.0\.acclimatisationNote: day 1 breaks the acclimatisation rule: it raises the sleeping altitude by 970 m above 3000 m/,
      ),
    ]);
  });

  it('counts every night above 3,000 m higher than the one before, including the first one above it', () => {
    const pinParvati = days(2174, [3100, 3285, 3560, 3755, 4107, 4107]);
    expect(acclimatisationBreaches(pinParvati)).toEqual([
      { index: 4, reason: expect.stringMatching(/5th night in a row/) },
    ]);
    expect(acclimatisationBreaches(days(3000, [3300, 3600, 3900, 4200, 4500]))).toEqual([
      { index: 4, reason: expect.stringMatching(/5th night in a row/) },
    ]);
    expect(acclimatisationBreaches(days(3000, [3300, 3600, 3900, 4200, 4200, 4500]))).toEqual([]);
  });

  it('accepts a rest day as the reason for a jump only when the average gain over those nights is at most 500 m', () => {
    const note = {
      acclimatisationNote: 'No campsite splits this climb, and the next day is a rest day at the same camp.',
    };
    expect(issues(days(2960, [3970, 3970], { 1: note }))).toEqual([]);
    expect(issues(days(3000, [4200, 4200], { 1: note }))).toEqual([
      expect.stringMatching(
        /^itinerary\.0\.acclimatisationNote: day 1 breaks the acclimatisation rule: it raises .*its note leans on a rest day, but the gain still averages 600 m a night over the jump and the 1 rest night/,
      ),
    ]);
    expect(issues(days(3000, [3700, 4000], { 1: note }))).toEqual([
      expect.stringMatching(/leans on a rest day, but no night after it is at or below this height/),
    ]);
    expect(
      issues(
        days(3000, [3700, 4000], {
          1: { acclimatisationNote: 'There is no campsite between the two, so the climb cannot be split.' },
        }),
      ),
    ).toEqual([]);
  });

  it('says a jump without a note fails even when the rest nights after it bring the average within the limit', () => {
    expect(issues(days(2960, [3970, 3970]))).toEqual([
      'itinerary.0.acclimatisationNote: day 1 breaks the acclimatisation rule: it raises the sleeping altitude by 970 m above 3000 m (from 2960 m to 3970 m), over the limit of 500 m a night. Add an acclimatisation night or a lower camp, or give the published reason in acclimatisationNote (the rest night after it brings the gain down to 485 m a night on average, so it can be that reason); see docs/editing-content.md',
    ]);
    expect(issues(days(3000, [4200, 4200, 4100]))).toEqual([
      expect.stringMatching(
        /\(the 2 rest nights after it bring the gain down to 400 m a night on average, so they can be that reason\)/,
      ),
    ]);
    expect(issues(days(3000, [4200, 4200]))).toEqual([
      expect.stringMatching(
        /\(the rest night after it still leaves 600 m a night on average, so a rest day alone is not a reason\)/,
      ),
    ]);
  });

  it('refuses a justification that cites a source the trip does not list', () => {
    const note = {
      acclimatisationNote: 'There is no campsite between the two, so the climb cannot be split.',
      acclimatisationSource: 'https://example.org/not-listed',
    };
    expect(issues(days(3000, [3700], { 1: note }))).toEqual([
      expect.stringMatching(
        /^itinerary\.0\.acclimatisationSource: day 1 cites https:\/\/example\.org\/not-listed, which is not among the trip's sources/,
      ),
    ]);
  });

  it('accepts a justification only with enough words to publish', () => {
    expect(issues(days(3300, [4000], { 1: { acclimatisationNote: 'Fine.' } })).join()).toMatch(
      /acclimatisationNote: must explain/,
    );
  });
});

describe('walking figures', () => {
  it('refuses a distance or a walking time given only in the description', () => {
    const prose = 'A long walk of about 7 km that takes most groups 4 to 6 hours.';
    expect(figuresOnlyInProse({ description: prose })).toEqual(['distanceKm', 'walkingHours']);
    expect(figuresOnlyInProse({ description: prose, distanceKm: 7, walkingHours: 5 })).toEqual([]);
    expect(issues(days(2000, [2500], { 1: { description: prose } }))).toEqual([
      expect.stringMatching(/^itinerary\.0\.distanceKm: day 1's description gives a distance/),
      expect.stringMatching(/^itinerary\.0\.walkingHours: day 1's description gives a walking time/),
    ]);
  });

  it('leaves figures of travel by road alone', () => {
    expect(figuresOnlyInProse({ description: 'We drive about 200 km, 8 to 10 hours with stops, to Sankri.' })).toEqual(
      [],
    );
  });
});

describe('high points', () => {
  it('refuses a high point that is not above both ends of the day', () => {
    expect(issues(days(2000, [2500], { 1: { highPoint: { name: 'Low col', altitudeM: 2400 } } })).join()).toMatch(
      /highPoint\.altitudeM: must be higher than both ends of the day \(it is 2400 m; the day starts at 2000 m and ends at 2500 m\)/,
    );
    expect(issues(days(2000, [2500], { 1: { highPoint: { name: 'A pass', altitudeM: 2900 } } }))).toEqual([]);
  });

  it('counts a high point as part of the highest altitude reached', () => {
    const itinerary = days(2000, [2500], { 1: { highPoint: { name: 'A pass', altitudeM: 2900 } } });
    const result = tripContent.safeParse({ ...trek, durationDays: 1, summitAltitudeM: 2600, itinerary });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'must be at least 2900 m, the highest the itinerary reaches (it is 2600 m)',
    ]);
  });
});

describe('cross-record checks', () => {
  function withPeak(id: string, change: object) {
    const copy = readContent(fixtureContent);
    const i = copy.peaks.findIndex((p) => p.id === id);
    copy.peaks[i] = { ...copy.peaks[i]!, data: { ...copy.peaks[i]!.data, ...change } };
    return copy;
  }

  it('refuses two peaks on the same coordinates, naming the file and the other peak', () => {
    const broken = withPeak('other-peak', {
      coordinates: { latitude: 33.5, longitude: 77.5, source: 'https://example.org/other-peak' },
    });
    expect(() => buildCatalogue(broken, 'https://example.test')).toThrow(CatalogueError);
    expect(() => buildCatalogue(broken, 'https://example.test')).toThrow(
      /sample-peak\.yaml: field "coordinates" gives the same coordinates \(33\.5, 77\.5\) of other-peak/,
    );
  });

  it('refuses summits closer than 500 m, and accepts neighbours a kilometre apart', () => {
    expect(() =>
      buildCatalogue(
        withPeak('other-peak', {
          coordinates: { latitude: 33.503, longitude: 77.5, source: 'https://example.org/other-peak' },
        }),
        'https://example.test',
      ),
    ).toThrow(/sample-peak\.yaml: field "coordinates" gives coordinates only 334 m from those of other-peak/);
    expect(() =>
      buildCatalogue(
        withPeak('other-peak', {
          coordinates: { latitude: 33.512, longitude: 77.5, source: 'https://example.org/other-peak' },
        }),
        'https://example.test',
      ),
    ).not.toThrow();
  });

  it('publishes no position for a peak whose position is unknown, and says why', () => {
    const record = buildCatalogue(
      withPeak('other-peak', { coordinates: { unknown: 'No source we could read gives the summit position.' } }),
      'https://example.test',
    ).peaks.find((p) => p.id === 'other-peak');
    expect(record).not.toHaveProperty('coordinates');
    expect(record).not.toHaveProperty('coordinatesSource');
    expect(record?.coordinatesUnknownReason).toBe('No source we could read gives the summit position.');
  });

  it("refuses a peak or a trip whose only references are the operator's own pages", () => {
    const peak = withPeak('other-peak', {
      references: [{ title: 'Our dataset', url: 'https://theverticaltribe.com/peak-data/' }],
    });
    expect(() => buildCatalogue(peak, 'https://example.test')).toThrow(
      /other-peak\.yaml: field "references" lists only the operator's own pages/,
    );
    const site = withPeak('other-peak', {
      references: [{ title: 'Our page', url: 'https://shop.example-operator.in/peaks' }],
    });
    site.site = { ...site.site, operatorDomains: ['example-operator.in'] };
    expect(() => buildCatalogue(site, 'https://example.test')).toThrow(
      /other-peak\.yaml: field "references" lists only/,
    );
    const trip = readContent(fixtureContent);
    trip.trips = trip.trips.map((t) =>
      t.id === 'sample-trek'
        ? {
            ...t,
            data: { ...t.data, sources: [{ title: 'Our trek page', url: 'https://example.test/treks/sample-trek' }] },
          }
        : t,
    );
    expect(() => buildCatalogue(trip, 'https://example.test')).toThrow(
      /sample-trek\.md: field "sources" lists only the operator's own pages/,
    );
    const mixed = withPeak('other-peak', {
      references: [
        { title: 'Our dataset', url: 'https://theverticaltribe.com/peak-data/' },
        { title: 'A journal', url: 'https://example.org/journal' },
      ],
    });
    expect(() => buildCatalogue(mixed, 'https://example.test')).not.toThrow();
  });

  it('charges a trekking peak the flat fee instead of an altitude band', () => {
    const catalogue = buildCatalogue(withPeak('other-peak', { feeCategory: 'trekking-peak' }), 'https://example.test');
    expect(catalogue.peaks.find((p) => p.id === 'other-peak')).toMatchObject({
      imfBand: null,
      imfRoyaltyUsdPartyOf2: 100,
      feeCategory: 'trekking-peak',
    });
  });
});

describe('peak coordinates', () => {
  const raw = { ...source.peaks.find((p) => p.id === 'other-peak')!.data };
  const check = (coordinates: unknown, extra: object = {}) => {
    const result = peakContent.safeParse({ ...raw, coordinates, ...extra });
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('refuses a peak without coordinates, and a bare unknown that does not say why', () => {
    expect(check(undefined)).toEqual([
      expect.stringMatching(/^coordinates: is required: the summit's latitude, longitude and source/),
    ]);
    expect(check('unknown')).toEqual([
      expect.stringMatching(/^coordinates: is "unknown" without saying why; write coordinates: \{ unknown: "…" \}/),
    ]);
    expect(check({ unknown: 'not known' })).toEqual([
      expect.stringMatching(/^coordinates\.unknown: must say why no position is given, in a sentence/),
    ]);
    expect(check({ unknown: 'No source we read gives it.', latitude: 30.5 })).toEqual([
      expect.stringMatching(/^coordinates: .*"latitude"/),
    ]);
    expect(check({ unknown: 'No source we could read gives the summit position.' })).toEqual([]);
  });

  it('refuses fewer than three decimals, and keeps the zeros of a figure written in quotes', () => {
    expect(check({ latitude: 31.02, longitude: 78.57, source: 'https://example.org/other-peak' })).toEqual([
      expect.stringMatching(/^coordinates\.latitude: is 31\.02, given to 2 decimal\(s\); a summit needs at least 3/),
      expect.stringMatching(/^coordinates\.longitude: is 78\.57, given to 2 decimal\(s\)/),
    ]);
    expect(check({ latitude: '33.980', longitude: 76.02167, source: 'https://example.org/other-peak' })).toEqual([]);
    expect(
      peakContent.parse({
        ...raw,
        coordinates: { latitude: '33.980', longitude: 76.02167, source: 'https://example.org/other-peak' },
      }).coordinates,
    ).toEqual({ latitude: 33.98, longitude: 76.02167, source: 'https://example.org/other-peak' });
  });

  it('refuses coordinates, landmarks or accounts whose source is not among the references', () => {
    expect(check({ latitude: 30.512, longitude: 79.534, source: 'https://example.org/elsewhere' })).toEqual([
      expect.stringMatching(/^coordinates\.source: https:\/\/example\.org\/elsewhere is not among the references/),
    ]);
    const contested = [
      {
        fact: 'firstAscent',
        accounts: [
          { says: 'One party', source: 'https://example.org/other-peak' },
          { says: 'Another party', source: 'https://example.org/elsewhere' },
        ],
      },
    ];
    expect(check({ unknown: 'No source we could read gives the summit position.' }, { contested })).toEqual([
      expect.stringMatching(
        /^contested\.0\.accounts\.1\.source: https:\/\/example\.org\/elsewhere is not among the references/,
      ),
    ]);
  });
});

describe('contested facts', () => {
  const raw = {
    ...source.peaks.find((p) => p.id === 'other-peak')!.data,
    coordinates: { unknown: 'No source we could read gives the summit position.' },
  };
  const references = [...raw.references, { title: 'A second account', url: 'https://example.org/second' }];

  it('needs two accounts, each from its own source', () => {
    const one = peakContent.safeParse({
      ...raw,
      references,
      contested: [{ fact: 'altitudeM', accounts: [{ says: '7,050 m', source: 'https://example.org/other-peak' }] }],
    });
    expect(one.error?.issues.map((i) => i.message)).toEqual([
      'a contested fact needs at least two accounts, each from its own source',
    ]);
    const same = peakContent.safeParse({
      ...raw,
      references,
      contested: [
        {
          fact: 'altitudeM',
          accounts: [
            { says: '7,050 m', source: 'https://example.org/other-peak' },
            { says: '7,060 m', source: 'https://example.org/other-peak' },
          ],
        },
      ],
    });
    expect(same.error?.issues.map((i) => i.message)).toEqual([
      'two accounts cite the same source; each account of a contested fact comes from its own source',
    ]);
  });

  it('publishes every account with its reference, keeping altitudeM an integer', () => {
    const copy = readContent(fixtureContent);
    copy.peaks = copy.peaks.map((p) =>
      p.id === 'other-peak'
        ? {
            ...p,
            data: peakContent.parse({
              ...raw,
              references,
              contested: [
                {
                  fact: 'altitudeM',
                  accounts: [
                    { says: '7,050 m', source: 'https://example.org/other-peak' },
                    { says: '7,060 m', source: 'https://example.org/second' },
                  ],
                },
              ],
            }),
          }
        : p,
    );
    const record = buildCatalogue(copy, 'https://example.test').peaks.find((p) => p.id === 'other-peak')!;
    expect(record.altitudeM).toBe(7050);
    expect(record.contested).toEqual([
      {
        fact: 'altitudeM',
        accounts: [
          { says: '7,050 m', source: { title: 'Fixture', url: 'https://example.org/other-peak' } },
          { says: '7,060 m', source: { title: 'A second account', url: 'https://example.org/second' } },
        ],
      },
    ]);
  });
});

describe('distances and directions in summaries', () => {
  const peak = (
    id: string,
    name: string,
    latitude: number,
    longitude: number,
    summary: string,
    extra: object = {},
  ) => ({
    id,
    filePath: `content/peaks/${id}.yaml`,
    data: {
      ...source.peaks[0]!.data,
      name,
      summary,
      coordinates: { latitude, longitude, source: 'https://example.org/x' },
      ...extra,
    },
  });
  // Indrasan and Deo Tibba as the sources place them: Deo Tibba about 2.1 km south-west.
  const indrasan = peak('indrasan', 'Indrasan', 32.21306, 77.39611, 'The highest summit of the range.');

  it('reads written numbers and computes bearings', () => {
    expect(parseDistance('two and a half')).toBe(2.5);
    expect(parseDistance('15')).toBe(15);
    expect(
      Math.round(bearingDeg({ latitude: 30.37583, longitude: 79.97083 }, { latitude: 30.313, longitude: 79.777 })),
    ).toBe(249);
  });

  it('refuses a distance more than 15% from the coordinates, naming the file and the sentence', () => {
    const deo = peak('deo-tibba', 'Deo Tibba', 32.2, 77.38, 'It stands about 15 km south-west of Indrasan. A dome.');
    expect(summaryGeographyProblems([indrasan, deo])).toEqual([
      expect.stringMatching(
        /^content\/peaks\/deo-tibba\.yaml: field "summary": the sentence "It stands about 15 km south-west of Indrasan\." says 15 km from Indrasan, but the coordinates put the two 2\.\d\d km apart/,
      ),
    ]);
    expect(
      summaryGeographyProblems([
        indrasan,
        peak('deo-tibba', 'Deo Tibba', 32.2, 77.38, 'It stands about two kilometres south-west of Indrasan.'),
      ]),
    ).toEqual([]);
  });

  it('refuses a direction more than one compass point off', () => {
    const deo = peak('deo-tibba', 'Deo Tibba', 32.2, 77.38, 'It stands about two kilometres north-east of Indrasan.');
    expect(summaryGeographyProblems([indrasan, deo])).toEqual([
      expect.stringMatching(/says north-east of Indrasan, but the coordinates put it south-west/),
    ]);
    expect(
      summaryGeographyProblems([indrasan, peak('deo-tibba', 'Deo Tibba', 32.2, 77.38, 'It stands north of Indrasan.')]),
    ).toEqual([expect.stringMatching(/says north of Indrasan, but the coordinates put it south-west/)]);
  });

  it('refuses a distance it cannot check: no place named, or a place without coordinates', () => {
    expect(
      summaryGeographyProblems([
        indrasan,
        peak('deo-tibba', 'Deo Tibba', 32.2, 77.38, 'Its neighbour stands about 3 km to the south.'),
      ]),
    ).toEqual([expect.stringMatching(/gives a distance \(3 km\) without a place the build knows/)]);
    const unknown = {
      ...indrasan,
      data: { ...indrasan.data, coordinates: { unknown: 'No source we could read gives the summit position.' } },
    };
    expect(
      summaryGeographyProblems([
        unknown,
        peak('deo-tibba', 'Deo Tibba', 32.2, 77.38, 'It stands about two kilometres south-west of Indrasan.'),
      ]),
    ).toEqual([expect.stringMatching(/gives a distance to Indrasan, but Indrasan has no coordinates/)]);
  });

  it('measures from a landmark of the record, and leaves lengths and unknown places alone', () => {
    const nandaDevi = {
      name: 'Nanda Devi',
      coordinates: { latitude: 30.37583, longitude: 79.97083, source: 'https://example.org/x' },
    };
    expect(
      summaryGeographyProblems([
        peak('trishul', 'Trishul', 30.313, 79.777, 'About 20 km west-south-west of Nanda Devi.', {
          landmarks: [nandaDevi],
        }),
      ]),
    ).toEqual([]);
    expect(
      summaryGeographyProblems([
        peak('trishul', 'Trishul', 30.313, 79.777, 'About 15 km west-south-west of Nanda Devi.', {
          landmarks: [nandaDevi],
        }),
      ]),
    ).toEqual([expect.stringMatching(/says 15 km from Nanda Devi, but the coordinates put the two 19\.\d km apart/)]);
    expect(
      summaryGeographyProblems([
        peak('kun', 'Kun', 34.013, 76.057, 'Across a plateau about four kilometres long, south of Kargil.'),
      ]),
    ).toEqual([]);
  });
});

describe('getting there', () => {
  it('reads the six parts in order, with the numbers of the references they come from', () => {
    expect(gettingThereLines(trek).map((l) => l.label)).toEqual([
      'Nearest airport',
      'Nearest railhead',
      'By road',
      'Pickup',
      'The night before',
      'After the trip',
    ]);
    expect(gettingThereLines(trek)[0]!.text).toBe('Fixture airport, about 50 km from the start.');
    expect(gettingThereReferenceNumbers(trek)).toEqual([1]);
  });

  it('refuses a trip without directions, or directions from a source the trip does not list', () => {
    const { gettingThere: _g, ...rest } = trek;
    expect(tripContent.safeParse(rest).error?.issues.map((i) => i.path.join('.'))).toEqual(['gettingThere']);
    const wrong = tripContent.safeParse({
      ...trek,
      gettingThere: { ...trek.gettingThere, sources: ['https://example.org/elsewhere'] },
    });
    expect(wrong.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      expect.stringMatching(
        /^gettingThere\.sources\.0: https:\/\/example\.org\/elsewhere is not among the trip's sources/,
      ),
    ]);
    const thin = tripContent.safeParse({ ...trek, gettingThere: { ...trek.gettingThere, pickup: '' } });
    expect(thin.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      expect.stringMatching(/^gettingThere\.pickup: must say where and when the group meets on day 1/),
    ]);
  });
});

describe('Markdown twin stages', () => {
  it('names a stage once, adding the places only when the title leaves them out', () => {
    expect(stageName({ title: 'Chika to Balu ka Ghera', from: 'Chika', to: 'Balu ka Ghera' })).toBe(
      'Chika to Balu ka Ghera',
    );
    expect(stageName({ title: 'Rest day', from: 'Leh', to: 'Leh' })).toBe('Rest day');
    expect(stageName({ title: 'Cross Hampta Pass to Shea Goru', from: 'Balu ka Ghera', to: 'Shea Goru' })).toBe(
      'Cross Hampta Pass to Shea Goru (Balu ka Ghera to Shea Goru)',
    );
  });
});

describe("a trip's own contested facts", () => {
  const real = buildCatalogue(readContent(realContent), 'https://example.test');
  const hemkund = real.trips.find((t) => t.trip.slug === 'valley-of-flowers-trek')!;

  it("refuses an account whose source is not among the trip's sources, naming the field", () => {
    const contested = [
      {
        fact: 'summitAltitudeM',
        accounts: [
          { says: '4,329 m', source: trek.sources[0]!.url },
          { says: '4,600 m', source: 'https://example.org/not-a-source' },
        ],
      },
    ];
    const result = tripContent.safeParse({ ...trek, contested });
    expect(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'contested.0.accounts.1.source: https://example.org/not-a-source is not among the sources; add it there or cite one of them',
    ]);
  });

  it("shows every source's height of Hemkund on the trip's Markdown twin, the main figure kept", () => {
    expect(hemkund.trip.summitAltitudeM).toBe(4329);
    const text = tripMarkdown(real, hemkund, { state: 'off' });
    expect(text).toMatch(
      /^- \*\*Highest point:\*\* the sources differ\. indiantravelportal\.com: 4,329 m for Hemkund; lonelyplanet\.com: 4,600 m; Wikipedia: 4,572 m \(15,000 ft\), which it attributes to the Survey of India\.$/m,
    );
    expect(tripContested(hemkund.content).map((c) => c.accounts.map((a) => a.source.url))).toEqual([
      hemkund.content.contested![0]!.accounts.map((a) => a.source),
    ]);
  });
});
