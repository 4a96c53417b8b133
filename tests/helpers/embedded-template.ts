/**
 * A new embedded database, made once per run: the folder PGlite writes when it creates a
 * database (`initdb`, two to four seconds of WebAssembly), and nothing else: no table of ours.
 * A server a test starts with a data folder of the helper's own gets a copy of it, so it opens
 * an existing, empty database (half a second) and runs its own migrations and seeding on it,
 * as after any upgrade. Handlers a test calls in its own process get it loaded in memory from a
 * dump made once per process (`freshDatabase`), and tests of hosting it across processes (the
 * bridge, a crash) a copied folder. Tests of a first start (permissions, a full disk) still have
 * the database created by the server itself.
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedStartParams, localSql } from '../../service/storage/embedded.ts';
import type { Sql } from '../../service/storage/sql.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplate?: string;
  }
}

/** Made by the run's setup (in its own process), removed after the run. */
export async function createEmbeddedTemplate(): Promise<{ dir: string; remove(): void }> {
  const root = mkdtempSync(path.join(tmpdir(), 'pglite-template-'));
  const dir = path.join(root, 'pglite');
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  await db.close();
  // Private as the site keeps its data folder, so a copy has nothing left for the server to tighten.
  const tighten = (target: string) => {
    const info = statSync(target);
    chmodSync(target, info.isDirectory() ? 0o700 : 0o600);
    if (info.isDirectory()) for (const entry of readdirSync(target)) tighten(path.join(target, entry));
  };
  tighten(dir);
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

let template: string | undefined;

/** Set in each test file's process (tests/helpers/file-setup.ts) when the run made one. */
export function useEmbeddedTemplate(dir: string | undefined): void {
  template = dir;
}

/**
 * A new data folder (in `parent`) with a copy of the new database, for a test whose server or
 * commands use a DATA_DIR the test reads too (the outbox, the host file) but that is not about
 * how the database is first created.
 */
export function newDataDir(prefix: string, parent = tmpdir()): string {
  const dir = mkdtempSync(path.join(parent, prefix));
  seedEmbeddedDatabase(dir);
  return dir;
}

/** Puts a copy of the new database where a server with DATA_DIR=`dataDir` looks for it; false when the run made none. */
export function seedEmbeddedDatabase(dataDir: string): boolean {
  return copyNewDatabase(path.join(dataDir, 'pglite'));
}

/** Puts a copy of the new database in `folder`, for tests that open a PGlite folder directly; false when the run made none. */
export function copyNewDatabase(folder: string): boolean {
  if (!template) return false;
  cpSync(template, folder, { recursive: true });
  return true;
}

/** The new database as PGlite dumps it, read once per process and kept in memory. */
let dump: Promise<Blob> | undefined;

async function newDatabaseDump(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = template ? newDataDir('database-') : null;
  const db = dir ? await PGlite.create(path.join(dir, 'pglite')) : await PGlite.create();
  try {
    return await db.dumpDataDir('none');
  } finally {
    await db.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A database of a test's own for handlers called in the test's process: the new database
 * loaded from a copy kept in memory (the run's, or one made here when the run made none),
 * started as the server starts its own, and in memory only; no other test sees it. Loading it
 * takes about a fifth of the CPU of creating one, and half of opening a copied folder.
 */
export async function freshDatabase(): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite');
  dump ??= newDatabaseDump();
  const db = await PGlite.create({
    loadDataDir: await dump,
    startParams: embeddedStartParams(PGlite.defaultStartParams),
  });
  return { ...localSql(db), close: () => db.close() };
}
