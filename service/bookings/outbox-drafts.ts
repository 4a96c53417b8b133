/**
 * The local outbox writes each email as a draft first (`.<enquiry>.<process>.<random>.tmp`, the
 * process as processes.ts tags it: its pid and start) and
 * links it to its final name (`<enquiry>.eml`), then removes the draft (mailer.ts). A process
 * killed in between leaves its draft behind; the server removes those when it starts.
 *
 * Removing a draft never loses an enquiry: a draft that was linked is the email's second name
 * (the `.eml` stays), and one that was not is an email never delivered, whose enquiry is still
 * pending in storage (`npm run enquiries -- retry --all` sends it). A draft is removed only when
 * the process named in it has ended (processes.ts), or when it is older than any write takes
 * (its pid now another process's); a draft of a live process exists for milliseconds.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Settings } from '../config.ts';
import { processTag, taggedProcessEnded } from '../storage/processes.ts';

/** A draft this old was abandoned, whatever runs on its pid now. */
const abandonedAfterMs = 10 * 60_000;

/** The outbox folder of these settings. */
export function outboxDir(settings: Pick<Settings, 'DATA_DIR'>): string {
  return path.resolve(settings.DATA_DIR, 'outbox');
}

/** Where this process writes the draft of `reference`'s email. */
export function draftFile(dir: string, reference: string): string {
  return path.join(dir, `.${reference}.${processTag}.${randomBytes(4).toString('hex')}.tmp`);
}

/** The process a draft's name gives, or null for a name without one (written before drafts were named so). */
function draftProcess(name: string): string | null {
  return /^\.[^.]+\.(\d+(?:-\d+)?)\.[0-9a-f]+\.tmp$/.exec(name)?.[1] ?? null;
}

/** Removes the drafts in `dir` whose process has ended (see above); returns how many. */
export function removeAbandonedDrafts(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // no outbox yet
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith('.') || !name.endsWith('.tmp')) continue;
    const file = path.join(dir, name);
    const writer = draftProcess(name);
    let old: boolean;
    try {
      old = now - statSync(file).mtimeMs > abandonedAfterMs;
    } catch {
      continue; // removed meanwhile by its writer
    }
    if (old || (writer !== null && taggedProcessEnded(writer))) {
      rmSync(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}
