/**
 * The MCP endpoint on each protocol revision it speaks, checked with the official tools: the
 * official clients (v2 pinned to 2026-07-28, SDK 1.x on 2025-11-25, v2 on 2025-06-18) list and
 * call against the host and compare with /v1; the conformance suite the project pins (its 2025
 * scenarios) and the suite's first release with 2026-07-28 scenarios (a pre-release, installed into
 * the scratch folder: `--requirements 2026-07-28`) run against /mcp. Each suite run starts in a
 * fresh quota window: /mcp counts against the client's 120 requests a minute, and a run sends
 * about a hundred.
 */
import path from 'node:path';
import {
  applicableScenarios,
  conformanceCli,
  conformanceProblems,
  conformanceVersion,
  conformanceVersionAt,
  runConformance,
} from './conformance.ts';
import { connect, revisions } from './mcp-clients.ts';

/** The suite's first release with 2026-07-28 scenarios, installed into the scratch folder (the project pins the released 0.1.x). */
export const modernSuite = { '@modelcontextprotocol/conformance': '0.2.0-alpha.12' };

interface Context {
  origin: string;
  toolsDir: string;
  report(check: string, ok: boolean, detail?: string): void;
}

/** Waits, when the client's quota is partly spent, until a fresh window opens. */
async function freshQuota(origin: string): Promise<void> {
  const probe = await fetch(`${origin}/v1/`);
  await probe.arrayBuffer();
  const remaining = Number(probe.headers.get('ratelimit-remaining') ?? '120');
  if (remaining >= 115) return;
  const seconds = Number(probe.headers.get('ratelimit-reset') ?? '60') + 1;
  console.log(`       (waiting ${seconds} s for a fresh quota window: ${remaining} requests left)`);
  await new Promise((r) => setTimeout(r, seconds * 1000));
}

async function officialClients(ctx: Context): Promise<void> {
  const trips: unknown = await (await fetch(`${ctx.origin}/v1/trips`)).json();
  for (const revision of revisions) {
    const { client, negotiated } = await connect(revision, `${ctx.origin}/mcp`);
    try {
      const { tools } = await client.listTools();
      const called = await client.callTool({ name: 'list_trips', arguments: {} });
      const same = JSON.stringify(called.structuredContent) === JSON.stringify(trips);
      const { resources } = await client.listResources();
      const { prompts } = await client.listPrompts();
      const tool =
        revision === '2025-11-25' ? '@modelcontextprotocol/sdk 1.x client' : '@modelcontextprotocol/client 2.x';
      ctx.report(
        `MCP ${revision} through ${tool}`,
        negotiated === revision && same && tools.length > 0 && resources.length > 0 && prompts.length === 2,
        `negotiated ${negotiated}; ${tools.length} tools, list_trips ${same ? 'equals' : 'differs from'} GET /v1/trips; ${resources.length} resources; ${prompts.length} prompts`,
      );
    } finally {
      await client.close();
    }
  }
}

/** The suite the tests pin: its scenarios are the 2025 revisions'. */
async function releasedSuite(ctx: Context): Promise<void> {
  await freshQuota(ctx.origin);
  const problems = conformanceProblems(await runConformance(`${ctx.origin}/mcp`));
  ctx.report(
    `MCP 2025-11-25 and 2025-06-18: conformance suite ${conformanceVersion} (all server scenarios)`,
    problems.length === 0,
    problems.length === 0
      ? `${applicableScenarios.length} applicable scenarios pass (${applicableScenarios.join(', ')}); the others fail only for their documented reasons (docs/agents.md)`
      : problems.join('; '),
  );
}

/**
 * The 2026-07-28 scenarios that apply to a read-only server with no fixture of the suite's. The
 * others call the suite's own tools (`test_*`), need sampling, elicitation or input requests from
 * a tool, or belong to extensions (tasks) the revision does not score.
 */
const modernApplicable = [
  'server-stateless',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
  'caching',
  'http-header-validation',
  'sep-2164-resource-not-found',
  'server-sse-multiple-streams',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
  'input-required-result-missing-input-response',
  'input-required-result-ignore-extra-params',
];

/** A check the suite could not make here: it needs one of its diagnostic tools. */
const notTestable = /^Not testable/;

/** The suite's first release with 2026-07-28 scenarios, as that revision requires them. */
async function modernSuiteRun(ctx: Context): Promise<void> {
  const cli = conformanceCli(path.join(ctx.toolsDir, 'node_modules'));
  await freshQuota(ctx.origin);
  const results = await runConformance(`${ctx.origin}/mcp`, { cli, selection: ['--requirements', '2026-07-28'] });
  const problems: string[] = [];
  let passed = 0;
  let untestable = 0;
  for (const scenario of modernApplicable) {
    const checks = results.get(scenario);
    if (!checks) {
      problems.push(`${scenario}: not run`);
      continue;
    }
    for (const c of checks) {
      if (c.status === 'SUCCESS') passed += 1;
      else if (c.status === 'FAILURE' && notTestable.test(c.errorMessage ?? '')) untestable += 1;
      else if (c.status === 'FAILURE') problems.push(`${scenario} ${c.id}: ${c.errorMessage ?? ''}`);
    }
  }
  const others = [...results.keys()].filter((s) => !modernApplicable.includes(s));
  ctx.report(
    `MCP 2026-07-28: conformance suite ${conformanceVersionAt(cli)} --requirements 2026-07-28`,
    problems.length === 0,
    `${modernApplicable.length} applicable scenarios: ${passed} checks pass, ${untestable} not testable without the suite's diagnostic tools; ${others.length} other scenarios need its fixtures or are extensions${problems.length ? `; failing: ${problems.join('; ')}` : ''}`,
  );
}

export async function mcpRevisionChecks(ctx: Context): Promise<void> {
  await officialClients(ctx);
  await releasedSuite(ctx);
  await modernSuiteRun(ctx);
  // What comes next (the Inspector, the other checks) starts in a fresh window too.
  await freshQuota(ctx.origin);
}
