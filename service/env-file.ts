/**
 * The project's `.env` file (a copy of .env.example with the values of this machine), read into
 * the environment by every command that reads settings: `npm start`, `npm run build` (through
 * astro.config.mjs), `npm run serve`, `npm run check` and the operations tools. So a setting
 * written there (`PORT`, `SITE_URL`, `DATA_DIR` …) reaches the build and the server it feeds
 * alike, whichever shell each runs in. A variable set in the environment wins over the file; one
 * set blank counts as unset, as readSettings reads it. Without the file nothing changes. The file
 * is the one of this project folder, wherever the command runs from.
 *
 * It is read by Node's own parser (`util.parseEnv`), by the rules Node documents (.env.example
 * repeats them for whoever edits the file), after a byte-order mark at its start, which some
 * editors write, is dropped. Two mistakes that parse without an error are said when the file is
 * read: a value cut at an unquoted `#` that follows it directly (`pa#ss`: the rest is read as a
 * comment), and a file that holds secrets while other accounts on the machine may read it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { secretSettings } from './config.ts';

const envFile = path.resolve(import.meta.dirname, '..', '.env');

type Values = Record<string, string | undefined>;

/** Says something about the file: a line for the command's error output. */
type Warn = (line: string) => void;

const warnedAbout = new Set<string>();

export function loadEnvFile(file = envFile, warn: Warn = (line) => console.warn(line)): void {
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const values = parseEnv(text);
  for (const [name, value] of Object.entries(values)) {
    if (!process.env[name]) process.env[name] = value;
  }
  // Once per process and file: the build a command starts reads it again, and says it again.
  if (warnedAbout.has(file)) return;
  warnedAbout.add(file);
  for (const line of envFileWarnings(file, text, values)) warn(line);
}

/** What is wrong with a .env file that its parser does not say, one line each. */
function envFileWarnings(file: string, text: string, values: Values): string[] {
  return [...cutAtHash(file, text, values), ...readableSecrets(file, values)];
}

/**
 * Values cut at a `#` written straight after them (`KEY=pa#ss` reads `pa`): Node takes an
 * unquoted `#` as the start of a comment wherever it stands. One after a space (`KEY=value # why`)
 * is a comment as meant. Values are never repeated here, as they may be secrets.
 */
function cutAtHash(file: string, text: string, values: Values): string[] {
  const lines = text.split(/\r?\n/);
  return lines.flatMap((line, index) => {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^\s'"`].*)$/.exec(line);
    if (!match) return [];
    const [, name = '', raw = ''] = match;
    const hash = raw.indexOf('#');
    if (hash <= 0 || /\s/.test(raw[hash - 1]!) || values[name] !== raw.slice(0, hash).trim()) return [];
    return [
      `[settings] ${file} line ${index + 1}: ${name} stops at "#", since an unquoted # starts a comment; put the value in double quotes (${name}="…") to keep the rest.`,
    ];
  });
}

/** A file that holds secrets and that another account on the machine can read or change. */
function readableSecrets(file: string, values: Values): string[] {
  if (process.platform === 'win32') return [];
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  const held = secretSettings.flatMap((setting) => {
    const value = values[setting.name]?.trim();
    if (!value) return [];
    if (setting.kind === 'secret') return [setting.name];
    try {
      return new URL(value).password ? [`the password in ${setting.name}`] : [];
    } catch {
      return [];
    }
  });
  if (held.length === 0) return [];
  return [
    `[settings] ${file} holds secrets (${held.join(', ')}) and other accounts on this machine can read it (mode ${mode.toString(8).padStart(3, '0')}): run chmod 600 ${file}`,
  ];
}
