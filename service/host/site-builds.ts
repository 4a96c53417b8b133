/**
 * The build of the site the Node host serves, and how it takes up the next one without a restart.
 *
 * Everything the host and the live functions read from a build is one view: its files (and their
 * compressed copies), its route table, the catalogue the functions answer from (read from the
 * content the build was made of), the page frames, and every answer kept from it (the host's
 * edge cache, the functions' kept answers). `npm run build` publishes a build whole, in one
 * rename (scripts/publish-build.ts); the host notices (it watches dist/ and looks again at most
 * once a second as requests come), opens the new view, reads its catalogue, and then serves it by
 * one assignment. Each request is answered by the view it started with, to its last byte (its
 * files, and its functions: request-handler.ts), so every answer comes wholly from one build; the
 * old view goes when its last request ends, and its folder when a later build removes the builds
 * no server names.
 *
 * The live functions are made again for the new build (functions.ts), on the server's one
 * instance: what every build shares (settings, storage, counters) stays, and everything read from
 * a build (the catalogue, the enquiry checks, MCP's schemas, the page frames) is the new build's.
 *
 * Two parts of a server stay as it started: its settings (the site address) and its code. A build
 * made with others is not taken up: the server keeps the build it has and says why, as the build does.
 */
import { watch, readlinkSync, type FSWatcher } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import type { Settings } from '../config.ts';
import type { LiveInstance } from '../functions/runtime.ts';
import {
  buildLayout,
  codeFingerprint,
  publishedBuild,
  readBuildRecord,
  removeServingNote,
  restartReasons,
  runningServers,
  servingNoteFile,
  writeServingNote,
  type ServedFacts,
} from './build-layout.ts';
import { processStart } from '../storage/processes.ts';
import { openBuiltSite, type BuiltSite } from './built-site.ts';
import type { FunctionEntries } from './functions.ts';

/** How often, at most, a request looks whether a build was published that the watch missed. */
const lookEveryMs = 1_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class SiteBuilds {
  readonly #root: string;
  readonly #entries: FunctionEntries;
  readonly #instance: LiveInstance;
  #view: BuiltSite;
  readonly #facts: ServedFacts;
  /** What dist/current said when last looked at. */
  #link: string | null;
  #lookedAt = 0;
  #pending = false;
  /** Builds this server will not take up, each said once. */
  readonly #refused = new Set<string>();
  #watcher: FSWatcher | undefined;
  #note: { file: string; address: string } | undefined;
  /** The last build refused, said in the note too, for the build that published it. */
  #lastRefused: { build: string; why: string } | undefined;

  /** The build published in `root`'s dist/ (or the one lying there), ready to serve with the functions of `entries` on `instance`. */
  static open(root: string, settings: Settings, entries: FunctionEntries, instance: LiveInstance): SiteBuilds {
    return new SiteBuilds(root, settings, entries, instance);
  }

  private constructor(root: string, settings: Settings, entries: FunctionEntries, instance: LiveInstance) {
    this.#root = root;
    this.#entries = entries;
    this.#instance = instance;
    const published = publishedBuild(root);
    this.#link = published?.link ?? null;
    this.#view = published
      ? openBuiltSite(root, published.dir, path.basename(published.dir), entries, instance)
      : openBuiltSite(root, buildLayout(root).dist, null, entries, instance);
    this.#facts = { siteUrl: settings.siteUrl, code: codeFingerprint(root) };
    try {
      // The notes of servers that ended without removing theirs (killed) go now.
      runningServers(root);
    } catch {
      // A read-only dist/: nothing was written there to remove.
    }
    this.#watch();
  }

  /**
   * The build to answer a request from: the one being served when it starts. It looks, at most
   * once a second, whether a build was published that the watch missed.
   */
  current(): BuiltSite {
    const now = Date.now();
    if (now - this.#lookedAt >= lookEveryMs) {
      this.#lookedAt = now;
      this.#lookForNewBuild();
    }
    return this.#view;
  }

  /** Says in dist/serving/ which build this server serves once it listens, for the builds published beside it; stops watching when it closes. */
  attach(server: Server): void {
    server.once('listening', () => {
      const address = server.address();
      if (!address || typeof address === 'string') return;
      this.#note = {
        file: servingNoteFile(this.#root, process.pid, address.port),
        address: `${address.address}:${address.port}`,
      };
      this.#announce();
    });
    server.once('close', () => this.close());
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    if (this.#note) removeServingNote(this.#note.file);
    this.#note = undefined;
  }

  #watch(): void {
    try {
      this.#watcher = watch(buildLayout(this.#root).dist, (_event, name) => {
        if (name === null || name === 'current') this.#lookForNewBuild();
      });
      // Without the watch (dist/ removed, too many watches) requests still look once a second.
      this.#watcher.on('error', () => this.#watcher?.close());
      this.#watcher.unref();
    } catch {
      this.#watcher = undefined;
    }
  }

  /** Takes up the build dist/current names if it is new, soon (never inside the request that noticed it). */
  #lookForNewBuild(): void {
    let link: string | null;
    try {
      link = readlinkSync(buildLayout(this.#root).current);
    } catch {
      link = null;
    }
    if (link === null || link === this.#link || this.#pending) return;
    this.#pending = true;
    setImmediate(() => {
      this.#pending = false;
      this.#takeUp();
    });
  }

  #takeUp(): void {
    const published = publishedBuild(this.#root);
    if (!published) return;
    this.#link = published.link;
    const id = path.basename(published.dir);
    if (published.dir === this.#view.dir || this.#refused.has(published.dir)) return;
    let view: BuiltSite;
    try {
      const reasons = restartReasons(this.#facts, readBuildRecord(published.dir).facts);
      if (reasons.length > 0) {
        this.#refuse(
          published.dir,
          `${reasons.join('; ')}. Restart it (stop npm start and start it again) to serve the new build`,
        );
        return;
      }
      view = openBuiltSite(this.#root, published.dir, id, this.#entries, this.#instance);
      // Its catalogue is read now: a build the functions could not answer from is never served.
      view.catalogue();
    } catch (error) {
      this.#refuse(published.dir, `it cannot be read: ${message(error)}`);
      return;
    }
    const before = this.#view.id;
    this.#view = view;
    this.#announce();
    console.log(`[builds] Serving build ${id} (it replaces ${before ?? 'the build in dist/'}; no restart needed)`);
  }

  #refuse(dir: string, why: string): void {
    this.#refused.add(dir);
    this.#lastRefused = { build: path.basename(dir), why };
    this.#announce();
    console.error(
      `[builds] Build ${path.basename(dir)} was published, but this server keeps serving ${this.#view.id ?? 'the build in dist/'}: ${why}.`,
    );
  }

  #announce(): void {
    if (!this.#note) return;
    try {
      writeServingNote(this.#note.file, {
        pid: process.pid,
        started: processStart,
        address: this.#note.address,
        facts: this.#facts,
        build: this.#view.id,
        refused: this.#lastRefused,
      });
    } catch (error) {
      // A read-only dist/ serves all the same; builds published beside it cannot say who took them up.
      console.error(`[builds] could not write ${this.#note.file}: ${message(error)}`);
    }
  }
}
