/**
 * What the live functions receive: the settings, the catalogue (read on first use from the
 * content the build being served was made of, the same files and schemas, and kept per build:
 * site-build.ts), live departures on
 * operational storage, the counter store, the bookings path (enquiry store, mailer, enquiry
 * limit), agent registration and the clock. Each api/<name>.ts entry hands its function the
 * process's one set (`liveDeps()`), so every function of a process shares one catalogue, one
 * storage connection and one counter store: on Vercel one function runs per process, on the Node
 * host all of them in the server's.
 *
 * Each part is made at first use and kept, and a part that fails to open is tried again on the
 * next request: a wrong setting or content file is answered per request (503, in plain words),
 * never at import, and a function that never touches storage never opens it.
 */
import path from 'node:path';
import { buildCatalogue, type Catalogue } from '../../domain/catalogue/index.ts';
import { readContent } from '../../domain/catalogue/content-files.ts';
import { agentAuthRuntime, type AgentAuthRuntime } from '../agent-auth/runtime.ts';
import { openBookingDeps, type RuntimeBookingDeps } from '../bookings/runtime.ts';
import { readSettings, type Settings } from '../config.ts';
import { sharedCounterStore } from '../rules/counter-stores.ts';
import { renderRateLimit } from '../rules/policy.ts';
import { createRateLimiter, type CounterStore, type RateLimiter } from '../rules/rate-limiter.ts';
import { liveDepartures, type LiveDepartureReads } from './live-storage.ts';
import { keptPerBuild } from './site-build.ts';

export interface LiveDeps {
  /** The deployment's settings; a wrong value throws SettingsError naming it. */
  settings(): Settings;
  /** The catalogue as the build being served was made from it; a content mistake throws ContentError. */
  catalogue(): Catalogue;
  /** Published departures, read at most once a second per trip and bounded in time. */
  departures: LiveDepartureReads;
  /** The counter store the request rules and every function of the process count on. */
  counters(): Promise<CounterStore>;
  /** The render quota's limiter: one per process, so counts kept in the process while the store is away are one per client. */
  renderLimiter(): Promise<RateLimiter>;
  /** The enquiry path's store, mailer, limit and seats: opened at the first enquiry. */
  bookings(): Promise<RuntimeBookingDeps>;
  /** Agent registration; throws SettingsError when an AGENT_* setting is wrong. */
  agentAuth(): AgentAuthRuntime;
  clock(): Date;
}

/** The catalogue as the site was built from it: the same files, schemas and cross-checks. */
export function catalogueFromContent(dir: string, current: Settings): Catalogue {
  const source = readContent(dir);
  const site = current.CONTACT_EMAIL ? { ...source.site, contactEmail: current.CONTACT_EMAIL } : source.site;
  return buildCatalogue({ ...source, site }, current.siteUrl);
}

/** Made once, and again after a failure. */
function kept<T>(open: () => T): () => T {
  let value: { made: T } | undefined;
  return () => {
    if (value) return value.made;
    const made = open();
    if (made instanceof Promise) made.catch(() => (value = undefined));
    value = { made };
    return made;
  };
}

/** The dependencies of every function in a process that reads `readSettingsOnce`'s settings. */
export function createLiveDeps(readSettingsOnce: () => Settings = () => readSettings()): LiveDeps {
  const settings = kept(readSettingsOnce);
  // One per build of the site: the Node host takes up a newly published build without a restart (service/host/site-builds.ts).
  const catalogue = keptPerBuild((build) =>
    catalogueFromContent(build?.contentDir ?? path.resolve(settings().CONTENT_DIR), settings()),
  );
  const counters = kept(() => sharedCounterStore(settings().counters));
  const renderLimiter = kept(async () => createRateLimiter(renderRateLimit, await counters()));
  const bookings = kept(() => openBookingDeps(settings(), catalogue(), counters));
  const agentAuth = kept(() => agentAuthRuntime(settings(), catalogue().site.serviceName, counters));
  return {
    settings,
    catalogue,
    departures: liveDepartures(settings, catalogue),
    counters,
    renderLimiter,
    bookings,
    agentAuth,
    clock: () => new Date(),
  };
}

let processDeps: LiveDeps | undefined;

/** This process's dependencies, shared by every function it runs. */
export function liveDeps(): LiveDeps {
  processDeps ??= createLiveDeps();
  return processDeps;
}
