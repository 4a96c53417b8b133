/**
 * Peaks: the editors' record (`peakContent`, one YAML file a peak), the API's Peak resource
 * (`peakResource`) and the full dataset record published in `peak-data/peaks.json`.
 * Band, royalty, the first-6,000 m rule and the operator link are derived, never typed in,
 * so they cannot disagree with the facts they come from (see domain/catalogue/peaks.ts).
 */
import { z } from 'astro/zod';
import { alpineGrades, externalIdFields, feeCategories, imfBands, isoDate, reference, slug } from './vocabulary.ts';
import { months } from '../months.ts';
import { formulaTriggers, runsInSpreadsheet } from '../csv-cells.ts';
import { distanceKm, summitPosition } from '../summits.ts';

export const coordinates = z.object({
  latitude: z
    .number()
    .min(26, { error: 'is south of the Indian Himalaya (expected 26 to 37)' })
    .max(37, { error: 'is north of the Indian Himalaya (expected 26 to 37)' }),
  longitude: z
    .number()
    .min(72, { error: 'is west of the Indian Himalaya (expected 72 to 97)' })
    .max(97, { error: 'is east of the Indian Himalaya (expected 72 to 97)' }),
});

/** Digits after the decimal point of a number as written (trailing zeros are lost in YAML). */
function decimalsOf(value: number): number {
  const text = String(value);
  return text.includes('.') ? text.split('.')[1]!.length : 0;
}

/**
 * Fewest decimals a summit's coordinates may have: 0.001° is about 100 m, which marks a summit;
 * 0.01° (about a kilometre) marks a massif. A source value that happens to end in zero is written
 * with the source's further digits.
 */
const minimumCoordinateDecimals = 3;

/** The address of the reference a fact comes from; a fact without one is refused, whatever the fact. */
const web = z.url({
  error: (issue) =>
    issue.input === undefined
      ? "is required: the full web address of the reference (one of the record's references) that gives it"
      : "must be the full web address of one of the record's references",
});

/**
 * One axis as the editor wrote it: a number, or a decimal in quotes ("33.980") when the source's
 * figure ends in zeros that YAML would drop. At least three decimals either way.
 */
function axis(range: z.ZodNumber) {
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+\.\d+$/, { error: 'must be a decimal number of degrees, for example 33.980' }),
    ])
    .transform((value, ctx) => {
      const decimals = typeof value === 'string' ? value.split('.')[1]!.length : decimalsOf(value);
      if (decimals < minimumCoordinateDecimals) {
        ctx.addIssue({
          code: 'custom',
          message: `is ${value}, given to ${decimals} decimal(s); a summit needs at least ${minimumCoordinateDecimals} (about 100 m): give the source's full figure, in quotes if it ends in zeros ("33.980")`,
        });
      }
      return Number(value);
    })
    .pipe(range);
}

/** A position from a cited source: the address must be one of the record's references. */
const sourcedCoordinates = z.object({
  latitude: axis(coordinates.shape.latitude),
  longitude: axis(coordinates.shape.longitude),
  source: web,
});

type SourcedCoordinates = z.infer<typeof sourcedCoordinates>;

/**
 * No summit position, and why: the reason is published with the record, so a reader knows
 * whether no source gives one, the sources give only the massif's, or they disagree.
 */
const unknownPosition = z.strictObject({
  unknown: z.string().trim().min(20, {
    error:
      "must say why no position is given, in a sentence (at least 20 characters): no source gives the summit's latitude and longitude, a source gives only the massif's to 0.01°, two sources disagree…",
  }),
});
type UnknownPosition = z.infer<typeof unknownPosition>;
type PeakCoordinates = SourcedCoordinates | UnknownPosition;

/**
 * A peak's `coordinates`: a sourced position, or `{ unknown: "why" }`. Read by hand rather than as
 * a union so an editor sees the exact fault (a missing source, too few decimals, a bare unknown)
 * instead of "matches neither form".
 */
