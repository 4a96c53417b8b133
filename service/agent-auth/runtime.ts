/**
 * The agent-registration dependencies of one running process, built from the settings by the
 * functions' runtime (service/functions/runtime.ts) on first use: trusted issuers, signing keys,
 * and the registry on the shared operational storage (null when OPERATIONAL_STORAGE=off). A
 * failed key load or storage open is retried on the next request.
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

/** Throws SettingsError when an AGENT_* setting is wrong; callers answer 503 and log it. */
export function agentAuthRuntime(
  settings: Settings,
  resourceName: string,
  counters: () => Promise<CounterStore>,
): AgentAuthRuntime {
  const agent = settings.agentAuth;
  if (agent instanceof SettingsError) throw agent;
  const issuers = new TrustedIssuers(agent.trustedIssuers);
  const metadata: MetadataInput = {
    siteUrl: settings.siteUrl,
    resourceName,
    anonymousEnabled: agent.anonymousEnabled,
    trustedIssuers: issuers.issuers,
  };
  const keys = retried(() =>
    loadSigningKeys({
      signingKey: agent.signingKey,
      previousKeys: agent.previousKeys,
      dataDir: settings.DATA_DIR,
      requireConfiguredKey: settings.DEPLOY_TARGET === 'vercel',
    }),
  );
  const deps = retried(async (): Promise<AgentAuthDeps | null> => {
    const sql = await openOperationalStorage(settings);
    if (!sql) return null;
    // On the counter store the whole deployment shares, so the limits hold across instances.
    const limiters = createAgentAuthLimiters(await counters());
    return {
      siteUrl: settings.siteUrl,
      resourceName,
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
  return { metadata, keys, deps };
}
