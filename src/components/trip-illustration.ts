/**
 * A trip's illustration, drawn only from its own data: the day-by-day altitude profile becomes
 * a mountain ridge (rounded where the route sleeps, pointed at the passes and summits it names),
 * with a paler range behind it in which every point of the route stands as a peak, and the named
 * high points marked. The trip page, the trip cards and the social card all draw this one shape.
 */
import type { TripPage } from '../../domain/catalogue/index.ts';
import { formatDays, formatMetres } from '../../domain/format.ts';
import { profilePoints, type ProfileDay } from './altitude-profile.ts';
import { highestPlace } from '../../domain/catalogue/trip-facts.ts';

/** The illustration's colours, from the site's palette; TripIllustration.astro's style gives the same for CSS, with the dark ones. */
export const illustrationColours = {
  light: {
    sky: '#e6eef6',
    ground: '#fdfdfb',
    far: '#bfd3e8',
    near: '#0b4f8a',
    mark: '#9a3412',
    text: '#12324f',
    muted: '#3d5266',
  },
} as const;

export interface LandscapeSize {
  width: number;
  height: number;
  /** Share of the height left as sky above the highest point. */
  sky: number;
}

export interface Landscape {
  width: number;
  height: number;
  /** `d` of the range behind, and of the ridge of the route itself. */
  far: string;
  near: string;
  marks: { x: number; y: number; name: string; altitudeM: number }[];
}

interface RidgePoint {
  x: number;
  y: number;
  sharp: boolean;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The sizes the illustration is drawn at: the trip page's banner (a short strip on phones, a long
 * ridge under a tall sky from tablets up) and the trip cards. The social card has its own.
 */
export const illustrationSizes = {
  narrow: { width: 360, height: 72, sky: 0.12 },
  wide: { width: 900, height: 200, sky: 0.55 },
  card: { width: 320, height: 64, sky: 0.1 },
} as const satisfies Record<string, LandscapeSize>;

/**
 * The steepest a flank of the ridge is drawn, as rise over run: 50°. A day that falls far below
 * its pass in half a day's width (a long descent, then a drive) would otherwise stand as a cliff.
 */
export const steepestFlank = Math.tan((50 * Math.PI) / 180);

/** The mark of a high point: a small triangle standing on the point. */
export function markPath(x: number, y: number, size: number): string {
  return `M${x} ${round(y - 1.6 * size)}L${round(x + size)} ${round(y - 0.1 * size)}L${round(x - size)} ${round(y - 0.1 * size)}Z`;
}

/** A closed shape under a ridge: curves with level tangents between points, straight flanks into a sharp point. */
function ridgePath(points: readonly RidgePoint[], width: number, height: number): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let d = `M0 ${height} L0 ${first.y}`;
  let previous = first;
  for (const p of rest) {
    if (p.sharp || previous.sharp) d += ` L${p.x} ${p.y}`;
    else {
      const mid = round((previous.x + p.x) / 2);
      d += ` C${mid} ${previous.y} ${mid} ${p.y} ${p.x} ${p.y}`;
    }
    previous = p;
  }
  return `${d} L${width} ${previous.y} L${width} ${height} Z`;
}

/**
 * The ridge with no flank steeper than `steepestFlank`: a point far below its neighbour is drawn
 * higher, so the fall spreads over the next days. A curve between two rounded points (level at
 * both ends) is steepest in its middle, at twice its mean slope, so it is held to half. Two passes
 * give the lowest such outline that keeps every point at or above its own height.
 */
function withoutCliffs(points: readonly RidgePoint[]): RidgePoint[] {
  const out = points.map((p) => ({ ...p }));
  const allowed = (a: RidgePoint, b: RidgePoint) =>
    (a.sharp || b.sharp ? steepestFlank : steepestFlank / 2) * Math.abs(b.x - a.x);
  for (let i = 1; i < out.length; i++) {
    const [a, b] = [out[i - 1]!, out[i]!];
    b.y = round(Math.min(b.y, a.y + allowed(a, b)));
  }
  for (let i = out.length - 2; i >= 0; i--) {
    const [a, b] = [out[i]!, out[i + 1]!];
    a.y = round(Math.min(a.y, b.y + allowed(a, b)));
  }
  return out;
}

/**
 * A distant range: every point stands as a peak whose flanks fall at `slope` metres per unit of
 * width, and the range is the outline of them all, sampled across the width.
 */
