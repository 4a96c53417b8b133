/**
 * The machine-readable files the site publishes, declared once: the service index lists them,
 * llms.txt and the developer page link them, and tests fetch every one.
 */
export interface SiteFile {
  /** Path under the site origin. */
  path: string;
  description: string;
  mediaType: string;
}

export const siteFiles: SiteFile[] = [
  { path: '/openapi.json', description: 'OpenAPI 3.1 description of the /v1 API.', mediaType: 'application/json' },
  { path: '/peak-data/peaks.json', description: 'The full peak dataset (CC-BY-4.0): every peak with coordinates, first ascent and references.', mediaType: 'application/json' },
];

export function siteFileUrl(siteUrl: string, file: SiteFile): string {
  return `${siteUrl}${file.path}`;
}
