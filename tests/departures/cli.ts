/**
 * The departures command two ways: as people run it, a child process (`node scripts/departures.ts`,
 * or `npm run departures`), and in this process through its entry function
 * (service/departures/command.ts) with the same arguments and environment, for the many cases
 * where a process of its own proves nothing more than its exit code, which the function returns.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { runDeparturesCommand } from '../../service/departures/command.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node scripts/departures.ts <args>` in `projectDir`, or `npm run departures -- <args>` with `viaNpm`. */
export function runCli(
  projectDir: string,
  args: string[],
  env: Record<string, string>,
  options: { viaNpm?: boolean } = {},
): Promise<CliResult> {
  const started = Date.now();
  const [command, commandArgs] = options.viaNpm
    ? ['npm', ['run', '--silent', 'departures', '--', ...args]]
    : [process.execPath, [path.join(projectDir, 'scripts', 'departures.ts'), ...args]];
  const child = spawn(command, commandArgs, {
    cwd: projectDir,
    env: { ...process.env, OPERATIONAL_STORAGE: 'embedded', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * Runs the command in this process, as `runCli` would in `projectDir` (whose content it reads),
 * with `env` over this process's environment; returns its exit code and all it wrote. Not for an
 * embedded database a server in this process hosts (tests/helpers/in-process.ts): a host file
 * naming this process's own pid reads as one left behind, so the command would open the folder
 * a second time instead of using the bridge. Use `runCli` there.
 */
export async function runCommand(projectDir: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const started = Date.now();
  let stdout = '';
  let stderr = '';
  const code = await runDeparturesCommand(args, {
    env: { ...process.env, OPERATIONAL_STORAGE: 'embedded', CONTENT_DIR: path.join(projectDir, 'content'), ...env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr, ms: Date.now() - started };
}
