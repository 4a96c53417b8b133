/**
 * `npm run peak-data -- archive`: keeps the files of the dataset's current release before its
 * version is raised (service/peak-data/archive.ts), run with this process's arguments,
 * environment and output. Exit codes: 0 kept, 1 refused (nothing written).
 */
import { loadEnvFile } from '../service/env-file.ts';
import { runPeakDataCommand } from '../service/peak-data/archive.ts';

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

process.exitCode = await runPeakDataCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
