/**
 * The programs from outside npm that the tests start, where the tests look for them, and the
 * Debian package that brings each one. Each tier (tests/tiers.ts) names the packages its files
 * need; before any test runs, the tiers of the run are checked (tests/helpers/tier-check.ts), so
 * a machine without one stops at once with one message, instead of tests timing out one by one,
 * and a tier that needs none of them (unit) never looks. `.ci/run` installs the same packages
 * (tests/architecture/requirements.test.ts keeps the two in step).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Program } from '../tiers.ts';

type Env = Record<string, string | undefined>;

/**
 * The Python that reads the peak dataset with pandas and validates the Atom feed: Debian's, where
 * python3-pandas, python3-rnc2rng and python3-lxml install their modules (a Python of another
 * installation on PATH may not have them); PYTHON3_PATH points elsewhere.
 */
export function pythonPath(env: Env = process.env): string {
  return env.PYTHON3_PATH || '/usr/bin/python3';
}

/** Debian's PostgreSQL server binaries live in one folder per major version; POSTGRES_ROOT points elsewhere. */
export function postgresRoot(env: Env = process.env): string {
  return env.POSTGRES_ROOT || '/usr/lib/postgresql';
}

/** Debian installs PgBouncer outside a normal user's PATH; PGBOUNCER_PATH points at another build. */
export function pgbouncerPath(env: Env = process.env): string {
  return env.PGBOUNCER_PATH || '/usr/sbin/pgbouncer';
}

/**
 * The Chromium the browser tests drive: Debian's headless shell, the same Chromium build as its
 * `chromium` package without the desktop browser around it, as Playwright runs headless tests
 * by default. Its processes take about 60 % less CPU for the same tests (docs/testing.md).
 * CHROME_PATH points at another build: `/usr/bin/chromium` runs them in the desktop browser.
 */
export function chromiumPath(env: Env = process.env): string {
  return env.CHROME_PATH || '/usr/bin/chromium-headless-shell';
}

/** The newest PostgreSQL's bin folder, or undefined when no version has its server programs. */
export function postgresBinDir(root = postgresRoot()): string | undefined {
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, 'bin'))
    .find((dir) => existsSync(path.join(dir, 'pg_ctl')));
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, env: Env): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && executable(path.join(dir, name)));
}

export interface Requirement {
  /** The program as the message names it. */
  program: string;
  /** Where the tests look for it. */
  where: string;
  /** The Debian package that installs it. */
  debianPackage: Program | 'util-linux';
  /** The tests that start it. */
  usedBy: string;
  present(): boolean;
}

export interface RequirementOptions {
  env?: Env;
  /** The packages whose programs are checked (a tier's, or every tier's); all of them by default. */
  packages?: readonly Program[];
}

const everyPackage: readonly Program[] = [
  'chromium-headless-shell',
  'postgresql',
  'pgbouncer',
  'redis-server',
  'gdal-bin',
  'python3-pandas',
  'python3-rnc2rng',
  'python3-lxml',
];

/** The outside programs of `packages`. A new one (nginx, say) is added here, to a tier and to .ci/run. */
export function requirements({ env = process.env, packages = everyPackage }: RequirementOptions = {}): Requirement[] {
  const root = postgresRoot(env);
  const postgres = (program: string): Requirement => ({
    program,
    where: `${root}/<version>/bin`,
    debianPackage: 'postgresql',
    usedBy: 'the PostgreSQL tests of departures, enquiries and agent registration',
    present: () => {
      const dir = postgresBinDir(root);
      return dir !== undefined && executable(path.join(dir, program));
    },
  });
  const list: Requirement[] = [];
  if (packages.includes('chromium-headless-shell')) {
    list.push({
      program: 'chromium-headless-shell',
      where: chromiumPath(env),
      debianPackage: 'chromium-headless-shell',
      usedBy: 'the browser tests of the site, the enquiry form and agent registration',
      present: () => executable(chromiumPath(env)),
    });
  }
  if (packages.includes('postgresql')) {
    list.push(postgres('initdb'), postgres('pg_ctl'), postgres('postgres'));
  }
  if (packages.includes('pgbouncer')) {
    list.push({
      program: 'pgbouncer',
      where: pgbouncerPath(env),
      debianPackage: 'pgbouncer',
      usedBy: 'the storage tests through a transaction-mode pooler',
      present: () => executable(pgbouncerPath(env)),
    });
  }
  if (packages.includes('redis-server')) {
    list.push({
      program: 'redis-server',
      where: 'PATH',
      debianPackage: 'redis-server',
      usedBy: 'the shared rate-limit counter tests',
      present: () => onPath('redis-server', env),
    });
  }
  if (packages.includes('gdal-bin')) {
    for (const program of ['ogrinfo', 'ogr2ogr'])
      list.push({
        program,
        where: 'PATH',
        debianPackage: 'gdal-bin',
        usedBy: 'the tests that read the peak dataset with GDAL',
        present: () => onPath(program, env),
      });
  }
  const pythonModule = (debianPackage: Program, module: string, usedBy: string): Requirement => ({
    program: module.split('.')[0]!,
    where: `${pythonPath(env)} (import ${module})`,
    debianPackage,
    usedBy,
    present: () =>
      executable(pythonPath(env)) &&
      spawnSync(pythonPath(env), ['-c', `import ${module}`], { stdio: 'ignore', timeout: 30_000 }).status === 0,
  });
  if (packages.includes('python3-pandas'))
    list.push(pythonModule('python3-pandas', 'pandas', 'the tests that read the peak dataset with pandas'));
  if (packages.includes('python3-rnc2rng'))
    list.push(pythonModule('python3-rnc2rng', 'rnc2rng', "the Atom feed's test (RFC 4287's compact grammar)"));
  if (packages.includes('python3-lxml'))
    list.push(pythonModule('python3-lxml', 'lxml.etree', "the Atom feed's test (its RELAX NG validator)"));
  // PostgreSQL refuses to run as root, so as root the tests start it as the postgres user.
  if (packages.includes('postgresql') && process.getuid?.() === 0) {
    list.push({
      program: 'runuser',
      where: 'PATH',
      debianPackage: 'util-linux',
      usedBy: 'the PostgreSQL tests, when run as root',
      present: () => onPath('runuser', env),
    });
  }
  return list;
}

/** The Debian packages of the requirements, once each, in order. */
export function debianPackages(list: readonly Requirement[]): string[] {
  return [...new Set(list.map((r) => r.debianPackage))];
}

/** One message naming every missing program and the command that installs them, or null when none is missing. */
export function missingRequirementsMessage(options: RequirementOptions = {}): string | null {
  const missing = requirements(options).filter((r) => !r.present());
  if (missing.length === 0) return null;
  return [
    `The tests need ${missing.length === 1 ? 'a program that is' : 'programs that are'} not installed:`,
    ...missing.map((r) => `  - ${r.program} (looked for in ${r.where}), for ${r.usedBy}`),
    'Install with (as root, or with sudo):',
    `  apt-get install -y ${debianPackages(missing).join(' ')}`,
    'The whole list is in .ci/run, which installs them on a bare Debian machine; `npm run test:unit` needs none of them.',
  ].join('\n');
}
