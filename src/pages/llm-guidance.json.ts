/** llm-guidance.json: the agent guidance as data (the same value agent-instructions.md renders). */
import type { APIRoute } from 'astro';
import { agentGuidance } from '../../service/guidance/agent-guidance.ts';
import { publishedJson } from '../../service/agents/published-file.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () => publishedJson('/llm-guidance.json', agentGuidance(await getCatalogue()));
