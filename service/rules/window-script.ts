/**
 * One hit on a fixed window as a Redis Lua script, shared by the TCP store (node-redis) and the
 * REST store (Upstash). Redis runs a script as one atomic step: the increment, the expiry of a
 * window that this hit opened and the read of its remaining time cannot interleave with another
 * hit, from this instance or any other, so no two requests ever see the same count.
 */
import type { WindowCount } from './rate-limiter.ts';

/**
 * KEYS[1] the client's counter; ARGV[1] the window in milliseconds; ARGV[2] how many requests
 * this hit counts (1 when absent). Returns { count, ms left }.
 */
export const windowHitScript = `
local weight = tonumber(ARGV[2]) or 1
local count = redis.call('INCRBY', KEYS[1], weight)
if count == weight then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`;

/** Reads the script's reply; anything else means the store misbehaved, which fails open upstream. */
export function windowCountFromReply(reply: unknown): WindowCount {
  if (Array.isArray(reply) && reply.length === 2) {
    const [count, resetMs] = reply.map(Number);
    if (Number.isInteger(count) && count! > 0 && Number.isFinite(resetMs) && resetMs! >= 0)
      return { count: count!, resetMs: resetMs! };
  }
  throw new Error(`unexpected counter reply ${JSON.stringify(reply)?.slice(0, 80)}`);
}
