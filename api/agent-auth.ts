/** The agent-auth function (Vercel convention: each file in api/ is one function). See service/functions/agent-auth.ts. */
import { agentAuthFunction } from '../service/functions/agent-auth.ts';
import { liveDeps } from '../service/functions/runtime.ts';

// The process's dependencies (service/functions/runtime.ts), handed to the function here.
export default agentAuthFunction(liveDeps());
