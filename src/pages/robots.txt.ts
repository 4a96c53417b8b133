/** robots.txt: crawler rules, AI crawlers and content signals, with the sitemap. */
import type { APIRoute } from 'astro';
import { publishedFile } from '../../service/agents/published-file.ts';
import { buildRobotsTxt } from '../../service/agents/robots.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedFile('/robots.txt', buildRobotsTxt(await getCatalogue()));
