/**
 * Live departures for the functions that show them: operational storage opened when departures
 * are first asked for (service/storage/connection.ts shares the connection with every other
 * store of the process), read through the one bound on reads (recentReads), once per instance,
 * and shown with the catalogue of the build a function answers from.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { readLiveDepartures, type LiveDepartures } from '../departures/live.ts';
import { recentReads, type RecentReads } from '../departures/recent-reads.ts';
import type { DepartureSource } from '../departures/source.ts';
import type { LiveDeps, LiveInstance } from './runtime.ts';

export interface LiveDepartureReads {
  /** The departures as /v1 reads them, or null when OPERATIONAL_STORAGE=off. */
  source(): DepartureSource | null;
  /** Published upcoming departures for a page, or why there are none to show (never throws). */
  live(tripSlug?: string): Promise<LiveDepartures>;
  /**
   * The id of the read whose rows answer `tripSlug` now (reading when none is fresh), or null
   * when there is no storage or it cannot be read: what a live answer is kept under.
   */
  readId(tripSlug?: string): Promise<number | null>;
}

/** Opens the instance's departures store (seeded from `catalogue` when it is new), or null when storage is off. */
type DepartureOpener = (catalogue: Catalogue) => Promise<RecentReads | null>;

/**
 * The departures store of an instance, read at most once a second per filter; a failed open is
 * retried next time. The first build to read it seeds a new embedded store from its catalogue.
 */
function departureStore(instance: LiveInstance): DepartureOpener {
  let opened: Promise<RecentReads | null> | undefined;
  return (catalogue) => {
    // The store and the storage beneath it are loaded with the first read: a page that shows no
    // departures (a trip's move, a not-found) never loads them.
    opened ??=
      instance.settings().OPERATIONAL_STORAGE === 'off'
        ? Promise.resolve(null)
        : import('../departures/store.ts')
            .then(({ openDepartureStore }) => openDepartureStore(instance.settings(), catalogue))
            .then((store) => (store ? recentReads(store, instance.settings()) : null));
    opened.catch(() => (opened = undefined));
    return opened;
  };
}

/** The instance's departures as one build shows them. */
export function liveDepartures(deps: LiveDeps): LiveDepartureReads {
  const open = deps.shared(departureStore);
  const reads = () => open(deps.build.catalogue());

  /**
   * Opens storage only when departures are asked for, so catalogue answers never wait for the
   * database. `ready` waits for the first open (the embedded database's can take seconds), which
   * includes a first preparation (migrations, seed); once it is done, preparing again after a
   * failure happens inside a read, within the one bound on reads, never on top of it.
   */
  const lazy: DepartureSource = {
    ready: async () => {
      await reads();
    },
    listPublished: async (filter) => {
      const source = await reads();
      if (!source) throw new Error('operational storage is off');
      return source.listPublished(filter);
    },
  };

  return {
    source: () => (deps.settings().OPERATIONAL_STORAGE === 'off' ? null : lazy),
    async live(tripSlug) {
      let source: RecentReads | null;
      try {
        source = await reads();
      } catch (error) {
        console.error(
          `[departures] storage could not be opened: ${error instanceof Error ? error.message : String(error)}`,
        );
        return { state: 'unavailable' };
      }
      return readLiveDepartures(source, deps.build.catalogue(), tripSlug ? { tripSlug } : {});
    },
    async readId(tripSlug) {
      try {
        const source = await reads();
        return source ? (await source.read(tripSlug ? { tripSlug } : {})).id : null;
      } catch {
        return null;
      }
    },
  };
}
