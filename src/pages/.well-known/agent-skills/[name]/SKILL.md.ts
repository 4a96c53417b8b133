/** One SKILL.md at its discovery location; its bytes are the string the skills index hashes. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedFile } from '../../../../../service/agents/published-file.ts';
import { skillMarkdown, skillPath, skills } from '../../../../../service/agents/skills.ts';
import { getCatalogue } from '../../../../lib/catalogue.ts';

export const getStaticPaths = (() =>
  skills.map((skill) => ({ params: { name: skill.name }, props: { skill } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ skill: (typeof skills)[number] }> = async ({ props }) =>
  publishedFile(skillPath(props.skill.name), skillMarkdown(props.skill, await getCatalogue()));
