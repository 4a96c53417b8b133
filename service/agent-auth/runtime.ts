/**
 * The agent-registration dependencies of one running instance, built from the settings by the
 * agent-auth function (service/functions/agent-auth.ts) on first use: trusted issuers, signing
 * keys, and the registry on the shared operational storage (null when OPERATIONAL_STORAGE=off),
 * with the service name of the build a request is answered from. A failed key load or storage
 * open is retried on the next request.
 */
import { SettingsError, type Settings } from '../config.ts';
import { openOperationalStorage } from '../storage/connection.ts';
import type { CounterStore } from '../rules/rate-limiter.ts';
import { TrustedIssuers } from './assertions.ts';
import { createAgentAuthLimiters, defaultClaimWindow, type AgentAuthDeps } from './deps.ts';
import type { MetadataInput } from './metadata.ts';
import { AgentRegistry } from './registry.ts';
import { ServiceTokens } from './service-tokens.ts';
import { loadSigningKeys, type SigningKeys } from './signing-keys.ts';

export interface AgentAuthRuntime {
  metadata: MetadataInput;
  keys(): Promise<SigningKeys>;
  deps(): Promise<AgentAuthDeps | null>;
}

function retried<T>(open: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= open().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/**
 * The runtime of an instance, for a service by a given name (the build's); throws SettingsError
 * when an AGENT_* setting is wrong, and callers answer 503 and log it.
 */
export function agentAuthRuntime(
  settings: Settings,
  counters: () => Promise<CounterStore>,
): (resourceName: string) => AgentAuthRuntime {
  const agent = settings.agentAuth;
  if (agent instanceof SettingsError) throw agent;
  const issuers = new TrustedIssuers(agent.trustedIssuers);
  const keys = retried(() =>
    loadSigningKeys({
      signingKey: agent.signingKey,
      previousKeys: agent.previousKeys,
      dataDir: settings.DATA_DIR,
      requireConfiguredKey: settings.DEPLOY_TARGET === 'vercel',
    }),
  );
  const opened = retried(async (): Promise<Omit<AgentAuthDeps, 'resourceName'> | null> => {
    const sql = await openOperationalStorage(settings);
    if (!sql) return null;
    // On the counter store the whole deployment shares, so the limits hold across instances.
    const limiters = createAgentAuthLimiters(await counters());
    return {
      siteUrl: settings.siteUrl,
      anonymousEnabled: agent.anonymousEnabled,
      issuers,
      // Migrates on first use, and again after a failure, so a database that was down recovers.
      registry: new AgentRegistry(sql),
      tokens: new ServiceTokens(await keys(), settings.siteUrl),
      clock: Date.now,
      limiters,
      claimWindow: defaultClaimWindow,
    };
  });
  return (resourceName) => ({
    metadata: {
      siteUrl: settings.siteUrl,
      resourceName,
      anonymousEnabled: agent.anonymousEnabled,
      trustedIssuers: issuers.issuers,
    },
    keys,
    deps: async () => {
      const parts = await opened();
      return parts && { ...parts, resourceName };
    },
  });
}
