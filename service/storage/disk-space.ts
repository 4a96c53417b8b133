/**
 * A full disk, told apart from other failures so the people running the site read what to do.
 * Node reports it as ENOSPC (or EDQUOT, over a quota); PGlite's file system, which is
 * Emscripten's, as an object `{ name: 'ErrnoError', errno: 51 }` (WASI's numbering: 51 ENOSPC,
 * 19 EDQUOT) that is not even an Error. A failure of another kind on a disk with next to no room
 * left counts too: Postgres may word it its own way.
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';

/** Below this much room, a disk counts as full whatever the error says. */
const fullBelowBytes = 1024 * 1024;

const nodeCodes = new Set(['ENOSPC', 'EDQUOT']);
const emscriptenErrnos = new Set([51, 19]);

function saysNoSpace(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errno, name, cause } = error as { code?: unknown; errno?: unknown; name?: unknown; cause?: unknown };
  if (typeof code === 'string' && nodeCodes.has(code)) return true;
  if (name === 'ErrnoError' && typeof errno === 'number' && emscriptenErrnos.has(errno)) return true;
  return cause !== undefined && cause !== error && saysNoSpace(cause);
}

/** The room left for this account on the disk holding `dir` (or its nearest existing parent), in bytes; null when unknown. */
function roomLeft(dir: string): number | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      const disk = statfsSync(at);
      return disk.bavail * disk.bsize;
    } catch {
      if (path.dirname(at) === at) return null;
    }
  }
}

/** A failure's own words, for failures that are not Errors (PGlite's file system throws plain objects). */
export function failureText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { name, errno, message } = error as { name?: unknown; errno?: unknown; message?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof name === 'string') return typeof errno === 'number' ? `${name} (errno ${errno})` : name;
  }
  return String(error);
}

/** The disk holding `dir` is full: what failed, in words a person acts on. */
export class DiskFullError extends Error {
  readonly dir: string;
  constructor(dir: string, cause: unknown) {
    super(`the disk holding ${dir} is full (no space left on device)`, { cause });
    this.name = 'DiskFullError';
    this.dir = dir;
  }
}

/** `error` as a DiskFullError when it (or the disk holding `dir`) says the disk is full; otherwise an Error with its own words. */
export function storageFailure(error: unknown, dir: string): Error {
  if (error instanceof DiskFullError) return error;
  if (saysNoSpace(error)) return new DiskFullError(dir, error);
  const room = roomLeft(dir);
  if (room !== null && room < fullBelowBytes) return new DiskFullError(dir, error);
  return error instanceof Error ? error : new Error(failureText(error), { cause: error });
}
