/**
 * The build's check of the social cards' words: Satori, which draws the cards, lays out every
 * card's words again here, and each text must lie inside the card's text area (above the ridge),
 * take no more lines than it is given, and hold no word wider than its box or a unit parted from
 * its figure. The build of the card images runs it over every trip and stops, naming the trips,
 * when a card would cut or wrap its words (see src/pages/images/social/[slug].png.ts).
 */
import satori from 'satori';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { socialCardSize } from '../../domain/page/trip-images.ts';
import { pictureCache } from '../lib/picture-cache.ts';
import {
  cardFonts,
  cardTextArea,
  drawingCode,
  siteCardWords,
  tripCardWords,
  wordsNode,
  type CardNode,
  type CardText,
  type CardWords,
} from './social-card.ts';

const { width, height } = socialCardSize;
/** A unit standing as a word of its own would wrap away from its figure ("6,387" … "m"). */
const loneUnit = /^(m|km|h|ft|days?)$/;

interface LaidOut {
  name: string;
  maxLines: number;
  box: { left: number; top: number; width: number; height: number };
}

function textsOf(words: CardWords): CardText[] {
  return [words.kicker, words.title, ...words.lines, words.facts];
}

/** Where Satori puts each text of a card. */
async function layout(words: CardWords): Promise<LaidOut[]> {
  const found: LaidOut[] = [];
  await satori(wordsNode(words), {
    width,
    height,
    fonts: await cardFonts(),
    onNodeDetected: (node) => {
      const name: unknown = node.props['data-text'];
      if (typeof name === 'string')
        found.push({
          name,
          maxLines: Number(node.props['data-lines']),
          box: { left: node.left, top: node.top, width: node.width, height: node.height },
        });
    },
  });
  return found;
}

/** The width of each word of each text on one line, as Satori sets it. */
async function wordWidths(texts: readonly CardText[]): Promise<{ text: CardText; word: string; width: number }[]> {
  const words = texts.flatMap((text) =>
    text.text
      .split(/ +/)
      .filter(Boolean)
      .map((word) => ({ text, word })),
  );
  const found = new Map<number, number>();
  const column: CardNode = {
    type: 'div',
    props: {
      style: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', fontFamily: 'Noto Sans' },
      children: words.map(({ text, word }, i) => ({
        type: 'div',
        props: {
          style: {
            fontSize: text.fontSize,
            fontWeight: text.fontWeight,
            whiteSpace: 'nowrap',
            letterSpacing: text.name === 'kicker' ? 3 : 0,
          },
          'data-word': i,
          children: text.name === 'kicker' ? word.toUpperCase() : word,
        },
      })),
    },
  };
  await satori(column, {
    width: width * 4,
    height: words.reduce((sum, w) => sum + Math.ceil(w.text.fontSize * 1.5), 0),
    fonts: await cardFonts(),
    onNodeDetected: (node) => {
      if (typeof node.props['data-word'] === 'number') found.set(node.props['data-word'], node.width);
    },
  });
  return words.map((w, i) => ({ ...w, width: found.get(i) ?? 0 }));
}

/** What is wrong with a card's words, in plain sentences; none when they fit. */
export async function cardTextProblems(words: CardWords): Promise<string[]> {
  const problems: string[] = [];
  const texts = textsOf(words);
  const area = cardTextArea;
  const boxes = await layout(words);
  for (const laid of boxes) {
    const text = texts.find((t) => t.name === laid.name);
    if (!text) continue;
    const { left, top, width: w, height: h } = laid.box;
    const quoted = `the ${laid.name} "${text.text}"`;
    if (left < area.left || left + w > area.right + 0.5)
      problems.push(
        `${quoted} runs from x ${Math.round(left)} to ${Math.round(left + w)}, outside the text area (${area.left} to ${area.right})`,
      );
    if (top < area.top || top + h > area.bottom + 0.5)
      problems.push(
        `${quoted} runs from y ${Math.round(top)} to ${Math.round(top + h)}, below the top of the ridge at ${Math.round(area.bottom)}`,
      );
    const lines = Math.round(h / (text.fontSize * text.lineHeight));
    if (lines > laid.maxLines) problems.push(`${quoted} takes ${lines} lines, at most ${laid.maxLines} fit`);
  }
  for (const { text, word, width: w } of await wordWidths(texts)) {
    const box = boxes.find((b) => b.name === text.name)?.box;
    if (box && w > box.width + 0.5)
      problems.push(
        `the word "${word}" of the ${text.name} is ${Math.round(w)} px wide, its box ${Math.round(box.width)} px`,
      );
    if (loneUnit.test(word))
      problems.push(
        `the ${text.name} "${text.text}" parts the unit "${word}" from its figure, so a line may begin with it`,
      );
  }
  return problems;
}

const checked = pictureCache();

/**
 * A card's problems, kept beside the drawn cards under its words and the card code's version
 * (social-card.ts, `drawingCode`): a rebuild lays out again only the words that changed.
 */
async function keptCardTextProblems(words: CardWords): Promise<string[]> {
  const kept = await checked.picture(words, drawingCode(), 'words.json', async () =>
    Buffer.from(JSON.stringify(await cardTextProblems(words))),
  );
  return JSON.parse(kept.toString('utf8')) as string[];
}

/** Every card of the catalogue, the site's and each trip's, with what is wrong with its words. */
export async function socialCardTextProblems(catalogue: Catalogue): Promise<{ card: string; problems: string[] }[]> {
  const cards = [
    { card: 'the site', words: siteCardWords(catalogue) },
    ...catalogue.trips.map((page) => ({ card: page.trip.slug, words: tripCardWords(catalogue, page) })),
  ];
  const found: { card: string; problems: string[] }[] = [];
  for (const { card, words } of cards) {
    const problems = await keptCardTextProblems(words);
    if (problems.length > 0) found.push({ card, problems });
  }
  return found;
}

/** Stops the build when any card's words do not fit, naming each trip and what does not fit. */
export async function assertSocialCardTextFits(catalogue: Catalogue): Promise<void> {
  const found = await socialCardTextProblems(catalogue);
  if (found.length === 0) return;
  const lines = found.flatMap(({ card, problems }) => [`Social card of ${card}:`, ...problems.map((p) => `  - ${p}`)]);
  throw new Error(
    `The words of ${found.length === 1 ? 'a social card do' : `${found.length} social cards do`} not fit the card (shorten the name, region or facts, or change src/components/social-card.ts):\n${lines.join('\n')}`,
  );
}
