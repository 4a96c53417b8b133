/**
 * What the live functions receive: an instance of the site and one build of it.
 *
 * The instance is what every build of one running site shares: its settings, the counter store,
 * the render quota's limiter, the clock, and the parts on operational storage (live departures,
 * the enquiry store, agent registration), each made by the first function that asks for it
 * (`shared`) and then used by all. On Vercel a function's process is one instance
 * (deployment.ts); the Node host makes one per server (server.ts), so two servers in one process,
 * set up differently, never share one.
 *
 * The build is what a function answers from: the catalogue, the page frames, and everything
 * worked out from them (the enquiry checks, MCP's schemas, kept answers), made per build
 * (site-build.ts). Each functions/<name>.ts entry makes its function from the two.
 *
 * A part that fails to open is tried again on the next request: a wrong setting or content file
 * is answered per request (503, in plain words), never at import, and a function that never
 * touches storage never opens it.
 */
import type { Settings } from '../config.ts';
import { renderRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type CounterStore, type RateLimiter } from '../rules/rate-limiter.ts';
import type { SiteBuild } from './site-build.ts';

export interface LiveInstance {
  /** The deployment's settings; a wrong value throws SettingsError naming it. */
  settings: () => Settings;
  /** The counter store the request rules and every function of the instance count on. */
  counters: () => Promise<CounterStore>;
  /** The render quota's limiter: one per instance, so counts kept while the store is away are one per client. */
  renderLimiter: () => Promise<RateLimiter>;
  clock: () => Date;
  /** The part `make` makes of this instance, made once and shared by every function and build. */
  shared<T>(make: (instance: LiveInstance) => T): T;
}

/** A function's dependencies: the instance, and the build it answers from. */
export interface LiveDeps extends LiveInstance {
  build: SiteBuild;
}

/** Made once, and again after a failure. */
export function kept<T>(open: () => T): () => T {
  let value: { made: T } | undefined;
  return () => {
    if (value) return value.made;
    const made = open();
    if (made instanceof Promise) made.catch(() => (value = undefined));
    value = { made };
    return made;
  };
}

export interface InstanceOptions {
  settings: () => Settings;
  counters: () => Promise<CounterStore>;
  clock?: () => Date;
}

/** An instance on these settings and this counter store, its parts made at first use. */
export function liveInstance(options: InstanceOptions): LiveInstance {
  const settings = kept(options.settings);
  const counters = kept(options.counters);
  const renderLimiter = kept(async () => createRateLimiter(renderRateLimit, await counters()));
  const parts = new Map<(instance: LiveInstance) => unknown, unknown>();
  const instance: LiveInstance = {
    settings,
    counters,
    renderLimiter,
    clock: options.clock ?? (() => new Date()),
    shared<T>(make: (instance: LiveInstance) => T): T {
      if (parts.has(make)) return parts.get(make) as T;
      const part = make(instance);
      parts.set(make, part);
      return part;
    },
  };
  return instance;
}
