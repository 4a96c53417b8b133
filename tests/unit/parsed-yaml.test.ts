/**
 * The build's memory of parsed YAML changes nothing but speed: the content read with it is the
 * content read without it, a file that cannot be parsed is reported every time, and a run keeps
 * only what it read.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContent } from '../../domain/catalogue/content-check.ts';
import { keptParsedYaml } from '../../src/lib/parsed-yaml.ts';
import { fixtureContent, realContent } from '../helpers/content.ts';

const scratch = mkdtempSync(path.join(tmpdir(), 'parsed-yaml-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const options = { siteUrl: 'https://example.test', photoFiles: true };

describe('parsed YAML kept between builds', () => {
  it('reads the same content as a fresh parse, the second time without parsing', () => {
    const file = path.join(scratch, 'real.v8');
    const fresh = checkContent(realContent, options);
    const first = keptParsedYaml(file);
    expect(checkContent(realContent, { ...options, parsed: first })).toEqual(fresh);
    first.save();
    const second = keptParsedYaml(file);
    let parsedAgain = 0;
    const counting = {
      get: (text: string) => second.get(text),
      set: (text: string, value: unknown) => ((parsedAgain += 1), second.set(text, value)),
    };
    expect(checkContent(realContent, { ...options, parsed: counting })).toEqual(fresh);
    expect(parsedAgain).toBe(0);
  });

  it('reports a file that cannot be parsed every time, and keeps only what the last run read', () => {
    const dir = path.join(scratch, 'content');
    cpSync(fixtureContent, dir, { recursive: true });
    writeFileSync(path.join(dir, 'peaks', 'broken.yaml'), 'name: [Broken\n');
    const file = path.join(scratch, 'fixture.v8');
    for (let run = 0; run < 2; run += 1) {
      const parsed = keptParsedYaml(file);
      expect(checkContent(dir, { ...options, parsed }).problems).toEqual([
        expect.stringMatching(/broken\.yaml: the YAML cannot be read/),
      ]);
      parsed.save();
    }
    rmSync(path.join(dir, 'peaks', 'other-peak.yaml'));
    rmSync(path.join(dir, 'peaks', 'broken.yaml'));
    const before = keptParsedYaml(file);
    checkContent(dir, { ...options, parsed: before });
    before.save();
    let parsedAgain = 0;
    const after = keptParsedYaml(file);
    checkContent(fixtureContent, {
      ...options,
      parsed: { get: (t) => after.get(t), set: (t, v) => ((parsedAgain += 1), after.set(t, v)) },
    });
    // other-peak.yaml was left out by the last run, so it is parsed again.
    expect(parsedAgain).toBe(1);
  });
});
