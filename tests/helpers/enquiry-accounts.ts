/**
 * The enquiries of a fault, accounted as the soak accounts them (scripts/soak/enquiries.ts): each
 * one sent, accepted (answered with a reference), stored, delivered, and stored though its
 * visitor got no answer (who then sends it again: a duplicate for the team). Read from the
 * embedded database in `dataDir` once its server has gone, and printed as a row of the restart
 * and shutdown fault table.
 */
import path from 'node:path';
import { account, type Accounting, type EnquiryAnswer } from '../../scripts/soak/enquiries.ts';
import { openEmbeddedDatabase } from '../../service/storage/embedded.ts';

export async function accountEmbedded(dataDir: string, answers: readonly EnquiryAnswer[]): Promise<Accounting> {
  const sql = await openEmbeddedDatabase(path.join(dataDir, 'pglite'));
  try {
    return await account(sql, answers);
  } finally {
    await sql.close();
  }
}

/** One row of the fault table, in the test's output. */
export function faultRow(fault: string, counted: Accounting, note = ''): void {
  console.info(
    `[fault table] ${fault} | sent ${counted.sent} | accepted ${counted.accepted} | stored ${counted.stored} | ` +
      `delivered ${counted.delivered} | duplicated ${counted.storedUnanswered}${note ? ` | ${note}` : ''}`,
  );
}
