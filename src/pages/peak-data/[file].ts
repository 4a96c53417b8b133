/**
 * peak-data/<file>: the dataset in each of its formats (domain/catalogue/peak-data-files.ts),
 * every one written by service/peak-data/files.ts from the catalogue the API answers from.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { peakDataFileList, type PeakDataFile } from '../../../domain/catalogue/peak-data-files.ts';
import { publishedFile } from '../../../service/agents/published-file.ts';
import { peakDataFileBody } from '../../../service/peak-data/files.ts';
import { getCatalogue } from '../../lib/catalogue.ts';
import { getReleases } from '../../lib/releases.ts';

export const getStaticPaths = (() =>
  peakDataFileList.map((file) => ({ params: { file: file.name }, props: { file } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ file: PeakDataFile }> = async ({ props: { file } }) =>
  publishedFile(file.path, peakDataFileBody(file, await getCatalogue(), await getReleases()));
