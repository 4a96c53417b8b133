/**
 * The generated pictures of a trip: the illustration's ridge drawn from the itinerary, its alt
 * text, and the social cards rendered to 1200x630 PNG with the words drawn as paths from the
 * packaged font (the build machine may have no system font at all).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cardRidge, rasterise, siteSocialCardSvg, tripSocialCardSvg } from '../../src/components/social-card.ts';
import {
  illustrationAlt,
  illustrationColours,
  illustrationSizes,
  steepestFlank,
  summitRange,
  tripLandscape,
} from '../../src/components/trip-illustration.ts';
import { tripFactsLine } from '../../domain/catalogue/trip-facts.ts';
import { siteSocialImageAlt, socialImageAlt } from '../../domain/page/trip-images.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

const catalogue = loadCatalogue(realContent);
const trip = (slug: string) => {
  const page = catalogue.trips.find((t) => t.trip.slug === slug);
  if (!page) throw new Error(`no trip ${slug}`);
  return page;
};

/** Every number of a path's `d`, as x,y pairs. */
const pairs = (d: string) => {
  const n = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
  return n.flatMap((_, i) => (i % 2 === 0 ? [[n[i] ?? 0, n[i + 1] ?? 0] as const] : []));
};

/**
 * The outline of a ridge as drawn, from its first point to its last (the straight edges down to
 * the foot of the picture left out): lines as they are, each curve as 24 short lines.
 */
function outline(d: string): [number, number][] {
  const tokens = d.match(/[MLCZ]|-?\d+(?:\.\d+)?/g) ?? [];
  const points: [number, number][] = [];
  let command = '';
  for (let i = 0; i < tokens.length;) {
    const token = tokens[i]!;
    if (/[MLCZ]/.test(token)) {
      command = token;
      i += 1;
      continue;
    }
    const n = tokens.slice(i, i + (command === 'C' ? 6 : 2)).map(Number);
    i += n.length;
    if (command === 'C') {
      const [x0, y0] = points.at(-1)!;
      const [x1, y1, x2, y2, x3, y3] = n as [number, number, number, number, number, number];
      for (let k = 1; k <= 24; k++) {
        const t = k / 24;
        const u = 1 - t;
        points.push([
          u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
          u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3,
        ]);
      }
    } else points.push([n[0]!, n[1]!]);
  }
  // M0 <foot>, L0 <first>, …, L<width> <last>, L<width> <foot>: the ridge is between.
  return points.slice(1, -2);
}

/** The steepest stretch of an outline, as rise over run (Infinity for a vertical one). */
function steepest(points: readonly [number, number][]): { slope: number; at: number } {
  let worst = { slope: 0, at: 0 };
  for (let i = 1; i < points.length; i++) {
    const [[xa, ya], [xb, yb]] = [points[i - 1]!, points[i]!];
    const rise = Math.abs(yb - ya);
    if (rise < 0.15) continue;
    const slope = xb - xa <= 0 ? Infinity : rise / (xb - xa);
    if (slope > worst.slope) worst = { slope, at: xa };
  }
  return worst;
}

