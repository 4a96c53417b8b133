/**
 * `npm run departures -- <command>`: the operations team's tool for departures in operational
 * storage (service/departures/command.ts), run with this process's arguments, environment and
 * output. Exit codes: 0 done, 1 the input was refused (nothing changed), 2 storage could not be used.
 */
import { runDeparturesCommand } from '../service/departures/command.ts';
import { loadEnvFile } from '../service/env-file.ts';

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

process.exitCode = await runDeparturesCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
