/**
 * The social cards (og:image, 1200x630 PNG), built once per deploy: a trip's card shows its
 * name, region, difficulty, length and highest point over its own ridge (trip-illustration.ts);
 * the site's card shows the operator over a range with one summit per trip. Satori lays the words
 * out and turns them into paths with a font shipped as a package, so the build needs no system
 * font; sharp (Astro's own image library) rasterises the drawing.
 *
 * A card is first described as plain data (`CardDrawing`: the ridge and the words), then drawn.
 * Drawn cards are kept in the picture cache (src/lib/picture-cache.ts) under that description and
 * the version of the drawing code, `drawingCode`: this file, trip-illustration.ts, satori, sharp
 * and the fonts. Code the drawing step comes to call from elsewhere must join `drawingCode`.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import satori from 'satori';
import sharp from 'sharp';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { countOf, formatMetres } from '../../domain/format.ts';
import { illustrationColours, markPath, summitRange, tripLandscape, type Landscape } from './trip-illustration.ts';
import { highestPlace, tripFactsLine } from '../../domain/catalogue/trip-facts.ts';
import { homeCopy } from './trip-index.ts';
import { socialCardSize } from '../../domain/trip-images.ts';
import { drawingVersion, pictureCache } from '../lib/picture-cache.ts';

const { width, height } = socialCardSize;
// Social cards are shown on other sites' light and dark pages alike; the light palette reads on both.
const colours = illustrationColours.light;

/** Satori's element shape, written without JSX. */
interface CardNode {
  type: string;
  props: { style?: Record<string, string | number>; children?: CardNode | string | (CardNode | string)[]; [attribute: string]: unknown };
}
const el = (type: string, style: Record<string, string | number>, children?: CardNode['props']['children'], attributes: Record<string, unknown> = {}): CardNode => ({
  type,
  props: { style, ...attributes, ...(children !== undefined ? { children } : {}) },
});

// Noto Sans in its Latin and Latin Extended subsets, read from the package in the project's node_modules.
const fontFiles = [
  ['latin', 400],
  ['latin-ext', 400],
  ['latin', 700],
  ['latin-ext', 700],
] as const;
const projectRequire = () => createRequire(path.join(process.cwd(), 'package.json'));
const fontPath = (subset: string, weight: number) => projectRequire().resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`);
let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | undefined;
function cardFonts() {
  fonts ??= Promise.all(
    fontFiles.map(async ([subset, weight]) => ({
      name: 'Noto Sans',
      data: await readFile(fontPath(subset, weight)),
      weight,
      style: 'normal' as const,
    })),
  );
  return fonts;
}

let version: string | undefined;
/** The version of everything that turns a CardDrawing into a PNG. Builds run at the project's root. */
export function drawingCode(): string {
  if (version) return version;
  const source = (file: string) => readFileSync(path.join(process.cwd(), 'src', 'components', file), 'utf8');
  const satoriVersion = (JSON.parse(readFileSync(path.join(process.cwd(), 'node_modules', 'satori', 'package.json'), 'utf8')) as { version: string }).version;
  version = drawingVersion([
    source('social-card.ts'),
    source('trip-illustration.ts'),
    `satori ${satoriVersion}`,
    // The libraries sharp draws with: librsvg reads the SVG, libvips, libpng and zlib-ng write the PNG.
    `sharp ${JSON.stringify(sharp.versions)}`,
    ...fontFiles.map(([subset, weight]) => readFileSync(fontPath(subset, weight))),
  ]);
  return version;
}


/** The words of a card, laid out by Satori in the upper part of the card, above the ridge. */
function words(kicker: string, title: string, lines: string[], facts: string): CardNode {
  const titleSize = title.length <= 24 ? 76 : title.length <= 40 ? 62 : 50;
  return el('div', { display: 'flex', flexDirection: 'column', width: '100%', height: '100%', padding: '56px 72px', fontFamily: 'Noto Sans', color: colours.text }, [
    el('div', { fontSize: 26, fontWeight: 700, letterSpacing: 3, textTransform: 'uppercase', color: colours.near }, kicker),
    el('div', { fontSize: titleSize, fontWeight: 700, lineHeight: 1.08, marginTop: 14, maxWidth: 1000 }, title),
    ...lines.map((line) => el('div', { fontSize: 30, marginTop: 14, color: colours.muted, maxWidth: 1000 }, line)),
    el('div', { display: 'flex', alignItems: 'center', fontSize: 30, fontWeight: 700, marginTop: 10 }, [
      el('svg', { marginRight: 12 }, el('path', {}, undefined, { d: markPath(13, 21, 12), fill: colours.mark }), { width: 26, height: 22, viewBox: '0 0 26 22' }),
      facts,
    ]),
  ]);
}

/** What a card shows, as plain data: the ridge and the words laid out above it. */
export interface CardDrawing {
  land: Landscape;
  text: CardNode;
}

/** The card as SVG: the ridge drawn here, the words as Satori's paths (no <text>, so no font is needed to rasterise it). */
async function cardSvg({ land, text }: CardDrawing): Promise<string> {
  const overlay = await satori(text as never, { width, height, fonts: await cardFonts() });
  const marks = land.marks.map((m) => `<path d="${markPath(m.x, m.y, 11)}" fill="${colours.mark}"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="card-sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${colours.sky}"/><stop offset="1" stop-color="${colours.ground}"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#card-sky)"/>