function coneRange(
  peaks: readonly { x: number; altitudeM: number }[],
  width: number,
  slope: number,
  samples = 64,
): { x: number; altitudeM: number }[] {
  const xs = [
    ...new Set([
      ...Array.from({ length: samples + 1 }, (_, i) => round((width * i) / samples)),
      ...peaks.map((p) => p.x).filter((px) => px >= 0 && px <= width),
    ]),
  ].sort((a, b) => a - b);
  return xs.map((px) => ({
    x: px,
    altitudeM: Math.max(...peaks.map((p) => p.altitudeM - slope * Math.abs(px - p.x))),
  }));
}

export function tripLandscape(days: readonly ProfileDay[], size: LandscapeSize): Landscape {
  const { width, height, sky } = size;
  const raw = profilePoints(days);
  const altitudes = raw.map((p) => p.altitudeM);
  const lowM = Math.min(...altitudes);
  const highM = Math.max(...altitudes);
  const range = Math.max(highM - lowM, 1);
  const top = height * sky;
  const floor = height * 0.97;
  const y = (m: number) => round(floor - ((floor - top) * (m - lowM)) / range);
  const x = (day: number) => round((width * day) / days.length);

  const near = withoutCliffs(raw.map((p) => ({ x: x(p.day), y: y(p.altitudeM), sharp: p.kind === 'high' })));
  const peaks = raw.map((p) => ({
    x: x(p.day + 0.5),
    altitudeM: Math.min(lowM + (p.altitudeM - lowM) * 0.88 + range * 0.2, highM - range * 0.04),
  }));
  const far = coneRange(peaks, width, range / (width * 0.2)).map((p) => ({
    x: p.x,
    y: Math.min(y(p.altitudeM), height),
    sharp: true,
  }));

  const marks = raw.flatMap((p, i) =>
    p.kind === 'high' ? [{ x: near[i]!.x, y: near[i]!.y, name: p.name ?? '', altitudeM: p.altitudeM }] : [],
  );
  return { width, height, far: ridgePath(far, width, height), near: ridgePath(near, width, height), marks };
}

/** A range of separate summits, evenly spaced in the order given (the site's card: one per trip). */
export function summitRange(altitudes: readonly number[], size: LandscapeSize): Landscape {
  const { width, height, sky } = size;
  const highM = Math.max(...altitudes);
  const spread = Math.max(highM - Math.min(...altitudes), 1);
  const lowM = Math.min(...altitudes) - spread * 1.4;
  const range = highM - lowM;
  const top = height * sky;
  const y = (m: number) => round(height - ((height - top) * (m - lowM)) / range);
  const step = width / altitudes.length;
  const peaks = altitudes.map((altitudeM, i) => ({ x: round(step * (i + 0.5)), altitudeM }));
  const behind = peaks.map((p) => ({ x: round(p.x + step / 2), altitudeM: lowM + (p.altitudeM - lowM) * 0.9 }));
  const outline = (points: { x: number; altitudeM: number }[]) =>
    points.map((p) => ({ x: p.x, y: Math.min(y(p.altitudeM), height), sharp: true }));
  return {
    width,
    height,
    far: ridgePath(outline(coneRange(behind, width, range / (step * 3.2))), width, height),
    near: ridgePath(outline(coneRange(peaks, width, range / (step * 2.4))), width, height),
    marks: [],
  };
}

/** What the illustration shows, for people who cannot see it. */
export function illustrationAlt(page: TripPage): string {
  const days = page.content.itinerary;
  const first = days[0];
  const last = days.at(-1);
  const high = highestPlace(page);
  if (!first || !last) return `Illustration of the ${page.trip.name}`;
  const peak =
    high.altitudeM == null
      ? ''
      : high.name
        ? ` rises to ${high.name} at ${formatMetres(high.altitudeM)}${high.day ? ` on day ${high.day}` : ''} and`
        : ` rises to ${formatMetres(high.altitudeM)} and`;
  return `Illustration of the ${page.trip.name}, ${page.trip.region}: its day-by-day altitude drawn as a mountain ridge that starts at ${formatMetres(first.startAltitudeM)} in ${first.from},${peak} ends at ${formatMetres(last.endAltitudeM)} in ${last.to} after ${formatDays(days.length)}.`;
}
