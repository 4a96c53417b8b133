/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its CLI from
 * node_modules, on this Node) run against a running host's /mcp, every server scenario in one
 * run, and what this read-only server is expected to make of each: the scenarios that apply pass,
 * and each one that does not fails (or warns) for the reason docs/agents.md gives, and no other.
 * A new scenario in a new version of the suite is neither, and fails the test until it is sorted.
 * Used by the tests (both hosts) and by `npm run interop`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const projectRoot = path.resolve(import.meta.dirname, '..', '..');

/** The suite's CLI in a node_modules folder: the project's (the version the tests pin), or another install's. */
export function conformanceCli(modules = path.join(projectRoot, 'node_modules')): string {
  return path.join(modules, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
}

export function conformanceVersionAt(cli: string): string {
  return (JSON.parse(readFileSync(path.join(path.dirname(cli), '..', 'package.json'), 'utf8')) as { version: string })
    .version;
}

export const conformanceVersion = conformanceVersionAt(conformanceCli());

/** Scenarios any read-only server on Streamable HTTP must pass, with no fixture of the suite's. */
export const applicableScenarios = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
] as const;

/**
 * Scenarios that need what this server does not have: the suite's fixture tools, resources and
 * prompts (`test_*`, `test://…`), logging, sampling, elicitation, subscriptions or sessions. Each
 * says why (docs/agents.md repeats it) and what the suite reports here instead of a pass.
 */
export const notApplicable: Record<string, { reason: string; reports: RegExp }> = {
  'logging-set-level': {
    reason: 'needs the logging capability; a stateless server has no session to set a level for',
    reports: /-32601: Method not found/,
  },
  'completion-complete': {
    reason: "completes the suite's fixture prompt `test_prompt_with_arguments`",
    reports: /Prompt test_prompt_with_arguments not found/,
  },
  'tools-call-simple-text': {
    reason: 'calls the fixture tool `test_simple_text`',
    reports: /Tool test_simple_text not found/,
  },
  'tools-call-image': {
    reason: 'calls the fixture tool `test_image_content`',
    reports: /Tool test_image_content not found/,
  },
  'tools-call-audio': {
    reason: 'calls the fixture tool `test_audio_content`',
    reports: /Tool test_audio_content not found/,
  },
  'tools-call-embedded-resource': {
    reason: 'calls the fixture tool `test_embedded_resource`',
    reports: /Tool test_embedded_resource not found/,
  },
  'tools-call-mixed-content': {
    reason: 'calls the fixture tool `test_multiple_content_types`',
    reports: /Tool test_multiple_content_types not found/,
  },
  'tools-call-with-logging': {
    reason: 'needs the logging capability (and the fixture tool `test_tool_with_logging`)',
    reports: /-32601: Method not found/,
  },
  'tools-call-error': {
    reason:
      'calls the fixture tool `test_error_handling` and expects a tool result with `isError`; an unknown tool is answered with the error the spec names (-32602), and tool errors of real calls are checked against /v1 by tests/agents/mcp-errors.test.ts',
    reports: /-32602: Tool test_error_handling not found/,
  },
  'tools-call-with-progress': {
    reason: 'calls the fixture tool `test_tool_with_progress`; no tool here runs long enough to report progress',
    reports: /Tool test_tool_with_progress not found/,
  },
  'tools-call-sampling': {
    reason: "needs sampling (the fixture tool `test_sampling`); no tool here asks the client's model anything",
    reports: /Tool test_sampling not found/,
  },
  'tools-call-elicitation': {
    reason:
      "needs elicitation (the fixture tool `test_elicitation`); the enquiry tool takes the person's details from the agent",
    reports: /Tool test_elicitation not found/,
  },
  'elicitation-sep1034-defaults': {
    reason: 'needs elicitation (the fixture tool `test_elicitation_sep1034_defaults`)',
    reports: /Tool test_elicitation_sep1034_defaults not found/,
  },
  'elicitation-sep1330-enums': {
    reason: 'needs elicitation (the fixture tool `test_elicitation_sep1330_enums`)',
    reports: /Tool test_elicitation_sep1330_enums not found/,
  },
  'server-sse-multiple-streams': {
    reason: 'needs a session and SSE streams; the server is stateless and answers JSON',
    reports: /session ID/i,
  },
  'server-sse-polling': {
    reason: 'needs a session and SSE resumability, and speaks 2025-03-26, which this server does not',
    reports: /session ID|test_reconnection/,
  },
  'resources-read-text': {
    reason: 'reads the fixture resource `test://static-text`',
    reports: /Resource not found: test:\/\/static-text/,
  },
  'resources-read-binary': {
    reason: 'reads the fixture resource `test://static-binary`',
    reports: /Resource not found: test:\/\/static-binary/,
  },
  'resources-templates-read': {
    reason: 'reads the fixture template `test://template/{id}/data`',
    reports: /Resource not found: test:\/\/template\/123\/data/,
  },
  'resources-subscribe': {
    reason: 'needs resource subscriptions; a stateless server cannot notify',
    reports: /-32601: Method not found/,
  },
  'resources-unsubscribe': {
    reason: 'needs resource subscriptions; a stateless server cannot notify',
    reports: /-32601: Method not found/,
  },
  'prompts-get-simple': {
    reason: 'gets the fixture prompt `test_simple_prompt`',
    reports: /Prompt test_simple_prompt not found/,
  },
  'prompts-get-with-args': {
    reason: 'gets the fixture prompt `test_prompt_with_arguments`',
    reports: /Prompt test_prompt_with_arguments not found/,
  },
  'prompts-get-embedded-resource': {
    reason: 'gets the fixture prompt `test_prompt_with_embedded_resource`',
    reports: /Prompt test_prompt_with_embedded_resource not found/,
  },
  'prompts-get-with-image': {
    reason: 'gets the fixture prompt `test_prompt_with_image`',
    reports: /Prompt test_prompt_with_image not found/,
  },
  'json-schema-2020-12': {
    reason: 'lists the fixture tool `json_schema_2020_12_tool` (the tools here publish JSON Schema 2020-12 too)',
    reports: /json_schema_2020_12_tool' not found/,
  },
};

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: unknown;
}

