/** peak-data/datapackage.json: the Frictionless Data Package describing the dataset's files. */
import type { APIRoute } from 'astro';
import { peakDataFiles } from '../../../domain/catalogue/peak-data-files.ts';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { peakDataPackage } from '../../../service/peak-data/data-package.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedJson(peakDataFiles.dataPackage.path, peakDataPackage(await getCatalogue()));
