/**
 * The live functions on the Node host: the same entries Vercel deploys (`functions/<name>.ts`,
 * each a default export that makes the function of one build on an instance), loaded on first use,
 * made once for each build the host serves, and called in this process with a web Request.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LiveFunction } from '../functions/live-function.ts';
import type { LiveInstance } from '../functions/runtime.ts';
import type { SiteBuild } from '../functions/site-build.ts';

type Entry = (build: SiteBuild, instance: LiveInstance) => LiveFunction;

/** The entries in a folder, by name, loaded once each. */
export class FunctionEntries {
  readonly #dir: string;
  readonly #names: Set<string>;
  readonly #loaded = new Map<string, Promise<Entry>>();

  constructor(dir: string) {
    this.#dir = dir;
    this.#names = new Set(
      readdirSync(dir)
        .filter((file) => file.endsWith('.ts') && !file.startsWith('_'))
        .map((file) => file.slice(0, -'.ts'.length)),
    );
  }

  get names(): string[] {
    return [...this.#names].sort();
  }

  has(name: string): boolean {
    return this.#names.has(name);
  }

  load(name: string): Promise<Entry> {
    let entry = this.#loaded.get(name);
    if (!entry) {
      entry = (import(pathToFileURL(path.join(this.#dir, `${name}.ts`)).href) as Promise<{ default: Entry }>).then(
        (module) => module.default,
      );
      entry.catch(() => this.#loaded.delete(name));
      this.#loaded.set(name, entry);
    }
    return entry;
  }
}

/** The functions of one build, on the host's instance. */
export class FunctionHost {
  readonly #entries: FunctionEntries;
  readonly #build: SiteBuild;
  readonly #instance: LiveInstance;
  readonly #made = new Map<string, Promise<LiveFunction>>();

  constructor(entries: FunctionEntries, build: SiteBuild, instance: LiveInstance) {
    this.#entries = entries;
    this.#build = build;
    this.#instance = instance;
  }

  /** The function at `/api/<name>`, as Vercel serves the functions of the Build Output. */
  functionAt(pathname: string): string | null {
    const match = /^\/api\/([a-z0-9-]+)\/?$/.exec(pathname);
    return match && this.#entries.has(match[1]!) ? match[1]! : null;
  }

  async call(name: string, request: Request): Promise<Response> {
    return (await this.#function(name)).fetch(request);
  }

  /** Runs the scheduled work of the function `name`, if it has any (LiveFunction.scheduled). */
  async scheduled(name: string): Promise<void> {
    if (!this.#entries.has(name)) return;
    await (await this.#function(name)).scheduled?.();
  }

  #function(name: string): Promise<LiveFunction> {
    let made = this.#made.get(name);
    if (!made) {
      made = this.#entries.load(name).then((entry) => entry(this.#build, this.#instance));
      made.catch(() => this.#made.delete(name));
      this.#made.set(name, made);
    }
    return made;
  }
}
