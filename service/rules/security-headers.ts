/** Headers every response carries; HTML pages get the strict Content-Security-Policy too. */

const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The only answers a page may show in a frame, and only a page of this site: the live departures
 * block, which a trip page frames when JavaScript is off. Everything else refuses every frame.
 */
export const framablePaths: ReadonlySet<string> = new Set(['/departures/block']);

export function securityHeaders(options: { https: boolean; framable?: boolean }): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'X-Frame-Options': options.framable ? 'SAMEORIGIN' : 'DENY',
    'Content-Security-Policy': options.framable
      ? contentSecurityPolicy.replace("frame-ancestors 'none'", "frame-ancestors 'self'")
      : contentSecurityPolicy,
    ...(options.https ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}
