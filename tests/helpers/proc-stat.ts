/**
 * A process as Linux's /proc/<pid>/stat describes it: its state and the CPU time it has used.
 * Null where there is no such process (or no /proc).
 */
import { readFileSync } from 'node:fs';

/** The fields after the command name (in parentheses, which may hold spaces): field 3, the state, on. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The state letter of a process (`Z` for a zombie). */
export function processState(pid: number): string | null {
  return statFields(pid)?.[0] ?? null;
}

/** The CPU time a process has used, user and system, in ms (/proc counts USER_HZ, 100 a second). */
export function processCpuMs(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : null;
}
