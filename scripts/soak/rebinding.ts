/**
 * DNS rebinding attempts during the soak (scripts/soak.ts): what a page under a name the attacker
 * points at the server sends, its Host and a matching Origin: an enquiry as JSON and as a form,
 * and an MCP call. Every one must be refused (403); none may be stored.
 */
import { post } from './enquiries.ts';

export interface Rebinding {
  sent: number;
  refused: number;
  /** Answered anything but 403: a failure of the soak. */
  others: string[];
}

export const rebindingName = 'Rebinding Attempt';

export async function rebindingAttempts(origin: () => string, done: () => boolean): Promise<Rebinding> {
  const tally: Rebinding = { sent: 0, refused: 0, others: [] };
  const port = new URL(origin()).port;
  const foreign = { Host: `rebind.example:${port}`, Origin: `http://rebind.example:${port}` };
  const enquiry = { tripSlug: 'hampta-pass-trek', name: rebindingName, phone: '+91 98765 43210', groupSize: 2 };
  for (let i = 0; !done(); i += 1) {
    const address = `127.0.14.${1 + (i % 250)}`;
    const attempts: [string, string, Record<string, string>][] = [
      ['/api/bookings', JSON.stringify(enquiry), foreign],
      [
        '/api/bookings',
        new URLSearchParams({ ...enquiry, groupSize: '2' }).toString(),
        { ...foreign, 'Content-Type': 'application/x-www-form-urlencoded' },
      ],
      [
        '/mcp',
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'send_enquiry', arguments: enquiry },
        }),
        { ...foreign, Accept: 'application/json, text/event-stream' },
      ],
    ];
    for (const [path, body, headers] of attempts) {
      const { status } = await post(origin(), path, address, body, headers);
      tally.sent += 1;
      if (status === 403) tally.refused += 1;
      else tally.others.push(`${path} → ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return tally;
}
