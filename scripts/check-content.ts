/**
 * `npm run check`: the editors' quick loop. Runs every rule the build enforces on `content/`
 * (domain/catalogue/content-check.ts, the same function the build stops on) without building a
 * page, and prints every problem at once, each with its file, field and reason.
 * CONTENT_DIR checks another folder; SITE_URL is the origin whose pages count as the operator's own.
 * Exit codes: 0 no problem, 1 problems listed, 2 the settings could not be read.
 */
import path from 'node:path';
import { checkContent } from '../domain/catalogue/content-check.ts';
import { contentProblemsMessage } from '../domain/catalogue/content-files.ts';
import { loadEnvFile } from '../service/env-file.ts';
import { readSettings, SettingsError } from '../service/config.ts';

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

const started = performance.now();
let siteUrl: string;
let dir: string;
try {
  ({ siteUrl, CONTENT_DIR: dir } = readSettings());
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const { files, problems } = checkContent(path.resolve(dir), { siteUrl, photoFiles: true });
const settings = [files.site, files.royalty].filter(Boolean).length;
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const checked = `Checked ${count(files.present.trips.length, 'trip')}, ${count(files.present.peaks.length, 'peak')} and ${count(settings, 'settings file')} in ${dir} (${seconds} s)`;
if (problems.length === 0) {
  console.log(`${checked}: no problems.`);
} else {
  console.error(
    `${contentProblemsMessage(problems)}\n\n${checked}. Fix these and run npm run check again; docs/editing-content.md explains each rule.`,
  );
  process.exitCode = 1;
}
