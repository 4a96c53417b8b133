/** The agent skills index (also at /.well-known/agent-skills/index.json). */
import type { APIRoute } from 'astro';
import { publishedJson } from '../../../service/agents/published-file.ts';
import { buildSkillsIndex } from '../../../service/agents/skills.ts';
import { getCatalogue } from '../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  publishedJson('/agent-skills/index.json', await buildSkillsIndex(await getCatalogue()));
