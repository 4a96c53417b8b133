/**
 * The live functions on the Node host: the same files Vercel deploys (`api/<name>.ts`, each a
 * default export with a Web-standard `fetch`), loaded on first use and called in this process.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface FunctionModule {
  default: { fetch(request: Request): Promise<Response> };
}

export class FunctionHost {
  readonly #dir: string;
  readonly #names: Set<string>;
  readonly #loaded = new Map<string, Promise<FunctionModule>>();

  constructor(apiDir: string) {
    this.#dir = apiDir;
    this.#names = new Set(
      readdirSync(apiDir)
        .filter((file) => file.endsWith('.ts') && !file.startsWith('_'))
        .map((file) => file.slice(0, -'.ts'.length)),
    );
  }

  get names(): string[] {
    return [...this.#names].sort();
  }

  /** The function at `/api/<name>`, as Vercel maps the files of api/ to paths. */
  functionAt(pathname: string): string | null {
    const match = /^\/api\/([a-z0-9-]+)\/?$/.exec(pathname);
    return match && this.#names.has(match[1]!) ? match[1]! : null;
  }

  async call(name: string, request: Request): Promise<Response> {
    let module = this.#loaded.get(name);
    if (!module) {
      module = import(pathToFileURL(path.join(this.#dir, `${name}.ts`)).href) as Promise<FunctionModule>;
      module.catch(() => this.#loaded.delete(name));
      this.#loaded.set(name, module);
    }
    return (await module).default.fetch(request);
  }
}
