/**
 * The editors' files (`content/`), read without Astro. The site's collections
 * (src/content.config.ts), `npm run check` (content-check.ts) and the live functions all read
 * content through this module, so they parse the same files the same way, validate them with
 * the same schemas and word each problem the same way (domain/schemas/error-map.ts). A file that
 * cannot be read or validated is named and the reading goes on, so every problem shows at once.
 *
 * YAML is read with the core schema: dates stay the text the editor wrote, so an impossible
 * date such as 2026-13-45 is refused by the schema instead of silently rolled over into 2027.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import type { z } from 'astro/zod';
import { contentErrorMap, fieldName } from '../schemas/error-map.ts';
import { peakContent, royaltySchedule, type PeakContent, type RoyaltySchedule } from '../schemas/peak.ts';
import { siteSettings, type SiteSettings } from '../schemas/site.ts';
import { photoFormats, tripContent, type TripContent } from '../schemas/trip.ts';
import { slugPattern } from '../schemas/vocabulary.ts';
import { ContentError } from './content-error.ts';
import type { CatalogueSource, ContentEntry } from './index.ts';

/** One file as read, before validation. */
export interface RawEntry {
  id: string;
  data: unknown;
  /** The Markdown after the frontmatter (trips only). */
  body?: string;
  /** Path as an editor would name it, relative to the working directory. */
  filePath: string;
  /** The file's text, for change detection. */
  text: string;
}

/** Every problem, one a line, each starting with the file it is in. */
export function contentProblemsMessage(problems: readonly string[]): string {
  // A problem over several lines (a YAML error shows the lines around it) stays indented under its dash.
  return `The content has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n- ${problems.map((p) => p.replaceAll('\n', '\n  ')).join('\n- ')}`;
}

/**
 * Parsed YAML by its text, kept by the build between runs (src/lib/parsed-yaml.ts): parsing is
 * the slow part of reading a large catalogue, and the same text always parses to the same value.
 * Text that cannot be parsed is never kept, so its problem is reported every time.
 */
export interface ParsedYaml {
  get(text: string): unknown;
  set(text: string, value: unknown): void;
}

function parseYaml(text: string, filePath: string, parsed?: ParsedYaml): unknown {
  const kept = parsed?.get(text);
  if (kept !== undefined) return kept;
  try {
    const value = load(text, { schema: CORE_SCHEMA, filename: filePath });
    parsed?.set(text, value);
    return value;
  } catch (error) {
    throw new ContentError(
      `${filePath}: the YAML cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

function parseFrontmatter(text: string, filePath: string, parsed?: ParsedYaml): { data: unknown; body: string } {
  const match = frontmatter.exec(text);
  if (!match) throw new ContentError(`${filePath}: must start with a frontmatter block between two lines of "---"`);
  return { data: parseYaml(match[1] ?? '', filePath, parsed), body: match[2] ?? '' };
}

/** The file name is the id; a name that would make a bad URL is refused, never rewritten. */
function idFromFileName(filePath: string): string {
  const name = path.basename(filePath).replace(/\.[^.]+$/, '');
  if (!slugPattern.test(name)) {
    throw new ContentError(
      `${filePath}: the file name "${name}" is used as the id and must use only lowercase letters, digits and hyphens (pattern ^[a-z0-9-]+$)`,
    );
  }
  return name;
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
}

/** Runs `read`; a ContentError it throws joins `problems` (or, without a list, is thrown). */
function collecting<T>(read: () => T, problems: string[] | undefined): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ContentError) || !problems) throw error;
    problems.push(error.message);
    return undefined;
  }
}

/**
 * Every `*.md` (frontmatter and body) or `*.yaml` file of a content folder, sorted by name. A
 * file that cannot be read (a bad name, broken YAML) is left out and named in `problems`;
 * without that list, the first such file throws.
 */
export function readFolder(dir: string, ext: '.md' | '.yaml', problems?: string[], parsed?: ParsedYaml): RawEntry[] {
  if (!existsSync(dir)) {
    collecting(() => {
      throw new ContentError(`${displayPath(dir)}: the folder is missing`);
    }, problems);
    return [];
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith(ext))
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      const filePath = displayPath(file);
      const text = readFileSync(file, 'utf8');
      const entry = collecting((): RawEntry => {
        const id = idFromFileName(filePath);
        if (ext === '.md') {
          const { data, body } = parseFrontmatter(text, filePath, parsed);
          return { id, data, body, filePath, text };
        }
        return { id, data: parseYaml(text, filePath, parsed), filePath, text };
      }, problems);
      return entry ? [entry] : [];
    });
}

/** A settings file holds one object. */
function readSettingsFile(file: string, parsed?: ParsedYaml): RawEntry {
  const filePath = displayPath(file);
  if (!existsSync(file)) throw new ContentError(`${filePath}: the file is missing`);
  const text = readFileSync(file, 'utf8');
  return { id: path.basename(file).replace(/\.[^.]+$/, ''), data: parseYaml(text, filePath, parsed), filePath, text };
}

const contentFolders = {
  trips: { folder: 'trips', ext: '.md' },
  peaks: { folder: 'peaks', ext: '.yaml' },
} as const;

const settingsFiles = {
  site: 'settings/site.yaml',
  royalty: 'settings/imf-royalty.yaml',
} as const;

/**
 * Photographs a trip names whose file is not there or is not a photograph format, one line per
 * photo. The site's build checks this before Astro's image pipeline sees the path; the live
 * functions ignore photographs, so they never need the files.
 */
export function photoFileProblems(entry: RawEntry): string[] {
  const photos = (entry.data as { photos?: unknown } | null)?.photos;
  if (!Array.isArray(photos)) return [];
  return photos.flatMap((photo: unknown, index) => {
    const file = (photo as { file?: unknown } | null)?.file;
    const field = `${entry.filePath}: field "${fieldName(['photos', index, 'file'])}"`;
    if (typeof file !== 'string' || file.trim() === '')
      return [
        `${field}: is required: the photograph's file, relative to the trip file (for example images/${entry.id}-1.jpg)`,
      ];
    const ext = path.extname(file).slice(1).toLowerCase();
    if (!(photoFormats as readonly string[]).includes(ext))
      return [`${field}: "${file}" must be a photograph file ending in ${photoFormats.map((f) => `.${f}`).join(', ')}`];
    const resolved = path.resolve(path.dirname(entry.filePath), file.trim());
    return existsSync(resolved)
      ? []
      : [
          `${field}: there is no file ${displayPath(resolved)}; add the photograph there or correct the path (it is relative to the trip file)`,
        ];
  });
}

