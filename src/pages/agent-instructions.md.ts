/** agent-instructions.md: how an agent should use the catalogue, and what it must not do. */
import type { APIRoute } from 'astro';
import { agentInstructionsMarkdown } from '../../service/guidance/agent-guidance.ts';
import { publishedFile } from '../../service/agents/published-file.ts';
import { getCatalogue } from '../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedFile('/agent-instructions.md', agentInstructionsMarkdown(await getCatalogue()));
