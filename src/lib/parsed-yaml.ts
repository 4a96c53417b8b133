/**
 * The build's memory of parsed YAML (domain/catalogue/content-files.ts, `ParsedYaml`): each
 * value under a hash of the text it was parsed from, in one file under `node_modules/.cache`,
 * where the picture cache is and which Vercel keeps between deploys. Values are stored with
 * v8's serializer, which keeps every YAML value as parsed (Infinity included). A build keeps
 * only what it read, so the file holds one catalogue's worth.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ParsedYaml } from '../../domain/catalogue/content-files.ts';

/** js-yaml's version and the schema the reader uses: a new version parses everything again. */
function parser(): string {
  const { version } = JSON.parse(
    readFileSync(path.join(process.cwd(), 'node_modules', 'js-yaml', 'package.json'), 'utf8'),
  ) as { version: string };
  return `js-yaml ${version} core schema`;
}

const parsedYamlFile = path.join('node_modules', '.cache', 'content', 'parsed-yaml.v8');

export interface KeptParsedYaml extends ParsedYaml {
  /** Writes what this run read, if it read anything new or left anything out. */
  save(): void;
}

export function keptParsedYaml(file = path.resolve(parsedYamlFile)): KeptParsedYaml {
  const version = parser();
  const keyOf = (text: string) => createHash('sha256').update(version).update('\0').update(text).digest('base64url');
  let earlier = new Map<string, unknown>();
  try {
    earlier = deserialize(readFileSync(file)) as Map<string, unknown>;
  } catch {
    // Nothing kept yet, or written by another Node: parse everything.
  }
  const used = new Map<string, unknown>();
  let changed = false;
  return {
    get(text) {
      const key = keyOf(text);
      const value = earlier.get(key);
      if (value !== undefined) used.set(key, value);
      return value;
    },
    set(text, value) {
      used.set(keyOf(text), value);
      changed = true;
    },
    save() {
      if (!changed && used.size === earlier.size) return;
      mkdirSync(path.dirname(file), { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, serialize(used));
      renameSync(partial, file);
    },
  };
}
