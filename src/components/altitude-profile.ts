/**
 * The geometry of a trip's altitude profile, computed on the server so the page ships an
 * inline SVG and no chart code. Per day it plots where the day starts, the day's high point
 * (a pass, a summit) when the itinerary names one, and where the night is spent. Every label
 * is placed with a generous estimate of its width so that it lies inside the viewBox (the
 * high points' labels by chart-labels.ts); the browser test measures the real text.
 */
import { formatMetres } from '../../domain/format.ts';
import { placeLabels } from './chart-labels.ts';

export interface ProfileDay {
  day: number;
  from: string;
  to: string;
  startAltitudeM: number;
  endAltitudeM: number;
  highPoint?: { name: string; altitudeM: number } | undefined;
}

/** `start`: the night before day 1; `restart`: a day that starts away from the last camp (a drive); `high`: the day's high point; `night`: where the day ends. */
type PointKind = 'start' | 'restart' | 'high' | 'night';

export interface ProfilePoint {
  kind: PointKind;
  day: number;
  x: number;
  y: number;
  altitudeM: number;
  /** The place, for a high point. */
  name?: string | undefined;
  /** The point in words. */
  label: string;
}

export interface ChartText {
  x: number;
  /** Baseline. */
  y: number;
  anchor: 'start' | 'middle' | 'end';
  text: string;
  /** Estimated width, on the generous side. */
  width: number;
}

/** A size of the chart: the narrow one is drawn for phones, the wide one from tablets up. */
export interface ProfileSize {
  name: string;
  width: number;
  fontSize: number;
  plotHeight: number;
}

export const profileSizes = {
  narrow: { name: 'narrow', width: 320, fontSize: 13, plotHeight: 150 },
  wide: { name: 'wide', width: 640, fontSize: 12, plotHeight: 190 },
} as const satisfies Record<string, ProfileSize>;

export interface AltitudeProfile {
  width: number;
  height: number;
  fontSize: number;
  plot: { left: number; right: number; top: number; bottom: number };
  points: ProfilePoint[];
  /** `d` of the line and of the filled area under it. */
  line: string;
  area: string;
  /** Each gridline and its altitude, in the column left of the plot. */
  yTicks: { y: number; label: ChartText }[];
  xTicks: ChartText[];
  /** One label (one or two lines) per high point, with a leader down to its mark. */
  highLabels: { lines: ChartText[]; leader: { x: number; y1: number; y2: number } }[];
  /** The trip's published highest point, drawn as a line only when no day names it. */
  ceiling: { y: number; label: ChartText } | null;
}

const margin = 4;
/**
 * Average advance of a character, in ems, rounded up for the widest common system font
 * (DejaVu Sans, the default on Debian): about 0.6 em regular, 0.66 em bold (measured).
 */
const emPerChar = { regular: 0.62, bold: 0.7 };
const round = (n: number) => Math.round(n * 10) / 10;

/** High-point labels are bold; every other text of the chart is regular. */
function textWidth(text: string, fontSize: number, weight: keyof typeof emPerChar = 'regular'): number {
  return round(text.length * fontSize * emPerChar[weight]);
}

/** The box a text is expected to fill: ascenders above the baseline, descenders below. */
export function textBox(t: ChartText, fontSize: number): { left: number; right: number; top: number; bottom: number } {
  const left = t.anchor === 'start' ? t.x : t.anchor === 'end' ? t.x - t.width : t.x - t.width / 2;
  return { left, right: left + t.width, top: t.y - fontSize, bottom: t.y + fontSize * 0.3 };
}

/** A text centred on `x` when it fits, otherwise moved just inside the edge it would cross. */
function placed(text: string, x: number, y: number, fontSize: number, width: number): ChartText {
  const w = textWidth(text, fontSize);
  const left = Math.min(Math.max(x - w / 2, margin), width - margin - w);
  return { x: round(left), y: round(y), anchor: 'start', text, width: w };
}

