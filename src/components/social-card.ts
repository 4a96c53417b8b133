/**
 * The social cards (og:image, 1200x630 PNG), built once per deploy: a trip's card shows its
 * name, region, difficulty, length and highest point over its own ridge (trip-illustration.ts);
 * the site's card shows the operator over a range with one summit per trip. Satori lays the words
 * out and turns them into paths with a font shipped as a package, so the build needs no system
 * font; sharp (Astro's own image library) rasterises the drawing.
 *
 * A card is first described as plain data (`CardDrawing`: the ridge and the words), then drawn.
 * Drawn cards are kept in the picture cache (src/lib/picture-cache.ts) under that description and
 * the version of the card code, `drawingCode`: this file, trip-illustration.ts, the check of the
 * words (social-card-text-check.ts), satori, sharp and the fonts. Code the drawing step comes to
 * call from elsewhere must join `drawingCode`.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import satori from 'satori';
import sharp from 'sharp';
import type { Catalogue, TripPage } from '../../domain/catalogue/index.ts';
import { countOf, formatMetres, unitsKeptWithFigures } from '../../domain/format.ts';
import { illustrationColours, markPath, summitRange, tripLandscape, type Landscape } from './trip-illustration.ts';
import { highestPlace, tripFactsLine } from '../../domain/catalogue/trip-facts.ts';
import { homeCopy } from './trip-index.ts';
import { socialCardSize } from '../../domain/page/trip-images.ts';
import { drawingVersion, pictureCache } from '../lib/picture-cache.ts';

const { width, height } = socialCardSize;
// Social cards are shown on other sites' light and dark pages alike; the light palette reads on both.
const colours = illustrationColours.light;

/** Satori's element shape, written without JSX. */
export interface CardNode {
  type: string;
  props: {
    style?: Record<string, string | number>;
    children?: CardNode | string | (CardNode | string)[];
    [attribute: string]: unknown;
  };
}
const el = (
  type: string,
  style: Record<string, string | number>,
  children?: CardNode['props']['children'],
  attributes: Record<string, unknown> = {},
): CardNode => ({
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
const fontPath = (subset: string, weight: number) =>
  createRequire(path.join(process.cwd(), 'package.json')).resolve(
    `@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`,
  );
let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | undefined;
export function cardFonts() {
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
/** The version of everything that turns a CardDrawing into a PNG, or checks its words. Builds run at the project's root. */
export function drawingCode(): string {
  if (version) return version;
  const source = (file: string) => readFileSync(path.join(process.cwd(), 'src', 'components', file), 'utf8');
  const satoriVersion = (
    JSON.parse(readFileSync(path.join(process.cwd(), 'node_modules', 'satori', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  version = drawingVersion([
    source('social-card.ts'),
    source('social-card-text-check.ts'),
    source('trip-illustration.ts'),
    `satori ${satoriVersion}`,
    // The libraries sharp draws with: librsvg reads the SVG, libvips, libpng and zlib-ng write the PNG.
    `sharp ${JSON.stringify(sharp.versions)}`,
    ...fontFiles.map(([subset, weight]) => readFileSync(fontPath(subset, weight))),
  ]);
  return version;
}

/** The ridge along the foot of a card. */
export const cardRidge = { width, height: 280, sky: 0.1 } as const;
const ridge = cardRidge;
const padding = { x: 72, y: 56 };

/** Where a card's words may stand: inside its margins and above the highest point of its ridge. */
export const cardTextArea = {
  left: padding.x,
  top: padding.y,
  right: width - padding.x,
  bottom: height - ridge.height * (1 - ridge.sky),
} as const;

/**
 * One text of a card: its words, its type, and the most lines it may take. Each is laid out in
 * an element named by `data-text`, so the build's check (social-card-text-check.ts) can find it.
 */
export interface CardText {
  name: string;
  text: string;
  fontSize: number;
  fontWeight: 400 | 700;
  lineHeight: number;
  maxLines: number;
}

const textStyle = (t: CardText) => ({ fontSize: t.fontSize, fontWeight: t.fontWeight, lineHeight: t.lineHeight });
const textAttributes = (t: CardText) => ({ 'data-text': t.name, 'data-lines': t.maxLines });

/** The words of a card as texts, top to bottom: who, what, where, and its facts. */
export interface CardWords {
  kicker: CardText;
  title: CardText;
  lines: CardText[];
  facts: CardText;
}

function cardWords(kicker: string, title: string, lines: string[], facts: string): CardWords {
  const titleSize = title.length <= 24 ? 76 : title.length <= 40 ? 62 : 50;
  return {
    kicker: { name: 'kicker', text: kicker, fontSize: 26, fontWeight: 700, lineHeight: 1.3, maxLines: 1 },
    title: { name: 'title', text: title, fontSize: titleSize, fontWeight: 700, lineHeight: 1.08, maxLines: 2 },
    lines: lines.map((line, i) => ({
      name: `line ${i + 1}`,
      text: line,
      fontSize: 30,
      fontWeight: 400,
      lineHeight: 1.3,
      maxLines: 1,
    })),
    // The facts may take two lines; each figure stays with its unit.
    facts: {
      name: 'facts',
      text: unitsKeptWithFigures(facts),
      fontSize: 30,
      fontWeight: 700,
      lineHeight: 1.3,
      maxLines: 2,
    },
  };
}

/** The words laid out by Satori in the card's text area, above the ridge. */
export function wordsNode({ kicker, title, lines, facts }: CardWords): CardNode {
  // border-box: the padding lies inside the card, so the words' box ends at the right margin.
  return el(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      width: '100%',
      height: '100%',
      boxSizing: 'border-box',
      padding: `${padding.y}px ${padding.x}px`,
      fontFamily: 'Noto Sans',
      color: colours.text,
    },
    [
      el(
        'div',
        { ...textStyle(kicker), letterSpacing: 3, textTransform: 'uppercase', color: colours.near },
        kicker.text,
        textAttributes(kicker),
      ),
      el('div', { ...textStyle(title), marginTop: 14 }, title.text, textAttributes(title)),
      ...lines.map((line) =>
        el('div', { ...textStyle(line), marginTop: 14, color: colours.muted }, line.text, textAttributes(line)),
      ),
      el('div', { display: 'flex', alignItems: 'flex-start', marginTop: 10 }, [
        el(
          'svg',
          { marginRight: 12, marginTop: 9, flexShrink: 0 },
          el('path', {}, undefined, { d: markPath(13, 21, 12), fill: colours.mark }),
          { width: 26, height: 22, viewBox: '0 0 26 22' },
        ),
        el('div', { ...textStyle(facts), flex: 1, minWidth: 0 }, facts.text, textAttributes(facts)),
      ]),
    ],
  );
}

/** What a card shows, as plain data: the ridge and the words laid out above it. */
export interface CardDrawing {
  land: Landscape;
  words: CardWords;
}

/** The card as SVG: the ridge drawn here, the words as Satori's paths (no <text>, so no font is needed to rasterise it). */
async function cardSvg({ land, words }: CardDrawing): Promise<string> {
  const overlay = await satori(wordsNode(words), { width, height, fonts: await cardFonts() });
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

/** A trip card's words: the operator, the trip, its region, and its grade, length and highest point. */
export function tripCardWords(catalogue: Catalogue, page: TripPage): CardWords {
  const { trip } = page;
  const grade = trip.alpineGrade ? `${trip.difficulty}, Alpine grade ${trip.alpineGrade}` : trip.difficulty;
  return cardWords(
    catalogue.site.operatorName,
    trip.name,
    [trip.region.replace(/, India$/, '')],
    `${grade} · ${tripFactsLine(page)}`,
  );
}

export function tripCardDrawing(catalogue: Catalogue, page: TripPage): CardDrawing {
  return { land: tripLandscape(page.content.itinerary, ridge), words: tripCardWords(catalogue, page) };
}

export function tripSocialCardSvg(catalogue: Catalogue, page: TripPage): Promise<string> {
  return cardSvg(tripCardDrawing(catalogue, page));
}

/** The site card's words: its address, the operator, what it offers, and how many trips up to what height. */
export function siteCardWords(catalogue: Catalogue): CardWords {
  const treks = catalogue.trips.filter((t) => t.trip.type === 'trek').length;
  const highest = Math.max(...catalogue.trips.map((t) => highestPlace(t).altitudeM ?? 0));
  const facts = `${countOf(treks, 'trek')} · ${countOf(catalogue.trips.length - treks, 'expedition')} · up to ${formatMetres(highest)}`;
  return cardWords(new URL(catalogue.site.siteUrl).host, catalogue.site.operatorName, [homeCopy.heading], facts);
}

function siteCardDrawing(catalogue: Catalogue): CardDrawing {
  // One summit per trip, at the trip's highest point, in the catalogue's order.
  return {
    land: summitRange(
      catalogue.trips.map((t) => highestPlace(t).altitudeM ?? 0),
      ridge,
    ),
    words: siteCardWords(catalogue),
  };
}

export function siteSocialCardSvg(catalogue: Catalogue): Promise<string> {
  return cardSvg(siteCardDrawing(catalogue));
}

const cards = pictureCache();
/** The card's PNG: from the picture cache, or drawn and kept there. */
export function cardPicture(drawing: CardDrawing): Promise<Buffer> {
  return cards.picture(drawing, drawingCode(), 'png', async () => rasterise(await cardSvg(drawing)));
}

/**
 * Draws the cards the cache lacks, a few at a time: while sharp encodes one off the main thread,
 * Satori lays out the next. Returns how many it drew.
 */
export async function drawMissingCards(drawings: readonly CardDrawing[]): Promise<number> {
  const missing = drawings.filter((d) => !cards.has(d, drawingCode(), 'png'));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < missing.length; i = next++) await cardPicture(missing[i]!);
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
  return missing.length;
}

export const siteSocialCard = (catalogue: Catalogue) => cardPicture(siteCardDrawing(catalogue));
