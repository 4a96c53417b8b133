/**
 * The columns of peak-data/peaks.csv, declared once: the CSV writes a row of them per peak, and
 * the Data Package describes them as its Table Schema (type, constraints, description), so the
 * header and the schema cannot drift apart. A column is one of the record's single-valued fields,
 * or one value of a nested field (coordinates, first ascent) under a name of its own; lists
 * (months, references, contested accounts) stay in peaks.json and peaks.geojson.
 * Types and limits come from the schemas' own vocabularies and bounds.
 */
import {
  coordinates,
  firstAscent,
  peakContent,
  peakRecord,
  wikidataIdPattern,
  type PeakRecord,
} from '../../domain/schemas/peak.ts';
import { alpineGrades, feeCategories, imfBands, slugPattern } from '../../domain/schemas/vocabulary.ts';

type Cell = string | number | boolean | null;

/** A Table Schema field (https://datapackage.org/standard/table-schema/). */
export interface TableField {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: 'uri';
  description: string;
  /** A boolean's cells as written: `true` and `false`, never empty. */
  trueValues?: readonly string[];
  falseValues?: readonly string[];
  constraints?: {
    required?: boolean;
    unique?: boolean;
    enum?: readonly string[];
    pattern?: string;
    minimum?: number;
    maximum?: number;
  };
}

export interface PeakColumn extends TableField {
  value: (peak: PeakRecord) => Cell;
  /** An integer column whose values pass 2^31 (OpenStreetMap's node ids): GDAL's Integer64. */
  wide?: true;
}

/** The description the record's schema gives a field. */
const described = (field: keyof typeof peakRecord.shape) => peakRecord.shape[field].description ?? '';

const ascent = (peak: PeakRecord) => (peak.firstAscent === 'unknown' ? undefined : peak.firstAscent);
const ascentShape = firstAscent.options[1].shape;
const altitude = peakContent.shape.altitudeM;
const [latitude, longitude] = [coordinates.shape.latitude, coordinates.shape.longitude];

const required = { required: true } as const;

/** A yes-or-no column: `true` or `false` in every row, as the Table Schema and GDAL read it. */
function booleanColumn(name: string, description: string, value: (peak: PeakRecord) => boolean): PeakColumn {
  return {
    name,
    type: 'boolean',
    description,
    trueValues: ['true'],
    falseValues: ['false'],
    constraints: required,
    value,
  };
}

