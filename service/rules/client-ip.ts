/**
 * Who is asking, for rate limiting. Behind Vercel the platform's own header is trusted;
 * anywhere else only the socket address is, so a client cannot buy a fresh quota by sending
 * its own X-Forwarded-For or X-Real-IP.
 */
import { memoise } from '../http/bounded-memo.ts';

export type ProxyTrust = 'none' | 'vercel';

export function clientIp(
  request: { headers: { get(name: string): string | null } },
  trust: ProxyTrust,
  socketAddress: string | undefined,
): string {
  if (trust === 'vercel') {
    // Vercel overwrites these headers with the connecting client's address.
    const forwarded = request.headers.get('x-real-ip') ?? request.headers.get('x-vercel-forwarded-for')?.split(',')[0];
    const address = forwarded?.trim();
    if (address && (ipv4Pattern.test(address) || ipv6Groups(address))) return address;
  }
  return (socketAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/**
 * The key a client's quota is counted under: an IPv4 address as it is, an IPv6 address by its
 * /64 network. One IPv6 host can use any address of its /64 (privacy addresses rotate through
 * it), so counting single addresses would let it mint fresh quotas at will.
 */
export const clientQuotaKey: (ip: string) => string = memoise(readQuotaKey);

function readQuotaKey(ip: string): string {
  const groups = ipv6Groups(ip);
  if (!groups) return ip.slice(0, 64);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

const ipv4Pattern = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The eight 16-bit groups of an IPv6 address, or null when the text is not one. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.trim().toLowerCase().split('%')[0] ?? '';
  if (!text.includes(':')) return null;
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    if (!ipv4Pattern.test(dotted)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}