<g transform="translate(0 ${height - land.height})"><path d="${land.far}" fill="${colours.far}"/><path d="${land.near}" fill="${colours.near}"/>${marks}</g>
${overlay}
</svg>`;
  return svg;
}

/** zlib's default level: level 9 makes each card about a fifth smaller but takes twice as long to encode. */
export function rasterise(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

const ridge = { width, height: 280, sky: 0.1 };

export function tripCardDrawing(catalogue: Catalogue, page: TripPage): CardDrawing {
  const { trip } = page;
  const grade = trip.alpineGrade ? `${trip.difficulty}, Alpine grade ${trip.alpineGrade}` : trip.difficulty;
  const text = words(catalogue.site.operatorName, trip.name, [trip.region.replace(/, India$/, '')], `${grade} · ${tripFactsLine(page)}`);
  return { land: tripLandscape(page.content.itinerary, ridge), text };
}

export function siteCardDrawing(catalogue: Catalogue): CardDrawing {
  const treks = catalogue.trips.filter((t) => t.trip.type === 'trek').length;
  const highest = Math.max(...catalogue.trips.map((t) => highestPlace(t).altitudeM ?? 0));
  const facts = `${countOf(treks, 'trek')} · ${countOf(catalogue.trips.length - treks, 'expedition')} · up to ${formatMetres(highest)}`;
  const host = new URL(catalogue.site.siteUrl).host;
  // One summit per trip, at the trip's highest point, in the catalogue's order.
  const land = summitRange(catalogue.trips.map((t) => highestPlace(t).altitudeM ?? 0), ridge);
  return { land, text: words(host, catalogue.site.operatorName, [homeCopy.heading], facts) };
}

export const tripSocialCardSvg = (catalogue: Catalogue, page: TripPage) => cardSvg(tripCardDrawing(catalogue, page));
export const siteSocialCardSvg = (catalogue: Catalogue) => cardSvg(siteCardDrawing(catalogue));

const cards = pictureCache();
/** The card's PNG: from the picture cache, or drawn and kept there. */
export function cardPicture(drawing: CardDrawing): Promise<Buffer> {
  return cards.picture(drawing, drawingCode(), 'png', async () => rasterise(await cardSvg(drawing)));
}

/** True when the card is drawn already, so a build knows which cards it still has to draw. */
export const cardIsCached = (drawing: CardDrawing) => cards.has(drawing, drawingCode(), 'png');

/**
 * Draws the cards the cache lacks, a few at a time: while sharp encodes one off the main thread,
 * Satori lays out the next. Returns how many it drew.
 */
export async function drawMissingCards(drawings: readonly CardDrawing[]): Promise<number> {
  const missing = drawings.filter((d) => !cardIsCached(d));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < missing.length; i = next++) await cardPicture(missing[i]!);
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return missing.length;
}

export const siteSocialCard = (catalogue: Catalogue) => cardPicture(siteCardDrawing(catalogue));
