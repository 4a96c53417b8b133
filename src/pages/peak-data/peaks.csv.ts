/** peak-data/peaks.csv: the peak dataset as one RFC 4180 table. */
import type { APIRoute } from 'astro';
import { peakDataFiles } from '../../../domain/catalogue/peak-data-files.ts';
import { publishedFile } from '../../../service/agents/published-file.ts';
import { peaksCsv } from '../../../service/peak-data/csv.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedFile(peakDataFiles.csv.path, peaksCsv(await getCatalogue()));
