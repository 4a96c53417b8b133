/**
 * The project's `.env` file (a copy of .env.example with the values of this machine), read into
 * the environment by every command that reads settings: `npm start`, `npm run build` (through
 * astro.config.mjs), `npm run serve`, `npm run check` and the operations tools. So a setting
 * written there (`PORT`, `SITE_URL`, `DATA_DIR` …) reaches the build and the server it feeds
 * alike, whichever shell each runs in. A variable set in the environment wins over the file;
 * without the file nothing changes. The file is the one of this project folder, wherever the
 * command runs from.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const envFile = path.resolve(import.meta.dirname, '..', '.env');

export function loadEnvFile(file = envFile): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