export const peakColumns: readonly PeakColumn[] = [
  {
    name: 'id',
    type: 'string',
    description: described('id'),
    constraints: { required: true, unique: true, pattern: slugPattern.source },
    value: (p) => p.id,
  },
  { name: 'name', type: 'string', description: described('name'), constraints: required, value: (p) => p.name },
  {
    name: 'altitudeM',
    type: 'integer',
    description: `${described('altitudeM')} Where the sources disagree, peaks.json lists every account under contested.`,
    constraints: { required: true, minimum: altitude.minValue!, maximum: altitude.maxValue! },
    value: (p) => p.altitudeM,
  },
  { name: 'range', type: 'string', description: described('range'), constraints: required, value: (p) => p.range },
  { name: 'region', type: 'string', description: described('region'), constraints: required, value: (p) => p.region },
  {
    name: 'country',
    type: 'string',
    description: described('country'),
    constraints: required,
    value: (p) => p.country,
  },
  {
    name: 'technicalGrade',
    type: 'string',
    description: described('technicalGrade'),
    constraints: { required: true, enum: alpineGrades },
    value: (p) => p.technicalGrade,
  },
  {
    name: 'feeCategory',
    type: 'string',
    description: described('feeCategory'),
    constraints: { required: true, enum: feeCategories },
    value: (p) => p.feeCategory,
  },
  {
    name: 'imfBand',
    type: 'string',
    description: described('imfBand'),
    constraints: { enum: imfBands },
    value: (p) => p.imfBand ?? null,
  },
  {
    name: 'imfRoyaltyUsdPartyOf2',
    type: 'integer',
    description: described('imfRoyaltyUsdPartyOf2'),
    constraints: { minimum: 0 },
    value: (p) => p.imfRoyaltyUsdPartyOf2 ?? null,
  },
  booleanColumn('openPeak', described('openPeak'), (p) => p.openPeak),
  {
    name: 'typicalDurationDays',
    type: 'integer',
    description: described('typicalDurationDays'),
    constraints: { minimum: 1 },
    value: (p) => p.typicalDurationDays ?? null,
  },
  booleanColumn(
    'firstSixThousanderCandidate',
    described('firstSixThousanderCandidate'),
    (p) => p.firstSixThousanderCandidate ?? false,
  ),
  booleanColumn('operatorOperated', described('operatorOperated'), (p) => p.operatorOperated ?? false),
  {
    name: 'operatorUrl',
    type: 'string',
    format: 'uri',
    description: described('operatorUrl'),
    value: (p) => p.operatorUrl ?? null,
  },
  {
    name: 'latitude',
    type: 'number',
    description:
      "Summit latitude, decimal degrees north (WGS84); empty when no source gives the summit's own position.",
    constraints: { minimum: latitude.minValue!, maximum: latitude.maxValue! },
    value: (p) => p.coordinates?.latitude ?? null,
  },
  {
    name: 'longitude',
    type: 'number',
    description:
      "Summit longitude, decimal degrees east (WGS84); empty when no source gives the summit's own position.",
    constraints: { minimum: longitude.minValue!, maximum: longitude.maxValue! },
    value: (p) => p.coordinates?.longitude ?? null,
  },
  {
    name: 'coordinatesSource',
    type: 'string',
    format: 'uri',
    description: 'Address of the reference the coordinates come from.',
    value: (p) => p.coordinatesSource?.url ?? null,
  },
  {
    name: 'coordinatesUnknownReason',
    type: 'string',
    description: described('coordinatesUnknownReason'),
    value: (p) => p.coordinatesUnknownReason ?? null,
  },
  {
    name: 'firstAscentYear',
    type: 'integer',
    description:
      'Year of the first ascent (or of the earliest documented one, see firstAscentEarliestDocumented); empty when no source gives it.',
    constraints: { minimum: ascentShape.year.unwrap().minValue!, maximum: ascentShape.year.unwrap().maxValue! },
    value: (p) => ascent(p)?.year ?? null,
  },
  {
    name: 'firstAscentParty',
    type: 'string',
    description: 'Who made that ascent, as the sources give it.',
    value: (p) => ascent(p)?.party ?? null,
  },
  booleanColumn(
    'firstAscentEarliestDocumented',
    'True when the ascent given (firstAscentYear, firstAscentParty) is the earliest a source documents and no source says it was the first; false otherwise.',
    (p) => ascent(p)?.earliestDocumented ?? false,
  ),
  {
    name: 'wikidataId',
    type: 'string',
    description: described('wikidataId'),
    constraints: { pattern: wikidataIdPattern.source },
    value: (p) => p.wikidataId ?? null,
  },
  {
    name: 'osmNodeId',
    type: 'integer',
    wide: true,
    description: described('osmNodeId'),
    constraints: { minimum: 1 },
    value: (p) => p.osmNodeId ?? null,
  },
  {
    name: 'geonamesId',
    type: 'integer',
    description: described('geonamesId'),
    constraints: { minimum: 1 },
    value: (p) => p.geonamesId ?? null,
  },
  {
    name: 'lastVerified',
    type: 'date',
    description: described('lastVerified'),
    constraints: required,
    value: (p) => p.lastVerified,
  },
  {
    name: 'summary',
    type: 'string',
    description: described('summary'),
    constraints: required,
    value: (p) => p.summary,
  },
];

/** The columns as Table Schema fields. */
export function tableFields(): TableField[] {
  return peakColumns.map(({ value: _value, wide: _wide, ...field }) => field);
}

/** A column's type as GDAL's CSV driver reads it from a `.csvt` file (https://gdal.org/drivers/vector/csv.html). */
export function gdalType(column: PeakColumn): string {
  switch (column.type) {
    case 'string':
      return 'String';
    case 'integer':
      return column.wide ? 'Integer64' : 'Integer';
    case 'number':
      return 'Real';
    case 'boolean':
      return 'Integer(Boolean)';
    case 'date':
      return 'Date';
  }
}
