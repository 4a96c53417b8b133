/** The altitude profile's geometry as numbers: which points exist, where they are, and that every label fits. */
import { describe, expect, it } from 'vitest';
import {
  altitudeProfile,
  chartTexts,
  describeProfile,
  profileSizes,
  textBox,
  type AltitudeProfile,
  type ProfileDay,
} from '../../src/components/altitude-profile.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';

const hampta: ProfileDay[] = [
  { day: 1, from: 'Manali', to: 'Chika', startAltitudeM: 2050, endAltitudeM: 3080 },
  { day: 2, from: 'Chika', to: 'Balu ka Ghera', startAltitudeM: 3080, endAltitudeM: 3600 },
  {
    day: 3,
    from: 'Balu ka Ghera',
    to: 'Shea Goru',
    startAltitudeM: 3600,
    endAltitudeM: 3950,
    highPoint: { name: 'Hampta Pass', altitudeM: 4270 },
  },
  { day: 4, from: 'Shea Goru', to: 'Chatru', startAltitudeM: 3950, endAltitudeM: 3380 },
];
const sizes = Object.values(profileSizes);

/** Every label's expected box lies inside the viewBox, and no two labels of high points overlap. */
function expectLabelsInside(chart: AltitudeProfile, what: string) {
  for (const text of chartTexts(chart)) {
    const box = textBox(text, chart.fontSize);
    expect(box.left, `${what}: "${text.text}" left`).toBeGreaterThanOrEqual(0);
    expect(box.right, `${what}: "${text.text}" right`).toBeLessThanOrEqual(chart.width);
    expect(box.top, `${what}: "${text.text}" top`).toBeGreaterThanOrEqual(0);
    expect(box.bottom, `${what}: "${text.text}" bottom`).toBeLessThanOrEqual(chart.height);
  }
  const highs = chart.highLabels.flatMap((h) => h.lines.map((t) => textBox(t, chart.fontSize)));
  highs.forEach((a, i) =>
    highs.slice(i + 1).forEach((b) => {
      // Rows touch exactly; a hundredth of a unit allows for floating-point sums.
      const apart =
        a.right <= b.left + 0.01 || b.right <= a.left + 0.01 || a.bottom <= b.top + 0.01 || b.bottom <= a.top + 0.01;
      expect(apart, `${what}: two high-point labels overlap`).toBe(true);
    }),
  );
}

