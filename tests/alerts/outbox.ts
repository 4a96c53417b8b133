/**
 * The emails an outbox (DATA_DIR/outbox) holds, as a mail client reads them (postal-mime): for
 * the alert tests, which find each email by its address and read its headers and links.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';

export interface OutboxMail {
  file: string;
  /** When the file was written (ms), to tell the order of emails whose names are random. */
  writtenAt: number;
  to: string;
  subject: string;
  text: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const parsed = await PostalMime.parse(readFileSync(path.join(dir, file)));
      return {
        file,
        writtenAt: statSync(path.join(dir, file)).mtimeMs,
        to: parsed.to?.[0]?.address ?? '',
        subject: parsed.subject ?? '',
        text: parsed.text ?? '',
        headers: Object.fromEntries(parsed.headers.map((h) => [h.key, h.value])),
      };
    }),
  );
}
