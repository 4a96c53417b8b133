/** peak-data/CHANGELOG.md: the dataset's releases (Keep a Changelog). */
import type { APIRoute } from 'astro';
import { peakDataFiles } from '../../../domain/catalogue/peak-data-files.ts';
import { publishedFile } from '../../../service/agents/published-file.ts';
import { peakChangelogMarkdown } from '../../../service/peak-data/changelog.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedFile(peakDataFiles.changelog.path, peakChangelogMarkdown(await getCatalogue()));