describe('trip illustration', () => {
  it("has no cliffs: no flank of any trip's ridge steeper than 50°, at every size it is drawn", () => {
    const sizes = { ...illustrationSizes, social: cardRidge };
    const cliffs: string[] = [];
    for (const page of catalogue.trips) {
      for (const [name, size] of Object.entries(sizes)) {
        const land = tripLandscape(page.content.itinerary, size);
        for (const [part, d] of [
          ['near', land.near],
          ['far', land.far],
        ] as const) {
          const { slope, at } = steepest(outline(d));
          // Rounding to tenths of a unit allows a hair over the limit.
          if (slope > steepestFlank * 1.02)
            cliffs.push(
              `${page.trip.slug} ${name} ${part}: ${slope === Infinity ? 'vertical' : `${Math.round((Math.atan(slope) * 180) / Math.PI)}°`} at x ${Math.round(at)}`,
            );
        }
      }
    }
    expect(cliffs).toEqual([]);
  });

  it("draws Markha Valley's fall from Kongmaru La to Leh as a slope over more than a day, not a cliff in half a day", () => {
    const page = trip('markha-valley-trek');
    const land = tripLandscape(page.content.itinerary, cardRidge);
    const pass = land.marks.find((m) => m.name === 'Kongmaru La');
    expect(pass).toBeDefined();
    const dayWidth = cardRidge.width / page.content.itinerary.length;
    const ridge = outline(land.near);
    const leh = ridge.at(-1)![1];
    // Where the ridge, east of the pass, is back down to within 5 px of Leh's height.
    const down = ridge.find(([x, y]) => x > pass!.x && y >= leh - 5);
    expect(down![0] - pass!.x).toBeGreaterThan(dayWidth);
  });

  it('marks each named high point on the ridge, the highest one highest, and stays inside its box', () => {
    const size = { width: 900, height: 200, sky: 0.55 };
    for (const page of catalogue.trips) {
      const land = tripLandscape(page.content.itinerary, size);
      const named = page.content.itinerary.flatMap((d) => (d.highPoint ? [d.highPoint] : []));
      expect(
        land.marks.map((m) => [m.name, m.altitudeM]),
        page.trip.slug,
      ).toEqual(named.map((h) => [h.name, h.altitudeM]));
      for (const d of [land.near, land.far]) {
        expect(d, page.trip.slug).toMatch(/^M0 200 .* Z$/);
        for (const [x, y] of pairs(d)) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(900);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThanOrEqual(200);
        }
      }
      const highest = [...land.marks].sort((a, b) => b.altitudeM - a.altitudeM)[0];
      if (highest) {
        expect(Math.min(...land.marks.map((m) => m.y))).toBe(highest.y);
        expect(highest.y).toBeCloseTo(200 * 0.55, 0);
      }
    }
  });

  it('draws the site range with one summit per trip', () => {
    const land = summitRange([4000, 6000, 5000], { width: 1200, height: 280, sky: 0.1 });
    const yAt = (x: number) => pairs(land.near).find(([px]) => px === x)?.[1] ?? Number.NaN;
    expect(yAt(600)).toBeCloseTo(28, 0);
    expect(yAt(600)).toBeLessThan(yAt(1000));
    expect(yAt(1000)).toBeLessThan(yAt(200));
  });

  it('says what it shows in words, and the card says how long and how high', () => {
    expect(illustrationAlt(trip('hampta-pass-trek'))).toBe(
      'Illustration of the Hampta Pass Trek, Kullu and Lahaul, Himachal Pradesh, India: its day-by-day altitude drawn as a mountain ridge that starts at 2,050 m in Manali, rises to Hampta Pass at 4,270 m on day 3 and ends at 2,050 m in Manali after 5 days.',
    );
    expect(tripFactsLine(trip('kang-yatse-ii-expedition'))).toBe('13 days · Kang Yatse II summit 6,250 m');
    expect(socialImageAlt(trip('hampta-pass-trek'))).toContain(
      'Hampta Pass Trek, Kullu and Lahaul, Himachal Pradesh, India: 5 days · Hampta Pass 4,270 m',
    );
    expect(siteSocialImageAlt(catalogue)).toMatch(/^The Vertical Tribe: 7 treks and 5 expeditions/);
  });
});

describe('social cards', () => {
  it('draws the words as paths, so rasterising needs no system font', async () => {
    for (const svg of [
      await tripSocialCardSvg(catalogue, trip('kang-yatse-ii-expedition')),
      await siteSocialCardSvg(catalogue),
    ]) {
      expect(svg).not.toMatch(/<text[\s>]/);
      // Satori writes each line of words as one path of glyph outlines, in the words' colour.
      expect(svg).toMatch(new RegExp(`<path fill="${illustrationColours.light.text}" d="M[^"]{400,}"`));
      expect(svg).toMatch(new RegExp(`<path fill="${illustrationColours.light.muted}" d="M[^"]{400,}"`));
    }
  });

  it('renders a 1200x630 PNG with the trip name written in its upper left', async () => {
    const png = await rasterise(await tripSocialCardSvg(catalogue, trip('hampta-pass-trek')));
    const image = sharp(png);
    expect(await image.metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    // The title band holds dark text on the pale sky; a band of sky alone has no dark pixel.
    const darkest = async (top: number, height: number) => {
      const band = await sharp(png).extract({ left: 72, top, width: 700, height }).png().toBuffer();
      return (await sharp(band).stats()).channels.slice(0, 3).map((c) => c.min);
    };
    expect(Math.max(...(await darkest(110, 80)))).toBeLessThan(90);
    expect(Math.min(...(await darkest(310, 30)))).toBeGreaterThan(200);
  });
});
