/**
 * The MCP function: the streamable HTTP endpoint at `/mcp` (service/mcp), whose tools run the
 * same operations as /v1, live departures included.
 */
import { handleMcp } from '../mcp/index.ts';
import { liveFunction, type LiveFunction } from './live-function.ts';
import { v1Deps } from './live-storage.ts';

export function mcpFunction(): LiveFunction {
  return liveFunction('mcp', async (request) => handleMcp(request, v1Deps()));
}
