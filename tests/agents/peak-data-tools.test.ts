/**
 * peaks.csv read by the data tools its users open it in, as the dataset page tells them to:
 * GDAL (Debian's gdal-bin) over HTTP through /vsicurl/, which finds peaks.csvt beside the CSV, and
 * pandas (Debian's python3-pandas) with the page's own snippet. Numbers come out as numbers,
 * gapped integers as integers, yes-or-no columns as booleans and lastVerified as a date: for the
 * served fixture site, and for the real catalogue's files written where the tools read them.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gdalType, peakColumns } from '../../service/peak-data/columns.ts';
import { peaksCsv, peaksCsvTypes } from '../../service/peak-data/csv.ts';
import { gdalCommands, pandasCode } from '../../service/peak-data/reading.ts';
import { loadCatalogue, realContent } from '../helpers/content.ts';
import type { InProcessServer } from '../helpers/in-process.ts';
import { pythonPath } from '../helpers/requirements.ts';
import { startBuiltSite } from './built-site.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startBuiltSite(inject('fixtureSite'));
});
afterAll(() => server?.stop());

const scratch = mkdtempSync(path.join(tmpdir(), 'peak-data-tools-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A command line of the page's, run as written (no shell: its words are split on spaces), and
 * waited for without blocking: the server answering it runs in this process.
 */
function run(line: string, cwd = scratch): Promise<string> {
  const [program, ...args] = line.split(' ');
  return new Promise((resolve, reject) =>
    execFile(program!, args, { cwd, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${line}\n${stderr}`, { cause: error })) : resolve(stdout),
    ),
  );
}

/** ogrinfo's field list: `name: Type (width.precision)` per field. */
function gdalFields(summary: string): Record<string, string> {
  return Object.fromEntries(
    [...summary.matchAll(/^(\w+): ([\w()]+) \(\d+\.\d+\)$/gm)].map((m) => [m[1]!, m[2]!] as const),
  );
}

/** The page's pandas snippet run by Debian's Python: each column's dtype and the rows as JSON. */
async function pandas(csvUrl: string): Promise<{ dtypes: Record<string, string>; rows: Record<string, unknown>[] }> {
  const script = `${pandasCode(csvUrl)}
import json
print(json.dumps({
    "dtypes": {name: str(dtype) for name, dtype in peaks.dtypes.items()},
    "rows": json.loads(peaks.to_json(orient="records", date_format="iso")),
}))
`;
  const file = path.join(scratch, `read-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, script);
  return JSON.parse(await run(`${pythonPath()} ${file}`)) as Awaited<ReturnType<typeof pandas>>;
}

/** The dtype pandas gives each column of the Table Schema's type, as the snippet asks. */
const expectedDtype: Record<string, string> = {
  string: 'string',
  integer: 'Int64',
  number: 'float64',
  boolean: 'boolean',
  date: 'datetime64[ns]',
};

describe('peaks.csv served, read by GDAL through /vsicurl/ with its .csvt', () => {
  it("types every column as the .csvt says, and reads a row's numbers and booleans as such", async () => {
    const url = `${server.url}/peak-data/peaks.csv`;
    const [info] = gdalCommands(url).split('\n');
    const fields = gdalFields(await run(info!));
    expect(fields).toEqual(Object.fromEntries(peakColumns.map((c) => [c.name, gdalType(c)])));
    expect(fields).toMatchObject({
      altitudeM: 'Integer',
      latitude: 'Real',
      openPeak: 'Integer(Boolean)',
      firstAscentEarliestDocumented: 'Integer(Boolean)',
      osmNodeId: 'Integer64',
      lastVerified: 'Date',
    });
    const row = await run(`ogrinfo -ro -al -q -where id='sample-peak' /vsicurl/${url}`);
    expect(row).toContain('altitudeM (Integer) = 6150');
    expect(row).toContain('openPeak (Integer(Boolean)) = 1');
    expect(row).toContain('firstAscentEarliestDocumented (Integer(Boolean)) = 0');
    expect(row).toContain('lastVerified (Date) = 2026/11/22');
  });

  it("makes a point layer of the summits with the page's ogr2ogr command", async () => {
    const url = `${server.url}/peak-data/peaks.csv`;
    const [, convert] = gdalCommands(url).split('\n');
    await run(convert!);
    const layer = await run('ogrinfo -ro -al -so peaks.gpkg');
    expect(layer).toMatch(/Geometry: Point/);
    expect(layer).toMatch(/Feature Count: 2/);
  });
});

describe('peaks.csv read by pandas with the dataset page snippet', () => {
  it('gives every column its type: integers with gaps stay integers, booleans booleans, the date a date', async () => {
    const { dtypes, rows } = await pandas(`${server.url}/peak-data/peaks.csv`);
    expect(dtypes).toEqual(Object.fromEntries(peakColumns.map((c) => [c.name, expectedDtype[c.type]])));
    const sample = rows.find((r) => r.id === 'sample-peak')!;
    expect(sample).toMatchObject({ altitudeM: 6150, openPeak: true, firstAscentEarliestDocumented: false });
    expect(sample.firstAscentYear).toBeNull();
  });
});

describe("the real catalogue's peaks.csv and .csvt as the tools read them", () => {
  const dir = path.join(scratch, 'real');
  beforeAll(() => {
    const catalogue = loadCatalogue(realContent, 'https://example.test');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'peaks.csv'), peaksCsv(catalogue));
    writeFileSync(path.join(dir, 'peaks.csvt'), peaksCsvTypes());
  });

  it('GDAL reads the node ids past 2^31 as 64-bit integers and the yes-or-no columns as booleans', async () => {
    const nun = await run(`ogrinfo -ro -al -q -where id='nun' peaks.csv`, dir);
    expect(nun).toContain('osmNodeId (Integer64) = 4544767046');
    expect(nun).toContain('altitudeM (Integer) = 7135');
    expect(nun).toContain('openPeak (Integer(Boolean)) = 1');
    const chamser = await run(`ogrinfo -ro -al -q -where id='chamser-kangri' peaks.csv`, dir);
    expect(chamser).toContain('firstAscentEarliestDocumented (Integer(Boolean)) = 1');
  });

  it('pandas reads the gapped integer columns as integers and every boolean as true or false', async () => {
    const { dtypes, rows } = await pandas(path.join(dir, 'peaks.csv'));
    expect(dtypes).toMatchObject({ osmNodeId: 'Int64', typicalDurationDays: 'Int64', openPeak: 'boolean' });
    expect(rows.find((r) => r.id === 'menthosa')).toMatchObject({ osmNodeId: 7061438821, altitudeM: 6444 });
    for (const row of rows) expect([true, false], String(row.id)).toContain(row.firstAscentEarliestDocumented);
  });
});
