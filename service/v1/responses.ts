/**
 * The body each /v1 operation answers with, by the name the OpenAPI document gives it: read by the
 * document (openapi.ts) and the MCP tools' output schemas (service/mcp/tools.ts). Kept apart from
 * the operations (operations.ts) so that the functions running them do not build these schemas,
 * which describe the answers but take no part in making them.
 */
import {
  departureList,
  peakEnvelope,
  peakList,
  serviceIndex,
  tripEnvelope,
  tripList,
} from '../../domain/schemas/envelopes.ts';

export const operationResponses = {
  ServiceIndex: serviceIndex,
  TripList: tripList,
  TripEnvelope: tripEnvelope,
  DepartureList: departureList,
  PeakList: peakList,
  PeakEnvelope: peakEnvelope,
};

export type ResponseName = keyof typeof operationResponses;