describe('altitude profile', () => {
  it("plots the start, each day's high point and each night, in order, higher altitudes drawn higher", () => {
    const chart = altitudeProfile(hampta, 4270);
    expect(chart.points.map((p) => [p.kind, p.altitudeM])).toEqual([
      ['start', 2050],
      ['night', 3080],
      ['night', 3600],
      ['high', 4270],
      ['night', 3950],
      ['night', 3380],
    ]);
    const [start, , , pass, shea] = chart.points;
    expect(pass?.x).toBeCloseTo(((chart.points[2]?.x ?? 0) + (shea?.x ?? 0)) / 2, 0);
    expect(pass?.y).toBeLessThan(shea?.y ?? 0);
    expect(start?.y).toBeGreaterThan(pass?.y ?? 0);
    for (const p of chart.points) {
      expect(p.x).toBeGreaterThanOrEqual(chart.plot.left);
      expect(p.x).toBeLessThanOrEqual(chart.plot.right);
      expect(p.y).toBeGreaterThanOrEqual(chart.plot.top);
      expect(p.y).toBeLessThanOrEqual(chart.plot.bottom);
    }
    expect(chart.line.startsWith('M')).toBe(true);
  });

  it('labels a high point with its name and altitude above the plot, with a leader down to its mark', () => {
    const chart = altitudeProfile(hampta, 4270);
    expect(chart.highLabels).toHaveLength(1);
    const [label] = chart.highLabels;
    expect(label?.lines.map((l) => l.text)).toEqual(['Hampta Pass 4,270 m']);
    expect(label?.leader.x).toBe(chart.points[3]?.x);
    expect(label?.leader.y1).toBeLessThan(chart.plot.top);
    expect(label?.leader.y2).toBeLessThan(chart.points[3]?.y ?? 0);
    // The named pass is the highest point, so no separate line for it.
    expect(chart.ceiling).toBeNull();
  });

  it('draws the published highest point as a line only when no day names it', () => {
    const unnamed = hampta.map(({ highPoint: _, ...d }) => d);
    const chart = altitudeProfile(unnamed, 4270);
    expect(chart.points.some((p) => p.kind === 'high')).toBe(false);
    expect(chart.ceiling?.label.text).toBe('Highest point 4,270 m');
    expect(describeProfile(unnamed, 4270)).toContain('The highest point reached during the trip is 4,270 m.');
    expect(altitudeProfile(unnamed, 3950).ceiling).toBeNull();
  });

  it('adds a point when a day starts somewhere other than the last camp', () => {
    const jump = [...hampta, { day: 5, from: 'Roadhead', to: 'Town', startAltitudeM: 3000, endAltitudeM: 2000 }];
    const chart = altitudeProfile(jump, null);
    expect(chart.points.filter((p) => p.kind === 'restart').map((p) => p.altitudeM)).toEqual([3000]);
    expect(chart.points.at(-1)?.altitudeM).toBe(2000);
  });

  it('says the same in words: start, each high point, the highest night and the end', () => {
    expect(describeProfile(hampta, 4270)).toBe(
      'Starts at 2,050 m in Manali. Day 3 reaches Hampta Pass at 4,270 m. The highest night is at Shea Goru, 3,950 m, first reached on day 3. Ends at 3,380 m in Chatru on day 4.',
    );
  });

  it("writes the gridlines' altitudes in a column left of the plot, so the profile never crosses them", () => {
    const trips = loadCatalogue(realContent).trips;
    for (const page of trips) {
      for (const size of sizes) {
        const chart = altitudeProfile(page.content.itinerary, page.trip.summitAltitudeM, size);
        const what = `${page.trip.slug} ${size.name}`;
        // Every gridline is labelled, the lowest too: the start of the profile no longer sits on it.
        expect(
          chart.yTicks.map((t) => t.label.text),
          what,
        ).toHaveLength(chart.yTicks.length);
        for (const tick of chart.yTicks) {
          const box = textBox(tick.label, chart.fontSize);
          expect(box.right, `${what}: "${tick.label.text}"`).toBeLessThan(chart.plot.left);
          expect(box.left, `${what}: "${tick.label.text}"`).toBeGreaterThanOrEqual(0);
          // Centred on its own gridline.
          expect(Math.abs((box.top + box.bottom) / 2 - tick.y), `${what}: "${tick.label.text}"`).toBeLessThan(
            chart.fontSize * 0.5,
          );
        }
        for (const p of chart.points) expect(p.x, what).toBeGreaterThanOrEqual(chart.plot.left);
      }
    }
  });

  it('keeps every label inside the chart, at both sizes, with a long name and close high points', () => {
    const crowded: ProfileDay[] = [
      {
        day: 1,
        from: 'A',
        to: 'B',
        startAltitudeM: 3000,
        endAltitudeM: 3400,
        highPoint: { name: 'A very long name for a high pass that cannot fit on one line', altitudeM: 4100 },
      },
      {
        day: 2,
        from: 'B',
        to: 'C',
        startAltitudeM: 3400,
        endAltitudeM: 3800,
        highPoint: { name: 'Second Pass', altitudeM: 4400 },
      },
      {
        day: 3,
        from: 'C',
        to: 'D',
        startAltitudeM: 3800,
        endAltitudeM: 3500,
        highPoint: { name: 'Third Pass', altitudeM: 4500 },
      },
    ];
    for (const size of sizes) {
      const chart = altitudeProfile(crowded, 4500, size);
      expect(chart.highLabels).toHaveLength(3);
      expect(chart.highLabels[0]?.lines.length, size.name).toBeGreaterThanOrEqual(1);
      expectLabelsInside(chart, `crowded ${size.name}`);
    }
  });

  it('draws every real itinerary with every named high point, every label inside, at both sizes', () => {
    const trips = loadCatalogue(realContent).trips;
    for (const page of trips) {
      const days = page.content.itinerary;
      for (const size of sizes) {
        const chart = altitudeProfile(days, page.trip.summitAltitudeM, size);
        const what = `${page.trip.slug} ${size.name}`;
        expect(
          chart.points.filter((p) => p.kind === 'night'),
          what,
        ).toHaveLength(days.length);
        expect(
          chart.points.filter((p) => p.kind === 'high').map((p) => p.altitudeM),
          what,
        ).toEqual(days.flatMap((d) => (d.highPoint ? [d.highPoint.altitudeM] : [])));
        expect(chart.yTicks.length, what).toBeGreaterThanOrEqual(2);
        expectLabelsInside(chart, what);
        // No leader line runs through another high point's label.
        for (const [i, h] of chart.highLabels.entries()) {
          for (const other of chart.highLabels.filter((_, j) => j !== i)) {
            for (const box of other.lines.map((t) => textBox(t, chart.fontSize))) {
              const crosses =
                h.leader.x >= box.left && h.leader.x <= box.right && h.leader.y1 < box.bottom && h.leader.y2 > box.top;
              expect(crosses, `${what}: the leader of "${h.lines[0]?.text}" crosses "${other.lines[0]?.text}"`).toBe(
                false,
              );
            }
          }
        }
      }
    }
    // The two findings of the issue: Kang Yatse II's summit and Hampta Pass are on their charts.
    const labels = (slug: string) =>
      altitudeProfile(trips.find((t) => t.trip.slug === slug)!.content.itinerary, null).highLabels.flatMap((h) =>
        h.lines.map((l) => l.text),
      );
    expect(labels('kang-yatse-ii-expedition')).toEqual(['Kang Yatse II summit 6,250 m', 'Kongmaru La 5,130 m']);
    expect(labels('hampta-pass-trek')).toEqual(['Hampta Pass 4,270 m']);
  });
});