function niceStep(range: number): number {
  for (const step of [250, 500, 1000, 2000]) if (range / step <= 5) return step;
  return 2500;
}

/** The points of the profile in order, before they are placed: start, any restart, high points and nights. */
export function profilePoints(days: readonly ProfileDay[]): Omit<ProfilePoint, 'x' | 'y'>[] {
  const first = days[0];
  if (!first) throw new Error('an altitude profile needs at least one day');
  const raw: Omit<ProfilePoint, 'x' | 'y'>[] = [
    {
      kind: 'start',
      day: 0,
      altitudeM: first.startAltitudeM,
      label: `Start, ${first.from}: ${formatMetres(first.startAltitudeM)}`,
    },
  ];
  let lastNight = first.startAltitudeM;
  for (const d of days) {
    if (d.startAltitudeM !== lastNight)
      raw.push({
        kind: 'restart',
        day: d.day - 1,
        altitudeM: d.startAltitudeM,
        label: `Day ${d.day} starts at ${d.from}: ${formatMetres(d.startAltitudeM)}`,
      });
    if (d.highPoint)
      raw.push({
        kind: 'high',
        day: d.day - 0.5,
        altitudeM: d.highPoint.altitudeM,
        name: d.highPoint.name,
        label: `Day ${d.day} high point, ${d.highPoint.name}: ${formatMetres(d.highPoint.altitudeM)}`,
      });
    raw.push({
      kind: 'night',
      day: d.day,
      altitudeM: d.endAltitudeM,
      label: `Day ${d.day} ends at ${d.to}: ${formatMetres(d.endAltitudeM)}`,
    });
    lastNight = d.endAltitudeM;
  }
  return raw;
}

export function altitudeProfile(
  days: readonly ProfileDay[],
  highestM?: number | null,
  size: ProfileSize = profileSizes.narrow,
): AltitudeProfile {
  const { width, fontSize, plotHeight } = size;
  const raw = profilePoints(days);
  const rowHeight = round(fontSize * 1.3);

  const altitudes = raw.map((p) => p.altitudeM);
  const highestPlotted = Math.max(...altitudes);
  const ceilingM = highestM != null && highestM > highestPlotted ? highestM : null;
  const topM = Math.max(highestPlotted, ceilingM ?? 0);
  const bottomM = Math.min(...altitudes);
  const step = niceStep(Math.max(topM - bottomM, 1));
  const yMin = Math.floor(bottomM / step) * step;
  const yMax = Math.max(Math.ceil(topM / step) * step, yMin + step);
  const gridlines: number[] = [];
  for (let m = yMin; m <= yMax; m += step) gridlines.push(m);

  // The altitudes of the gridlines stand in a column of their own, left of the plot, so the
  // profile never runs through them however narrow the chart.
  const labelWidth = Math.max(...gridlines.map((m) => textWidth(formatMetres(m), fontSize)));
  const left = round(margin + labelWidth + 6);
  const right = width - margin - 6;
  const x = (day: number) => round(left + ((right - left) * day) / days.length);

  const highPoints = raw.filter((p) => p.kind === 'high');
  const placement = placeLabels(
    highPoints.map((p) => ({ x: x(p.day), name: p.name ?? '', altitude: formatMetres(p.altitudeM) })),
    { width, margin, gap: fontSize, measure: (text) => textWidth(text, fontSize, 'bold') },
  );
  const rows = placement.rows;
  // Room above the plot for the label rows and for the top gridline's own label.
  const top = round(margin + rows * rowHeight + fontSize + 8);
  const bottom = top + plotHeight;
  const height = round(bottom + fontSize + 6 + margin);
  const y = (m: number) => round(bottom - ((bottom - top) * (m - yMin)) / (yMax - yMin));

  const points = raw.map((p) => ({ ...p, x: x(p.day), y: y(p.altitudeM) }));
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
  const area = `${line} L${points.at(-1)?.x ?? right} ${bottom} L${left} ${bottom} Z`;

  // Each gridline's altitude, right-aligned in the column left of the plot, centred on its line.
  const yTicks: AltitudeProfile['yTicks'] = gridlines.map((m) => {
    const text = formatMetres(m);
    return {
      y: y(m),
      label: {
        x: round(left - 6),
        y: round(y(m) + fontSize * 0.35),
        anchor: 'end',
        text,
        width: textWidth(text, fontSize),
      },
    };
  });

  const dayWidth = (right - left) / days.length;
  const widest = textWidth(String(days.length), fontSize) + fontSize;
  const every = [1, 2, 3, 5, 10].find((n) => n * dayWidth >= widest) ?? 10;
  const xTicks = days
    .filter((d) => (d.day - 1) % every === 0)
    .map((d) => placed(String(d.day), (x(d.day - 1) + x(d.day)) / 2, bottom + fontSize + 4, fontSize, width));

  const highLabels = points
    .filter((p) => p.kind === 'high')
    .map((p, i) => {
      const label = placement.labels[i];
      const row = label?.row ?? 0;
      const lines = (label?.lines ?? []).map((l, j): ChartText => ({
        x: round(l.left),
        y: round(margin + (row + j) * rowHeight + fontSize),
        anchor: 'start',
        text: l.text,
        width: l.width,
      }));
      const labelBottom = margin + (row + lines.length) * rowHeight;
      return { lines, leader: { x: p.x, y1: round(labelBottom), y2: round(p.y - 8) } };
    });

  let ceiling: AltitudeProfile['ceiling'] = null;
  if (ceilingM != null) {
    const text = `Highest point ${formatMetres(ceilingM)}`;
    ceiling = {
      y: y(ceilingM),
      label: { x: right, y: round(y(ceilingM) - 4), anchor: 'end', text, width: textWidth(text, fontSize, 'bold') },
    };
  }

  return {
    width,
    height,
    fontSize,
    plot: { left, right, top, bottom },
    points,
    line,
    area,
    yTicks,
    xTicks,
    highLabels,
    ceiling,
  };
}

