/** Runs the real departures CLI (`node scripts/departures.ts`) as a child process. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCli(projectDir: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(projectDir, 'scripts', 'departures.ts'), ...args], {
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
