/** The peak dataset page as Markdown. */
import type { APIRoute } from 'astro';
import { markdownResponse } from '../../service/markdown/response.ts';
import { peakDataMarkdown } from '../components/peak-dataset.ts';
import { getCatalogue } from '../lib/catalogue.ts';
import { getReleases } from '../lib/releases.ts';

export const GET: APIRoute = async () => markdownResponse(peakDataMarkdown(await getCatalogue(), await getReleases()));
