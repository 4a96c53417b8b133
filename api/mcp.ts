/** The mcp function (Vercel convention: each file in api/ is one function). See service/functions/mcp.ts. */
import { mcpFunction } from '../service/functions/mcp.ts';
import { liveDeps } from '../service/functions/runtime.ts';

// The process's dependencies (service/functions/runtime.ts), handed to the function here.
export default mcpFunction(liveDeps());
