/**
 * What the agent-registration handlers need, passed in: the site origin (issuer and
 * resource), storage, keys, the trusted issuers, a clock and per-IP limits. Tests build the
 * same object around an in-memory database and a test identity provider.
 */
import { createRateLimiter, MemoryCounterStore, type CounterStore, type RateLimiter } from '../rules/rate-limiter.ts';
import type { RateLimitPolicy } from '../rules/policy.ts';
import type { TrustedIssuers } from './assertions.ts';
import { lifetimes } from './metadata.ts';
import { rateLimited } from './oauth-response.ts';
import type { AgentRegistry, ClaimWindow } from './registry.ts';
import type { ServiceTokens } from './service-tokens.ts';
import { clientQuotaKey } from '../rules/client-ip.ts';

/**
 * Per client IP: registrations create records, claim attempts guess codes, token and credential
 * checks verify signatures, security events verify a provider's signature and write revocations,
 * so each is bounded. On a deployment with shared counters (Upstash or Redis) the bound holds
 * across every instance.
 */
export const agentAuthLimits = {
  registration: {
    name: 'agent-registration',
    requests: 20,
    windowSeconds: 600,
    scope: 'client IP, POST /agent/auth and /agent/identity',
  },
  claimAttempt: {
    name: 'agent-claim',
    requests: 10,
    windowSeconds: 60,
    scope: 'client IP, POST /agent/claim and /agent/identity/claim',
  },
  token: {
    name: 'agent-token',
    requests: 120,
    windowSeconds: 60,
    scope: 'client IP, POST /oauth/token and /oauth/revoke',
  },
  credential: { name: 'agent-credential', requests: 120, windowSeconds: 60, scope: 'client IP, GET /agent/credential' },
  events: { name: 'agent-events', requests: 60, windowSeconds: 60, scope: 'client IP, POST /agent/event/notify' },
} satisfies Record<string, RateLimitPolicy>;

export type AgentAuthLimiters = Record<keyof typeof agentAuthLimits, RateLimiter | null>;

export function createAgentAuthLimiters(store: CounterStore = new MemoryCounterStore()): AgentAuthLimiters {
  return {
    registration: createRateLimiter(agentAuthLimits.registration, store),
    claimAttempt: createRateLimiter(agentAuthLimits.claimAttempt, store),
    token: createRateLimiter(agentAuthLimits.token, store),
    credential: createRateLimiter(agentAuthLimits.credential, store),
    events: createRateLimiter(agentAuthLimits.events, store),
  };
}

export interface AgentAuthDeps {
  siteUrl: string;
  resourceName: string;
  anonymousEnabled: boolean;
  issuers: TrustedIssuers;
  registry: AgentRegistry;
  tokens: ServiceTokens;
  /** Milliseconds since the epoch. */
  clock: () => number;
  limiters: AgentAuthLimiters;
  claimWindow: ClaimWindow;
}

/** Who is asking, as the host knows it. */
export interface ClientContext {
  clientIp: string;
}

export const defaultClaimWindow: ClaimWindow = {
  userCodeSeconds: lifetimes.userCodeSeconds,
  claimSeconds: lifetimes.claimSeconds,
  intervalSeconds: lifetimes.pollIntervalSeconds,
};

/** A 429 when the client is over `limiter`'s quota, else null. A failing counter lets the request through. */
export async function overLimit(limiter: RateLimiter | null, client: ClientContext): Promise<Response | null> {
  if (!limiter) return null;
  try {
    const decision = await limiter(clientQuotaKey(client.clientIp));
    return decision.allowed ? null : rateLimited(decision.resetSeconds);
  } catch {
    return null;
  }
}
