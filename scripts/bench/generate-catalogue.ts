/**
 * Generated catalogues for the growth benchmark, never committed: the real content copied,
 * plus varied copies of its treks (new slugs, names and prices) until the folder holds
 * `count` trips. Treks only, because an expedition names a peak and each peak links back to
 * exactly one expedition; the 23 peaks stay as they are.
 * Usage: node scripts/bench/generate-catalogue.ts <target-content-dir> <count> [source-content-dir]
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function generateCatalogue(source: string, target: string, count: number): void {
  cpSync(source, target, { recursive: true });
  const tripsDir = path.join(target, 'trips');
  const files = readdirSync(tripsDir).filter((f) => f.endsWith('.md'));
  const treks = files.filter((f) => /^type:\s*trek\s*$/m.test(readFileSync(path.join(tripsDir, f), 'utf8'))).sort();
  if (treks.length === 0) throw new Error(`no treks in ${source} to copy`);
  const texts = treks.map((f) => readFileSync(path.join(tripsDir, f), 'utf8'));
  for (let i = 0; files.length + i < count; i += 1) {
    const k = i % treks.length;
    const copy = Math.floor(i / treks.length) + 1;
    const slug = `${treks[k]!.replace(/\.md$/, '')}-route-${copy}`;
    const text = texts[k]!.replace(
      /^name:\s*(.+)$/m,
      (_, name: string) => `name: ${JSON.stringify(`${name.replace(/^["']|["']$/g, '')}, route ${copy}`)}`,
    ).replace(/^priceInr:\s*(\d+)\s*$/m, (_, price: string) => {
      // Prices spread from 80 % to 130 % of the original, in steps of 100 rupees.
      const factor = 0.8 + ((i * 37) % 51) / 100;
      return `priceInr: ${Math.max(100, Math.round((Number(price) * factor) / 100) * 100)}`;
    });
    writeFileSync(path.join(tripsDir, `${slug}.md`), text);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const [target, count, source = path.resolve(import.meta.dirname, '..', '..', 'content')] = process.argv.slice(2);
  if (!target || !count || !(Number(count) > 0)) {
    console.error('Usage: node scripts/bench/generate-catalogue.ts <target-content-dir> <count> [source-content-dir]');
    process.exit(1);
  }
  generateCatalogue(source, target, Number(count));
  console.log(`${readdirSync(path.join(target, 'trips')).length} trips in ${target}`);
}
