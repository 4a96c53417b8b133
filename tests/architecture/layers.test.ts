/**
 * The imports follow the layers of docs/architecture.md (.dependency-cruiser.cjs): no circles,
 * between modules or between folders (each folder one unit), nothing imported against the
 * direction of the layers, .astro files included. The checker is shown catching a planted
 * circle, a planted arrow back up between two folders and planted wrong-way imports in a copy
 * of the tree.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeViolation, importLayerViolations, layeredSources } from '../../scripts/import-layers.ts';
import { projectRoot } from '../helpers/project.ts';

describe('the import layers', () => {
  it('the tree has no circles, between modules or folders, and no import against the layers', async () => {
    const { violations, modules, folders } = await importLayerViolations(projectRoot);
    expect(modules).toBeGreaterThan(200);
    expect(folders).toContain('service/departures');
    expect(violations.map(describeViolation)).toEqual([]);
  });

  describe('in a copy with planted mistakes', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'layers-planted-'));
    for (const entry of [...layeredSources, '.dependency-cruiser.cjs'])
      cpSync(path.join(projectRoot, entry), path.join(copy, entry), { recursive: true });
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    afterAll(() => rmSync(copy, { recursive: true, force: true }));

    const append = (file: string, line: string) =>
      writeFileSync(path.join(copy, file), `${line}\n${readFileSync(path.join(copy, file), 'utf8')}`);
    const frontmatter = (file: string, line: string) =>
      writeFileSync(
        path.join(copy, file),
        readFileSync(path.join(copy, file), 'utf8').replace(/^---\n/, `---\n${line}\n`),
      );

    it('names each circle and each wrong-way import, .astro files included', async () => {
      // A circle inside the domain: the format helpers importing the trip facts that import them.
      append('domain/format.ts', "import './catalogue/trip-facts.ts';");
      // The domain reaching up into the library, the library into the site, the site into a live function.
      append('domain/html.ts', "import '../service/site-files.ts';");
      append('service/markdown/response.ts', "import '../../src/lib/catalogue.ts';");
      frontmatter('src/components/QuickFacts.astro', "import '../../service/functions/departures.ts';");
      // An arrow back up: the board's HTML reaching into the Markdown twins, which read the departures' words.
      append('service/departures/board-html.ts', "import '../markdown/departures.ts';");
      const found = (await importLayerViolations(copy)).violations;
      const rules = (rule: string) => found.filter((v) => v.rule === rule);
      expect(
        rules('no-circular').some((v) => v.from === 'domain/format.ts' || v.cycle.includes('domain/format.ts')),
      ).toBe(true);
      expect(rules('domain-stands-alone').map((v) => `${v.from} → ${v.to}`)).toContain(
        'domain/html.ts → service/site-files.ts',
      );
      expect(rules('service-never-imports-the-site').map((v) => `${v.from} → ${v.to}`)).toContain(
        'service/markdown/response.ts → src/lib/catalogue.ts',
      );
      const folderCircles = rules('no-circle-between-folders');
      expect(folderCircles.map((v) => [v.from, ...v.cycle].sort())).toContainEqual([
        'service/departures',
        'service/departures',
        'service/markdown',
      ]);
      expect(folderCircles.map(describeViolation).join('\n')).toContain(
        'service/departures/board-html.ts → service/markdown/departures.ts',
      );
      expect(rules('site-never-imports-live-functions').map((v) => `${v.from} → ${v.to}`)).toContain(
        'src/components/QuickFacts.astro → service/functions/departures.ts',
      );
    });
  });
});
