/** The developer page as Markdown: the same document the HTML page is rendered from. */
import type { APIRoute } from 'astro';
import { markdownResponse } from '../../service/markdown/response.ts';
import { developerMarkdown } from '../components/developer-page.ts';
import { developerReference } from '../components/developer-reference.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  markdownResponse(developerMarkdown(await developerReference(await getCatalogue())));