/**
 * Runs the suite (`all`: active and pending scenarios; or one `scenario`; or the given `selection`
 * of the CLI's own options) and reads each scenario's checks.
 */
export async function runConformance(
  mcpUrl: string,
  options: { scenario?: string; selection?: string[]; cli?: string } = {},
): Promise<Map<string, Check[]>> {
  const output = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
  try {
    const selection = options.selection ?? (options.scenario ? ['--scenario', options.scenario] : ['--suite', 'all']);
    // It exits non-zero when a scenario fails; the checks it wrote are what is judged.
    await run(
      process.execPath,
      [options.cli ?? conformanceCli(), 'server', '--url', mcpUrl, ...selection, '--output-dir', output],
      { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      if (readdirSync(output).length === 0)
        throw new Error(`the conformance suite wrote nothing:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    const results = new Map<string, Check[]>();
    for (const dir of readdirSync(output)) {
      const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      results.set(scenario, JSON.parse(readFileSync(path.join(output, dir, 'checks.json'), 'utf8')) as Check[]);
    }
    return results;
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

/** Every way the results differ from the expectations above, one line each (empty when none). */
export function conformanceProblems(results: Map<string, Check[]>): string[] {
  const problems: string[] = [];
  for (const [scenario, checks] of results) {
    const judged = checks.filter((c) => c.status !== 'INFO');
    if ((applicableScenarios as readonly string[]).includes(scenario)) {
      if (judged.length === 0) problems.push(`${scenario}: no checks`);
      for (const c of judged)
        if (c.status !== 'SUCCESS')
          problems.push(`${scenario}: ${c.id} ${c.status} ${c.errorMessage ?? JSON.stringify(c.details)}`);
      continue;
    }
    const expected = notApplicable[scenario];
    if (!expected) {
      problems.push(
        `${scenario}: a scenario this test does not know (${judged.map((c) => c.status).join(', ')}); decide whether it applies`,
      );
      continue;
    }
    const said = judged.map((c) => `${c.errorMessage ?? ''} ${JSON.stringify(c.details ?? '')}`).join(' ');
    if (judged.some((c) => c.status === 'SUCCESS'))
      problems.push(`${scenario}: passes now; move it to the applicable scenarios`);
    if (!expected.reports.test(said))
      problems.push(`${scenario}: expected ${expected.reports}, the suite said ${said.slice(0, 300)}`);
  }
  for (const scenario of [...applicableScenarios, ...Object.keys(notApplicable)])
    if (!results.has(scenario)) problems.push(`${scenario}: not run by this version of the suite`);
  return problems;
}
