/**
 * Checks the import graph against the layers in .dependency-cruiser.cjs: no circles, no import
 * against the direction of the layers. dependency-cruiser reads the TypeScript; .astro files are
 * compiled by Astro's own compiler into a scratch copy of the tree first, so their frontmatter
 * imports count too. Run `npm run layers`; tests/architecture/layers.test.ts runs it on every test.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from '@astrojs/compiler-rs';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

/** What the graph is made of: every folder and root file of the code, tests aside. */
export const layeredSources = ['domain', 'src', 'service', 'functions', 'scripts', 'server.ts', 'middleware.ts'];

export interface LayerViolation {
  rule: string;
  from: string;
  to: string;
  /** For a circle, the modules it passes through. */
  cycle: string[];
}

/** Copies the sources to a scratch folder and writes each .astro file's compiled module beside it. */
function treeWithCompiledAstro(root: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'import-layers-'));
  for (const entry of layeredSources) {
    if (existsSync(path.join(root, entry))) cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  for (const entry of readdirSync(path.join(copy, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.astro')) continue;
    const file = path.join(entry.parentPath, entry.name);
    // Named apart from the file itself, so the compiled module's import of its own style block
    // does not read as the component importing itself.
    const compiled = transform(readFileSync(file, 'utf8'), { filename: `${file}.blocks` });
    writeFileSync(`${file}.mjs`, compiled.code);
  }
  return copy;
}

export async function importLayerViolations(root: string): Promise<{ violations: LayerViolation[]; modules: number }> {
  const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as IConfiguration;
  const copy = treeWithCompiledAstro(root);
  try {
    const result = await cruise(
      layeredSources.filter((entry) => existsSync(path.join(copy, entry))),
      {
        ...config.options,
        baseDir: copy,
        validate: true,
        ruleSet: { forbidden: config.forbidden ?? [] },
        outputType: 'json',
      },
      // `import X from './X.astro'` resolves to the compiled module written beside it.
      { extensionAlias: { '.astro': ['.astro.mjs'] } },
    );
    const output = JSON.parse(result.output as string) as ICruiseResult;
    const name = (source: string) => source.replace(/\.astro\.mjs$/, '.astro');
    return {
      modules: output.summary.totalCruised,
      violations: output.summary.violations.map((v) => ({
        rule: v.rule.name,
        from: name(v.from),
        to: name(v.to),
        cycle: (v.cycle ?? []).map((step) => name(typeof step === 'string' ? step : step.name)),
      })),
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export function describeViolation(v: LayerViolation): string {
  return v.cycle.length > 0 ? `${v.rule}: ${[v.from, ...v.cycle].join(' → ')}` : `${v.rule}: ${v.from} → ${v.to}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { violations, modules } = await importLayerViolations(root);
  if (violations.length === 0) {
    console.log(`Imports follow the layers: ${modules} modules, no circles (see docs/architecture.md).`);
  } else {
    console.error(`${violations.length} import(s) break the layers of docs/architecture.md:`);
    for (const v of violations) console.error(`  ${describeViolation(v)}`);
    process.exitCode = 1;
  }
}