const coordinatesField = z.unknown().transform((value, ctx): PeakCoordinates => {
  if (value === 'unknown') {
    ctx.addIssue({
      code: 'custom',
      message:
        'is "unknown" without saying why; write coordinates: { unknown: "…" } with the reason no position is given (no source gives the summit\'s latitude and longitude, only the massif\'s, or sources that disagree), which the dataset publishes with the record',
    });
    return z.NEVER;
  }
  if (value === undefined || value === null || typeof value !== 'object') {
    ctx.addIssue({
      code: 'custom',
      message:
        'is required: the summit\'s latitude, longitude and source (the address of one of the references), or { unknown: "…why…" } when no source gives the summit\'s position',
    });
    return z.NEVER;
  }
  const result = 'unknown' in value ? unknownPosition.safeParse(value) : sourcedCoordinates.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

/** Facts a record may show with more than one sourced account, where the sources disagree. */
const contestableFacts = ['altitudeM', 'firstAscent', 'coordinates'] as const;

/** One source's version of a fact, in our words, and the reference (by address) it comes from. */
const account = z.object({ says: z.string().trim().min(3), source: web });

/** A fact of `facts` the sources disagree on, with every account: for peaks and, with its own facts, for trips. */
export function contestedFactOf<const F extends readonly [string, ...string[]]>(facts: F) {
  return z.object({
    fact: z.enum(facts),
    accounts: z
      .array(account)
      .min(2, { error: 'a contested fact needs at least two accounts, each from its own source' }),
  });
}

const contestedFact = contestedFactOf(contestableFacts);

/** Every account of every contested fact cites one of the record's sources, and no source twice in one fact. */
export function contestedProblems(
  contested: readonly { accounts: readonly { source: string }[] }[] | undefined,
  cited: ReadonlySet<string>,
  listName: 'references' | 'sources',
): { path: (string | number)[]; message: string }[] {
  return (contested ?? []).flatMap((c, i) => [
    ...c.accounts.flatMap((a, j) =>
      cited.has(a.source)
        ? []
        : [
            {
              path: ['contested', i, 'accounts', j, 'source'],
              message: `${a.source} is not among the ${listName}; add it there or cite one of them`,
            },
          ],
    ),
    ...(new Set(c.accounts.map((a) => a.source)).size < c.accounts.length
      ? [
          {
            path: ['contested', i, 'accounts'],
            message: 'two accounts cite the same source; each account of a contested fact comes from its own source',
          },
        ]
      : []),
  ]);
}

/**
 * The same peak in other open datasets, each id with the reference that gives it (never guessed):
 * a Wikidata item, an OpenStreetMap summit node, a GeoNames feature.
 */
export const wikidataIdPattern = /^Q[1-9]\d*$/;
const externalIds = {
  wikidataId: z.object({
    id: z
      .string()
      .trim()
      .regex(wikidataIdPattern, {
        error: (issue) =>
          `must be a Wikidata item id: Q followed by digits, for example Q1234 (it is ${JSON.stringify(issue.input)})`,
      }),
    source: web,
  }),
  osmNodeId: z.strictObject({
    id: z.number().int({ error: 'must be the number of an OpenStreetMap node, for example 806307629' }).positive(),
    source: web,
    /**
     * The node's position as the source gives it. npm run check measures it against the record's
     * coordinates: a node more than osmNodeTolerance away is another point (a subsidiary top, the
     * massif's label), unless `note` says why the difference is right.
     */
    position: coordinates,
    /** Why the node stands further than that from the record's coordinates, or is this summit when the record has none. */
    note: z.string().trim().min(20).optional(),
  }),
  geonamesId: z.object({
    id: z.number().int({ error: 'must be the number of a GeoNames feature, for example 1270579' }).positive(),
    source: web,
  }),
};

/** Furthest an OpenStreetMap node may stand from the record's summit without a note saying why. */
const osmNodeToleranceM = 500;

/** What is wrong with an OpenStreetMap node's position against the record's summit, or nothing. */
function osmNodeProblem(node: z.infer<typeof externalIds.osmNodeId>, at: PeakCoordinates): string | undefined {
  if (node.note) return undefined;
  const summit = summitPosition(at);
  if (!summit)
    return `node ${node.id} cannot be measured against the record's position, which is unknown; say in osmNodeId.note why this node is the summit, or leave the id out`;
  const metres = Math.round(distanceKm(node.position, summit) * 1000);
  return metres <= osmNodeToleranceM
    ? undefined
    : `node ${node.id} stands ${metres} m from the record's coordinates (${summit.latitude}, ${summit.longitude}), more than ${osmNodeToleranceM} m: it may be another top or the massif's label; check it, or say in osmNodeId.note why the difference is right`;
}

/** The record's text fields written to peaks.csv, which a spreadsheet must not run as formulas (domain/csv-cells.ts). */
function spreadsheetProblems(peak: {
  name: string;
  range: string;
  region: string;
  country: string;
  summary: string;
  coordinates: PeakCoordinates;
  firstAscent: z.infer<typeof firstAscent>;
}): { path: (string | number)[]; message: string }[] {
  const texts: [(string | number)[], string | undefined][] = [
    [['name'], peak.name],
    [['range'], peak.range],
    [['region'], peak.region],
    [['country'], peak.country],
    [['summary'], peak.summary],
    [['coordinates', 'unknown'], 'unknown' in peak.coordinates ? peak.coordinates.unknown : undefined],
    [['firstAscent', 'party'], peak.firstAscent === 'unknown' ? undefined : peak.firstAscent.party],
  ];
  return texts.flatMap(([path, text]) =>
    text !== undefined && runsInSpreadsheet(text)
      ? [
          {
            path,
            message: `starts with ${JSON.stringify(text[0])}, which a spreadsheet opening peaks.csv would run as a formula; begin with a word (a cell may not start with ${formulaTriggers})`,
          },
        ]
      : [],
  );
}

/** A named point a summary measures from (a neighbouring summit outside the dataset), with its source. */
const landmark = z.object({ name: z.string().min(2), coordinates: sourcedCoordinates });

export const firstAscent = z.union([
  z.literal('unknown'),
  z.object({
    year: z.number().int().min(1800).max(2100).optional(),
    party: z.string().min(2).optional(),
    /** The ascent given is the earliest a source documents (with or without its year); no source says it was the first. */
    earliestDocumented: z.boolean().optional(),
  }),
]);

export const peakContent = z
  .strictObject({
    name: z.string().min(2),
    alternateNames: z.array(z.string()).optional(),
    altitudeM: z
      .number()
      .int({ error: (issue) => `must be a whole number of metres (it is ${String(issue.input)})` })
      .min(3000)
      .max(8900),
    range: z.string().min(2),
    region: z.string().min(2),
    country: z.string().min(2),
    technicalGrade: z.enum(alpineGrades),
    openPeak: z.boolean(),
    /** Trekking peaks pay the IMF's flat fee instead of the altitude band; cite the list that names the peak. */
    feeCategory: z.enum(feeCategories).default('expedition'),
    bestMonths: z.array(z.enum(months)).optional(),
    typicalDurationDays: z.number().int().min(1).max(90).optional(),
    operatorTrip: slug.optional(),
    summary: z.string().min(40),
    /**
     * The summit's own position from a cited source, to at least 0.001°, or `{ unknown: "why" }`
     * when no source we could read gives it (the page and the files give the reason).
     */
    coordinates: coordinatesField,
    /** Points outside the dataset that the summary measures from (for example a higher neighbour). */
    landmarks: z.array(landmark).optional(),
    firstAscent,
    /** Facts on which the sources disagree, each with every account and its source. */
    contested: z.array(contestedFact).optional(),
    wikidataId: externalIds.wikidataId.optional(),
    osmNodeId: externalIds.osmNodeId.optional(),
    geonamesId: externalIds.geonamesId.optional(),
    references: z.array(reference).min(1, { error: 'needs at least one reference for its facts' }),
    lastVerified: isoDate,
  })
  .superRefine((peak, ctx) => {
    const cited = new Set(peak.references.map((r) => r.url));
    const uncited = (url: string, path: (string | number)[]) => {
      if (!cited.has(url))
        ctx.addIssue({
          code: 'custom',
          path,
          message: `${url} is not among the references; add it there or cite one of them`,
        });
    };
    const position = summitPosition(peak.coordinates);
    if (position) uncited(position.source, ['coordinates', 'source']);
    peak.landmarks?.forEach((l, i) => uncited(l.coordinates.source, ['landmarks', i, 'coordinates', 'source']));
    for (const field of externalIdFields) {
      const given = peak[field];
      if (given) uncited(given.source, [field, 'source']);
    }
    if (peak.osmNodeId) {
      const problem = osmNodeProblem(peak.osmNodeId, peak.coordinates);
      if (problem) ctx.addIssue({ code: 'custom', path: ['osmNodeId', 'position'], message: problem });
    }
    for (const { path, message } of [
      ...contestedProblems(peak.contested, cited, 'references'),
      ...spreadsheetProblems(peak),
    ])
      ctx.addIssue({ code: 'custom', path, message });
  });
export type PeakContent = z.infer<typeof peakContent>;

/** The Peak fields of the contract. */
export const peakResource = z.object({
  id: slug.describe('Stable dataset id.'),
  name: z.string().describe('Peak name.'),
  altitudeM: z.number().int().describe('Summit altitude, metres.'),
  range: z.string().describe('Mountain range.'),
  region: z.string().describe('State or region.'),
  country: z.string().describe('Country.'),
  technicalGrade: z.enum(alpineGrades).describe('Alpine French grade, from F through TD.'),
  imfBand: z
    .enum(imfBands)
    .nullable()
    .optional()
    .describe('Royalty altitude band, or null where no band applies (IMF trekking peaks pay a flat fee instead).'),
  imfRoyaltyUsdPartyOf2: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe(
      'Royalty in USD for a party of two, per the published schedule: the band fee, or the flat fee of an IMF trekking peak.',
    ),
  openPeak: z.boolean().describe("Peak is on the national mountaineering foundation's open-peak list."),
  bestMonths: z.array(z.enum(months)).optional().describe('Months the peak is normally climbed.'),
  typicalDurationDays: z.number().int().nullable().optional().describe('Typical round-trip duration in days.'),
  firstSixThousanderCandidate: z.boolean().optional().describe("Passes the operator's first-6,000 m filter."),
  operatorOperated: z.boolean().optional().describe('The operator runs a guided expedition to the peak.'),
  operatorUrl: z.url().nullable().optional().describe('Trip page when the operator runs the peak.'),
  summary: z.string().describe('One-paragraph description.'),
  lastVerified: z.iso.date().describe('Date the record was last checked against its references.'),
  contested: z
    .array(
      z.object({
        fact: z.enum(contestableFacts).describe('The field the sources disagree on.'),
        accounts: z.array(
          z.object({
            says: z.string().describe('What this source says, in our words.'),
            source: reference.describe('Where it says so.'),
          }),
        ),
      }),
    )
    .optional()
    .describe(
      'Facts on which the sources disagree, every account with its source. The main field (altitudeM, say) keeps one value; this lists them all.',
    ),
});
export type Peak = z.infer<typeof peakResource>;

/** One record of `peak-data/peaks.json`: the Peak plus coordinates, first ascent and references. */
export const peakRecord = peakResource.extend({
  alternateNames: z.array(z.string()).optional(),
  coordinates: coordinates
    .optional()
    .describe("Summit coordinates (WGS84), to at least 0.001°; absent when no source gives the summit's own position."),
  coordinatesSource: reference.optional().describe('The reference the coordinates come from.'),
  coordinatesUnknownReason: z
    .string()
    .optional()
    .describe('Why no summit position is given; present exactly when coordinates is absent.'),
  wikidataId: z
    .string()
    .regex(wikidataIdPattern)
    .optional()
    .describe('The Wikidata item of the same peak, where a named source gives it.'),
  wikidataIdSource: reference.optional().describe('The reference that gives wikidataId.'),
  osmNodeId: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The OpenStreetMap node of the summit, where a named source gives it.'),
  osmNodeIdSource: reference.optional().describe('The reference that gives osmNodeId.'),
  geonamesId: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The GeoNames feature of the same peak, where a named source gives it.'),
  geonamesIdSource: reference.optional().describe('The reference that gives geonamesId.'),
  firstAscent,
  references: z.array(reference),
  feeCategory: z
    .enum(feeCategories)
    .describe('How the IMF charges for the peak: the altitude-band fee (`expedition`) or the flat trekking-peak fee.'),
});
export type PeakRecord = z.infer<typeof peakRecord>;

/** The royalty schedule of the Indian Mountaineering Foundation, kept as data with its source. */
export const royaltySchedule = z.strictObject({
  currency: z.literal('USD'),
  effectiveFrom: isoDate,
  partyOf2: z.strictObject({
    '<6500': z.number().int().min(0),
    '6501-7000': z.number().int().min(0),
    '7001+': z.number().int().min(0),
  }),
  source: reference,
  /** The flat fee of peaks on the IMF's trekking-peak list, whatever their altitude. */
  trekkingPeak: z.strictObject({ partyOf2: z.number().int().min(0), source: reference, note: z.string().optional() }),
  note: z.string().optional(),
});
export type RoyaltySchedule = z.infer<typeof royaltySchedule>;