/** `field "sub.1.name": message` lines for one file, as an editor reads them. */
function problemsOf(entry: RawEntry, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? `field "${fieldName(issue.path)}"` : 'the file';
    return `${entry.filePath}: ${field}: ${issue.message}`;
  });
}

/** One file checked against its schema, every problem in plain words; the data when valid. */
export function validated<T>(entry: RawEntry, schema: z.ZodType<T>, problems: string[]): T | undefined {
  const result = schema.safeParse(entry.data, { error: contentErrorMap });
  if (result.success) return result.data;
  problems.push(...problemsOf(entry, result.error));
  return undefined;
}

/** Every editor's file as read, and a problem for each that could not be read. */
export interface ContentFiles {
  trips: RawEntry[];
  peaks: RawEntry[];
  /** The ids of every trip and peak file in the folders, read or not. */
  present: { trips: string[]; peaks: string[] };
  site: RawEntry | undefined;
  royalty: RawEntry | undefined;
  problems: string[];
}

export function readContentFiles(dir: string, parsed?: ParsedYaml): ContentFiles {
  const problems: string[] = [];
  const folder = (kind: keyof typeof contentFolders) =>
    readFolder(path.join(dir, contentFolders[kind].folder), contentFolders[kind].ext, problems, parsed);
  const settings = (file: string) => collecting(() => readSettingsFile(path.join(dir, file), parsed), problems);
  const ids = (kind: keyof typeof contentFolders) => {
    const { folder, ext } = contentFolders[kind];
    const where = path.join(dir, folder);
    return existsSync(where)
      ? readdirSync(where)
          .filter((name) => name.endsWith(ext))
          .map((name) => name.slice(0, -ext.length))
      : [];
  };
  return {
    trips: folder('trips'),
    peaks: folder('peaks'),
    present: { trips: ids('trips'), peaks: ids('peaks') },
    site: settings(settingsFiles.site),
    royalty: settings(settingsFiles.royalty),
    problems,
  };
}

/** The records that passed their schemas (settings undefined when theirs did not), and a problem for every field at fault. */
export interface ValidatedContent {
  trips: ContentEntry<TripContent>[];
  peaks: ContentEntry<PeakContent>[];
  site: SiteSettings | undefined;
  royalty: RoyaltySchedule | undefined;
  problems: string[];
}

export function validateContent(files: ContentFiles): ValidatedContent {
  const problems: string[] = [];
  const entries = <T>(raw: RawEntry[], schema: z.ZodType<T>): ContentEntry<T>[] =>
    raw.flatMap((entry) => {
      const data = validated(entry, schema, problems);
      return data === undefined ? [] : [{ id: entry.id, data, body: entry.body, filePath: entry.filePath }];
    });
  return {
    trips: entries(files.trips, tripContent),
    peaks: entries(files.peaks, peakContent),
    site: files.site && validated(files.site, siteSettings, problems),
    royalty: files.royalty && validated(files.royalty, royaltySchedule, problems),
    problems,
  };
}

/**
 * The whole content folder, validated. Throws a ContentError listing every problem at once,
 * so an editor fixes them in one go.
 */
export function readContent(dir: string): CatalogueSource {
  const files = readContentFiles(dir);
  const { trips, peaks, site, royalty, problems } = validateContent(files);
  const all = [...files.problems, ...problems];
  if (all.length > 0 || !site || !royalty) throw new ContentError(contentProblemsMessage(all));
  return { trips, peaks, site, royalty };
}
