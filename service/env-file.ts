/**
 * The project's `.env` file (a copy of .env.example with the values of this machine), read into
 * the environment by every command that reads settings: `npm start`, `npm run build` (through
 * astro.config.mjs), `npm run serve`, `npm run check` and the operations tools. So a setting
 * written there (`PORT`, `SITE_URL`, `DATA_DIR` …) reaches the build and the server it feeds
 * alike, whichever shell each runs in. A variable set in the environment wins over the file; one
 * set blank counts as unset, as readSettings reads it. Without the file nothing changes. The file
 * is the one of this project folder, wherever the command runs from.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

export const envFile = path.resolve(import.meta.dirname, '..', '.env');

export function loadEnvFile(file = envFile): void {
  if (!existsSync(file)) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (!process.env[name]) process.env[name] = value;
  }
}
