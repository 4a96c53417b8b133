/** peak-data/CITATION.cff: how to cite the dataset (Citation File Format 1.2.0). */
import type { APIRoute } from 'astro';
import { peakDataFiles } from '../../../domain/catalogue/peak-data-files.ts';
import { publishedFile } from '../../../service/agents/published-file.ts';
import { peakCitationCff } from '../../../service/peak-data/citation.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedFile(peakDataFiles.citation.path, peakCitationCff(await getCatalogue()));
