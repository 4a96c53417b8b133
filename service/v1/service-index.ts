/** The body of GET /v1/, assembled from the definitions the code itself runs on. */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { apiRateLimit, rateLimitHeaderNames } from '../rules/policy.ts';
import { siteFiles, siteFileUrl } from '../site-files.ts';
import type { ServiceIndex } from '../../domain/schemas/envelopes.ts';

export const apiVersion = 'v1';

/** What the index says of each operation (service/v1/operations.ts declares them). */
export interface IndexedOperation {
  operationId: string;
  path: string;
  summary: string;
}

export function buildServiceIndex(catalogue: Catalogue, operations: readonly IndexedOperation[]): ServiceIndex {
  const base = `${catalogue.siteUrl}/${apiVersion}`;
  return {
    name: catalogue.site.serviceName,
    version: apiVersion,
    description: catalogue.site.description,
    documentationUrl: `${catalogue.siteUrl}/developers`,
    openapiUrl: `${catalogue.siteUrl}/openapi.json`,
    baseUrl: base,
    authentication: 'none',
    rateLimit: {
      requests: apiRateLimit.requests,
      windowSeconds: apiRateLimit.windowSeconds,
      scope: apiRateLimit.scope,
      headers: [...rateLimitHeaderNames],
    },
    endpoints: operations.map((op) => ({
      operationId: op.operationId,
      method: 'GET',
      url: `${base}${op.path === '/' ? '/' : op.path}`,
      summary: op.summary,
    })),
    machineReadableFiles: siteFiles.map((file) => ({
      url: siteFileUrl(catalogue.siteUrl, file),
      description: file.description,
    })),
    license: {
      peakDataset: 'CC-BY-4.0',
      peakDatasetUrl: catalogue.datasetUrl,
      attribution: catalogue.attribution,
    },
  };
}
