/**
 * The rate-limit policies, defined once and read by the limiter, the response headers,
 * the service index and the OpenAPI document.
 */
export interface RateLimitPolicy {
  /** Counter key prefix, so two policies never share counts. */
  name: string;
  requests: number;
  windowSeconds: number;
  scope: string;
  /**
   * What the limiter does while the shared counter store (Redis, Upstash) cannot be reached:
   * `in-process` (the default) counts in the process's own memory until the store answers
   * again, so the quota still holds on each instance; `open` lets requests through uncounted.
   */
  whenStoreFails?: 'in-process' | 'open';
}

export const apiRateLimit: RateLimitPolicy = {
  name: 'api',
  requests: 120,
  windowSeconds: 60,
  scope: 'client IP, every request under /v1',
  // Reads keep answering, and without rate-limit headers rather than numbers from one instance.
  whenStoreFails: 'open',
};

/**
 * Live pages, twins, calendars and the departures block rendered afresh for a client: a request
 * answered from a kept copy costs nothing and is not counted.
 */
export const renderRateLimit: RateLimitPolicy = {
  name: 'render',
  requests: 120,
  windowSeconds: 60,
  scope: 'client IP, live pages, twins and calendars rendered afresh (not from a kept copy)',
};

export const bookingRateLimit: RateLimitPolicy = {
  name: 'bookings',
  requests: 5,
  windowSeconds: 600,
  scope: 'client IP, POST /api/bookings',
};

/**
 * Asking to watch a date or a search (POST /alerts/watch), per client. Each address has limits of
 * its own, whoever asks (`alertAddressQuota`).
 */
export const alertRateLimit: RateLimitPolicy = {
  name: 'alerts',
  requests: 10,
  windowSeconds: 600,
  scope: 'client IP, POST /alerts/watch',
};

/**
 * Per email address, whoever asks for it: at most this many confirmation emails in 24 hours, and
 * this many watches kept. Over either, the answer is the same as ever and nothing is sent or kept,
 * so nobody can fill a stranger's inbox, nor learn what an address watches (service/alerts/).
 */
export const alertAddressQuota = { confirmationsPerDay: 3, watches: 20 } as const;

/** The headers every /v1 response carries (Retry-After only on 429). */
export const rateLimitHeaderNames = [
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
] as const;
