/** The alerts page as Markdown: the same sections the HTML page is written from. */
import type { APIRoute } from 'astro';
import { markdownResponse } from '../../service/markdown/response.ts';
import { alertsAboutMarkdown } from '../../service/alerts/about.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => markdownResponse(alertsAboutMarkdown(await getCatalogue()));