/** Every text of the chart, for checks that they stay inside it. */
export function chartTexts(chart: AltitudeProfile): ChartText[] {
  return [
    ...chart.yTicks.map((t) => t.label),
    ...chart.xTicks,
    ...chart.highLabels.flatMap((h) => h.lines),
    ...(chart.ceiling ? [chart.ceiling.label] : []),
  ];
}

/** The profile in words, for the chart's <desc> and its caption: start, high points, highest night, end. */
export function describeProfile(days: readonly ProfileDay[], highestM?: number | null): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return '';
  const parts = [`Starts at ${formatMetres(first.startAltitudeM)} in ${first.from}.`];
  for (const d of days)
    if (d.highPoint) parts.push(`Day ${d.day} reaches ${d.highPoint.name} at ${formatMetres(d.highPoint.altitudeM)}.`);
  // The last day ends where the trip ends, not at a night of the trip.
  const nights = days.length > 1 ? days.slice(0, -1) : days;
  let highestNight = nights[0] ?? first;
  for (const d of nights) if (d.endAltitudeM > highestNight.endAltitudeM) highestNight = d;
  parts.push(
    `The highest night is at ${highestNight.to}, ${formatMetres(highestNight.endAltitudeM)}, first reached on day ${highestNight.day}.`,
  );
  const highestPlotted = Math.max(
    ...days.flatMap((d) => [d.startAltitudeM, d.endAltitudeM, d.highPoint?.altitudeM ?? 0]),
  );
  if (highestM != null && highestM > highestPlotted)
    parts.push(`The highest point reached during the trip is ${formatMetres(highestM)}.`);
  parts.push(`Ends at ${formatMetres(last.endAltitudeM)} in ${last.to} on day ${last.day}.`);
  return parts.join(' ');
}
