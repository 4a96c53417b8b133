/** The mcp function (Vercel convention: each file in api/ is one function). See service/functions/mcp.ts. */
import { mcpFunction } from '../service/functions/mcp.ts';

export default mcpFunction();
