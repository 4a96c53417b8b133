/**
 * Who is asking, for rate limiting. Behind Vercel the platform's own header is trusted;
 * anywhere else only the socket address is, so a client cannot buy a fresh quota by sending
 * its own X-Forwarded-For.
 */
export type ProxyTrust = 'none' | 'vercel';

export function clientIp(request: Request, trust: ProxyTrust, socketAddress: string | undefined): string {
  if (trust === 'vercel') {
    // Vercel overwrites this header with the connecting client's address.
    const forwarded = request.headers.get('x-real-ip') ?? request.headers.get('x-vercel-forwarded-for')?.split(',')[0];
    if (forwarded?.trim()) return forwarded.trim();
  }
  return (socketAddress ?? 'unknown').replace(/^::ffff:/, '');
}
