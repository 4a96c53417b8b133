/**
 * Checks the import graph against the layers in .dependency-cruiser.cjs: no circles, no import
 * against the direction of the layers. dependency-cruiser reads the TypeScript; .astro files are
 * compiled by Astro's own compiler into a scratch copy of the tree first, so their frontmatter
 * imports count too. Then each folder is counted as one unit (a module belongs to the folder it
 * is in): two folders that import each other, however indirectly, are a circle too, named with
 * the imports that close it. Run `npm run layers`; tests/architecture/layers.test.ts runs it on
 * every test.
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
  /** For a circle, the modules (or folders) it passes through. */
  cycle: string[];
  /** For a circle between folders, each step with the imports that make it. */
  steps?: string[];
  /** For a circle between folders, every folder that reaches every other. */
  folders?: string[];
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

/** The imports between two folders. */
type FolderImports = Map<string, Map<string, string[]>>;

/** Each module's folder, and which folders import which (through which imports), from a cruise's modules. */
function folderImports(modules: ICruiseResult['modules'], name: (source: string) => string): FolderImports {
  const imports: FolderImports = new Map();
  for (const module of modules) {
    if (module.coreModule || module.couldNotResolve || module.source.startsWith('node_modules/')) continue;
    for (const dependency of module.dependencies) {
      const { resolved } = dependency;
      if (dependency.coreModule || dependency.couldNotResolve || resolved.startsWith('node_modules/')) continue;
      const from = path.posix.dirname(module.source);
      const to = path.posix.dirname(resolved);
      if (from === to) continue;
      let byTarget = imports.get(from);
      if (!byTarget) imports.set(from, (byTarget = new Map<string, string[]>()));
      const through = byTarget.get(to) ?? [];
      through.push(`${name(module.source)} → ${name(resolved)}`);
      byTarget.set(to, through);
    }
  }
  return imports;
}

/** The folders that reach each other (Tarjan's strongly connected components), each group of two or more. */
function folderCircles(imports: FolderImports): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    onStack.add(folder);
    for (const next of imports.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const folder of [...imports.keys()].sort()) if (!index.has(folder)) visit(folder);
  return circles;
}

/** The shortest way from `start` back to itself among `group`'s folders. */
function shortestCircle(imports: FolderImports, group: string[], start: string): string[] {
  const members = new Set(group);
  const came = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift()!;
    for (const next of imports.get(folder)?.keys() ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const circle = [folder];
        while (circle[0] !== start) circle.unshift(came.get(circle[0]!)!);
        return circle;
      }
      if (!came.has(next)) {
        came.set(next, folder);
        queue.push(next);
      }
    }
  }
  return group;
}

/** Every circle between folders, as one violation each: its shortest round and the imports of each step. */
function folderViolations(imports: FolderImports): LayerViolation[] {
  return folderCircles(imports).map((group) => {
    const circle = shortestCircle(imports, group, group[0]!);
    const steps = circle.map((from, i) => {
      const to = circle[(i + 1) % circle.length]!;
      return `${from}/ → ${to}/ (${imports.get(from)!.get(to)!.join(', ')})`;
    });
    return {
      rule: 'no-circle-between-folders',
      from: circle[0]!,
      to: circle[1]!,
      cycle: [...circle.slice(1), circle[0]!],
      steps,
      folders: group,
    };
  });
}

/** The folders in an order every import follows: each folder after those it imports (none in a circle). */
function folderOrder(imports: FolderImports): string[] {
  const order: string[] = [];
  const done = new Set<string>();
  const place = (folder: string, path: Set<string>) => {
    if (done.has(folder) || path.has(folder)) return;
    path.add(folder);
    for (const next of [...(imports.get(folder)?.keys() ?? [])].sort()) place(next, path);
    path.delete(folder);
    done.add(folder);
    order.push(folder);
  };
  const all = new Set([...imports.keys(), ...[...imports.values()].flatMap((targets) => [...targets.keys()])]);
  for (const folder of [...all].sort()) place(folder, new Set());
  return order;
}

export async function importLayerViolations(
  root: string,
): Promise<{ violations: LayerViolation[]; modules: number; folders: string[] }> {
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
    const imports = folderImports(output.modules, name);
    return {
      modules: output.summary.totalCruised,
      violations: [
        ...output.summary.violations.map((v) => ({
          rule: v.rule.name,
          from: name(v.from),
          to: name(v.to),
          cycle: (v.cycle ?? []).map((step) => name(typeof step === 'string' ? step : step.name)),
        })),
        ...folderViolations(imports),
      ],
      folders: folderOrder(imports),
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export function describeViolation(v: LayerViolation): string {
  if (v.steps) {
    const others = (v.folders ?? []).filter((f) => f !== v.from && !v.cycle.includes(f));
    const knot = others.length ? `\n      (in one knot with ${others.map((f) => `${f}/`).join(', ')})` : '';
    return `${v.rule}: ${[v.from, ...v.cycle].join('/ → ')}/\n      ${v.steps.join('\n      ')}${knot}`;
  }
  return v.cycle.length > 0 ? `${v.rule}: ${[v.from, ...v.cycle].join(' → ')}` : `${v.rule}: ${v.from} → ${v.to}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { violations, modules, folders } = await importLayerViolations(root);
  if (violations.length === 0) {
    console.log(
      `Imports follow the layers: ${modules} modules in ${folders.length} folders, no circles between modules or between folders, no import against the layers (see docs/architecture.md).`,
    );
  } else {
    console.error(`${violations.length} import(s) break the layers of docs/architecture.md:`);
    for (const v of violations) console.error(`  ${describeViolation(v)}`);
    process.exitCode = 1;
  }
}
