/**
 * The content rules the build enforces, each shown refusing a broken record: impossible dates,
 * unsafe gains in sleeping altitude, walking figures only in prose, high points below the day,
 * summits on one spot, records that cite only the operator, and the trekking-peak fee.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue, CatalogueError } from '../../domain/catalogue/index.ts';
import { stageName } from '../../service/markdown/trip.ts';
import { acclimatisationBreaches, figuresOnlyInProse } from '../../domain/schemas/itinerary.ts';
import { tripContent } from '../../domain/schemas/trip.ts';
import { isoDate } from '../../domain/schemas/vocabulary.ts';
import { fixtureContent, readContent } from '../helpers/content.ts';

const source = readContent(fixtureContent);
const trek = source.trips.find((t) => t.id === 'sample-trek')!.data;

/** A night-by-night itinerary from a start altitude and the altitudes of the nights. */
function days(start: number, nights: number[], extra: Record<number, object> = {}) {
  let previous = start;
  return nights.map((night, i) => {
    const day = { day: i + 1, title: `Day ${i + 1}`, from: `Camp ${i}`, to: `Camp ${i + 1}`, startAltitudeM: previous, endAltitudeM: night, description: 'A fixture day description.', ...extra[i + 1] };
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
      expect.stringMatching(/^itinerary\.1\.acclimatisationNote: day 2 raises the sleeping altitude by 900 m \(from 3800 m to 4700 m\)/),
    ]);
    expect(issues(days(3300, [3800, 4700, 4700], { 2: { acclimatisationNote: 'There is no campsite between the two; we rest a full day on arrival.' } }))).toEqual([]);
  });

  it('starts counting from the altitude day 1 starts at, and ignores gains from below 3,000 m', () => {
    expect(acclimatisationBreaches(days(3500, [4200]))).toEqual([expect.objectContaining({ index: 0 })]);
    expect(acclimatisationBreaches(days(2050, [3300, 3800]))).toEqual([]);
  });

  it('refuses a fifth rising night in a row above 3,000 m without a rest day', () => {
    expect(acclimatisationBreaches(days(3000, [3300, 3600, 3900, 4200, 4500]))).toEqual([{ index: 4, reason: expect.stringMatching(/5th night in a row/) }]);
    expect(acclimatisationBreaches(days(3000, [3300, 3600, 3900, 4200, 4200, 4500]))).toEqual([]);
  });

  it('accepts a justification only with enough words to publish', () => {
    expect(issues(days(3300, [4000], { 1: { acclimatisationNote: 'Fine.' } })).join()).toMatch(/acclimatisationNote: must explain/);
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
    expect(figuresOnlyInProse({ description: 'We drive about 200 km, 8 to 10 hours with stops, to Sankri.' })).toEqual([]);
  });
});

describe('high points', () => {
  it('refuses a high point that is not above both ends of the day', () => {
    expect(issues(days(2000, [2500], { 1: { highPoint: { name: 'Low col', altitudeM: 2400 } } })).join()).toMatch(/highPoint\.altitudeM: is 2400 m, not higher/);
    expect(issues(days(2000, [2500], { 1: { highPoint: { name: 'A pass', altitudeM: 2900 } } }))).toEqual([]);
  });

  it('counts a high point as part of the highest altitude reached', () => {
    const itinerary = days(2000, [2500], { 1: { highPoint: { name: 'A pass', altitudeM: 2900 } } });
    const result = tripContent.safeParse({ ...trek, durationDays: 1, summitAltitudeM: 2600, itinerary });
    expect(result.error?.issues.map((i) => i.message)).toEqual(['is 2600 m but the itinerary reaches 2900 m']);
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
    const broken = withPeak('other-peak', { coordinates: { latitude: 33.5, longitude: 77.5 } });
    expect(() => buildCatalogue(broken, 'https://example.test')).toThrow(CatalogueError);
    expect(() => buildCatalogue(broken, 'https://example.test')).toThrow(/sample-peak\.yaml: field "coordinates" gives the same coordinates \(33\.5, 77\.5\) of other-peak/);
  });

  it('refuses summits closer than 500 m, and accepts neighbours a kilometre apart', () => {
    expect(() => buildCatalogue(withPeak('other-peak', { coordinates: { latitude: 33.503, longitude: 77.5 } }), 'https://example.test')).toThrow(/sample-peak\.yaml: field "coordinates" gives coordinates only 334 m from those of other-peak/);
    expect(() => buildCatalogue(withPeak('other-peak', { coordinates: { latitude: 33.51, longitude: 77.5 } }), 'https://example.test')).not.toThrow();
  });

  it('accepts a peak with no coordinates when no source gives them', () => {
    const { coordinates: _c, ...rest } = source.peaks.find((p) => p.id === 'other-peak')!.data;
    const copy = readContent(fixtureContent);
    copy.peaks = copy.peaks.map((p) => (p.id === 'other-peak' ? { ...p, data: rest } : p));
    expect(buildCatalogue(copy, 'https://example.test').peaks.find((p) => p.id === 'other-peak')).not.toHaveProperty('coordinates');
  });

  it("refuses a peak or a trip whose only references are the operator's own pages", () => {
    const peak = withPeak('other-peak', { references: [{ title: 'Our dataset', url: 'https://theverticaltribe.com/peak-data/' }] });
    expect(() => buildCatalogue(peak, 'https://example.test')).toThrow(/other-peak\.yaml: field "references" lists only the operator's own pages/);
    const site = withPeak('other-peak', { references: [{ title: 'Our page', url: 'https://shop.example-operator.in/peaks' }] });
    site.site = { ...site.site, operatorDomains: ['example-operator.in'] };
    expect(() => buildCatalogue(site, 'https://example.test')).toThrow(/other-peak\.yaml: field "references" lists only/);
    const trip = readContent(fixtureContent);
    trip.trips = trip.trips.map((t) => (t.id === 'sample-trek' ? { ...t, data: { ...t.data, sources: [{ title: 'Our trek page', url: 'https://example.test/treks/sample-trek' }] } } : t));
    expect(() => buildCatalogue(trip, 'https://example.test')).toThrow(/sample-trek\.md: field "sources" lists only the operator's own pages/);
    const mixed = withPeak('other-peak', { references: [{ title: 'Our dataset', url: 'https://theverticaltribe.com/peak-data/' }, { title: 'A journal', url: 'https://example.org/journal' }] });
    expect(() => buildCatalogue(mixed, 'https://example.test')).not.toThrow();
  });

  it('charges a trekking peak the flat fee instead of an altitude band', () => {
    const catalogue = buildCatalogue(withPeak('other-peak', { feeCategory: 'trekking-peak' }), 'https://example.test');
    expect(catalogue.peaks.find((p) => p.id === 'other-peak')).toMatchObject({ imfBand: null, imfRoyaltyUsdPartyOf2: 100, feeCategory: 'trekking-peak' });
  });
});

describe('Markdown twin stages', () => {
  it('names a stage once, adding the places only when the title leaves them out', () => {
    expect(stageName({ title: 'Chika to Balu ka Ghera', from: 'Chika', to: 'Balu ka Ghera' })).toBe('Chika to Balu ka Ghera');
    expect(stageName({ title: 'Rest day', from: 'Leh', to: 'Leh' })).toBe('Rest day');
    expect(stageName({ title: 'Cross Hampta Pass to Shea Goru', from: 'Balu ka Ghera', to: 'Shea Goru' })).toBe('Cross Hampta Pass to Shea Goru (Balu ka Ghera to Shea Goru)');
  });
});
