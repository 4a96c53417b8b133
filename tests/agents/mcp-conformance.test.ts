/**
 * The official MCP conformance suite against /mcp on the Node host (the Vercel replay runs the
 * same in tests/build/vercel.test.ts): every scenario that applies to a read-only server passes,
 * each one that does not is refused for its documented reason only. The site is served as
 * http://localhost:<port>, the address the suite's DNS-rebinding scenario expects a local server
 * to answer at; the same server reached as 127.0.0.1 accepts that alias too, and a foreign
 * Host/Origin is refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  applicableScenarios,
  conformanceProblems,
  conformanceVersion,
  notApplicable,
  runConformance,
  type Check,
} from '../../scripts/interop/conformance.ts';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';
import { projectRoot } from '../helpers/project.ts';

let server: InProcessServer;
let results: Map<string, Check[]>;

beforeAll(async () => {
  // No SITE_URL: the server names itself http://localhost:<its port>, as `npm start` does.
  server = await startInProcess(inject('fixtureSite'), { SITE_URL: '', OPERATIONAL_STORAGE: 'off' });
  results = await runConformance(`http://localhost:${server.port}/mcp`);
}, 180_000);
afterAll(() => server?.stop());

describe(`MCP conformance suite ${conformanceVersion} on the Node host`, () => {
  it('runs on a Node that the suite supports (22 or later)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it('passes every scenario that applies to a read-only server, and fails the others only for their documented reason', () => {
    expect(results.size).toBeGreaterThanOrEqual(applicableScenarios.length + Object.keys(notApplicable).length);
    expect(conformanceProblems(results)).toEqual([]);
  });

  it('accepts the loopback alias 127.0.0.1 of a site served as localhost, and refuses a foreign Host/Origin', async () => {
    const alias = await runConformance(`http://127.0.0.1:${server.port}/mcp`, { scenario: 'dns-rebinding-protection' });
    const checks = alias.get('dns-rebinding-protection') ?? [];
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['localhost-host-rebinding-rejected', 'SUCCESS'],
      ['localhost-host-valid-accepted', 'SUCCESS'],
    ]);
  });

  it('lists every scenario that does not apply in docs/agents.md, with its reason', () => {
    const doc = readFileSync(path.join(projectRoot, 'docs', 'agents.md'), 'utf8');
    for (const [scenario, { reason }] of Object.entries(notApplicable)) {
      expect(doc, scenario).toContain(`\`${scenario}\``);
      expect(doc, `${scenario}'s reason`).toContain(reason);
    }
    for (const scenario of applicableScenarios) expect(doc, scenario).toContain(`\`${scenario}\``);
  });
});
