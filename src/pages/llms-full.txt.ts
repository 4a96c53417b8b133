/** llms-full.txt: the whole catalogue as Markdown. */
import type { APIRoute } from 'astro';
import { buildLlmsFull } from '../../service/agents/llms-full.ts';
import { publishedFile } from '../../service/agents/published-file.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedFile('/llms-full.txt', buildLlmsFull(await getCatalogue()));
