/** The agent-auth function (Vercel convention: each file in api/ is one function). See service/functions/agent-auth.ts. */
import { agentAuthFunction } from '../service/functions/agent-auth.ts';

export default agentAuthFunction();
