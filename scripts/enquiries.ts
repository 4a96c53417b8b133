/**
 * `npm run enquiries -- <command>`: the team's view of booking enquiries in operational storage
 * (service/bookings/command.ts: list, show, retry), run with this process's arguments,
 * environment and output.
 */
import { runEnquiriesCommand } from '../service/bookings/command.ts';
import { loadEnvFile } from '../service/env-file.ts';

// Settings written in .env reach this command as they reach the server (service/env-file.ts).
loadEnvFile();

process.exitCode = await runEnquiriesCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
