/** peak-data/peaks.geojson: the peak dataset as an RFC 7946 FeatureCollection. */
import type { APIRoute } from 'astro';
import { peakDataFiles } from '../../../domain/catalogue/peak-data-files.ts';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { peaksGeoJson } from '../../../service/peak-data/geojson.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson(peakDataFiles.geojson.path, peaksGeoJson(await getCatalogue()));
