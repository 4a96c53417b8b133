/** peak-data/peaks.json: the full open peak dataset (CC-BY-4.0). */
import type { APIRoute } from 'astro';
import { buildPeakDataset } from '../../../service/agents/peak-dataset.ts';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/peak-data/peaks.json', buildPeakDataset(await getCatalogue()));
