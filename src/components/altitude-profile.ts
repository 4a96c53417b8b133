/**
 * The geometry of a trip's altitude profile, computed on the server so the page ships an
 * inline SVG and no chart code. Kept apart from the component so it can be tested as numbers.
 */
import { formatMetres } from '../lib/format.ts';

export interface ProfileDay {
  day: number;
  from: string;
  to: string;
  startAltitudeM: number;
  endAltitudeM: number;
}

export interface ProfilePoint {
  x: number;
  y: number;
  altitudeM: number;
  label: string;
}

export interface AltitudeProfile {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  points: ProfilePoint[];
  /** `d` of the line and of the filled area under it. */
  line: string;
  area: string;
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  /** The highest point of the trip, when it is above every camp (a pass or summit crossed in a day). */
  highPoint: { y: number; label: string } | null;
}

const width = 400;
const height = 220;
const plot = { left: 58, right: width - 10, top: 14, bottom: height - 30 };

function niceStep(range: number): number {
  for (const step of [250, 500, 1000, 2000]) if (range / step <= 5) return step;
  return 2500;
}

const round = (n: number) => Math.round(n * 10) / 10;

export function altitudeProfile(days: readonly ProfileDay[], highestM: number | null | undefined): AltitudeProfile {
  const first = days[0];
  if (!first) throw new Error('an altitude profile needs at least one day');
  const raw: { day: number; altitudeM: number; label: string }[] = [{ day: 0, altitudeM: first.startAltitudeM, label: `Start, ${first.from}` }];
  for (const d of days) {
    const previous = raw.at(-1);
    // A day that starts somewhere other than the last camp (a drive, a rest day moved) gets its own point.
    if (previous && previous.altitudeM !== d.startAltitudeM) raw.push({ day: d.day - 1, altitudeM: d.startAltitudeM, label: `Day ${d.day} start, ${d.from}` });
    raw.push({ day: d.day, altitudeM: d.endAltitudeM, label: `Day ${d.day}, ${d.to}` });
  }
  const altitudes = raw.map((p) => p.altitudeM);
  const campsTop = Math.max(...altitudes);
  const top = Math.max(campsTop, highestM ?? 0);
  const bottom = Math.min(...altitudes);
  const step = niceStep(Math.max(top - bottom, 1));
  const yMin = Math.floor(bottom / step) * step;
  const yMax = Math.max(Math.ceil(top / step) * step, yMin + step);
  const x = (day: number) => round(plot.left + ((plot.right - plot.left) * day) / days.length);
  const y = (m: number) => round(plot.bottom - ((plot.bottom - plot.top) * (m - yMin)) / (yMax - yMin));

  const points = raw.map((p) => ({ x: x(p.day), y: y(p.altitudeM), altitudeM: p.altitudeM, label: `${p.label}: ${formatMetres(p.altitudeM)}` }));
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
  const area = `${line} L${points.at(-1)?.x ?? plot.right} ${plot.bottom} L${plot.left} ${plot.bottom} Z`;

  const yTicks = [];
  for (let m = yMin; m <= yMax; m += step) yTicks.push({ y: y(m), label: formatMetres(m) });
  const every = days.length > 10 ? 2 : 1;
  const xTicks = days.filter((d) => (d.day - 1) % every === 0).map((d) => ({ x: round((x(d.day - 1) + x(d.day)) / 2), label: `D${d.day}` }));
  const highPoint = highestM != null && highestM > campsTop ? { y: y(highestM), label: formatMetres(highestM) } : null;

  return { width, height, plot, points, line, area, yTicks, xTicks, highPoint };
}

/** A sentence describing the profile, for the chart's <desc> and for readers without the picture. */
export function describeProfile(days: readonly ProfileDay[], highestM: number | null | undefined): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return '';
  let highestCamp = first;
  for (const d of days) if (d.endAltitudeM > highestCamp.endAltitudeM) highestCamp = d;
  const parts = [
    `Starts at ${formatMetres(first.startAltitudeM)} in ${first.from}.`,
    `Highest overnight point: ${formatMetres(highestCamp.endAltitudeM)} at ${highestCamp.to} on day ${highestCamp.day}.`,
  ];
  if (highestM != null && highestM > highestCamp.endAltitudeM) parts.push(`Highest point reached during the trip: ${formatMetres(highestM)}.`);
  parts.push(`Ends at ${formatMetres(last.endAltitudeM)} in ${last.to} on day ${last.day}.`);
  return parts.join(' ');
}
