/**
 * Sends the request table (scripts/smoke/checks.ts) to two hosts in the same order and lists
 * every difference between their answers, and every expectation either misses, one line each.
 */
import { apiRateLimit } from '../../service/rules/policy.ts';
import {
  apiRequestsIn,
  comparable,
  problems,
  quotaCheck,
  requestTable,
  run,
  send,
  type Answer,
  type Check,
} from '../../scripts/smoke/checks.ts';

export interface Host {
  name: string;
  url: string;
}

export interface TableRun {
  size: number;
  differences: string[];
}

function compare(check: Check, hosts: readonly Host[], answers: readonly Answer[]): string[] {
  const found: string[] = [];
  const label = `${check.method} ${check.path}${check.headers?.Accept ? ` (Accept: ${check.headers.Accept})` : ''}${check.conditional ? ' (If-None-Match)' : ''}`;
  const [a, b] = answers.map(comparable);
  for (const field of Object.keys(a!)) {
    if (a![field] !== b![field])
      found.push(`${label}: ${field} ${hosts[0]!.name}=${a![field]} ${hosts[1]!.name}=${b![field]}`);
  }
  answers.forEach((answer, i) => {
    for (const problem of problems(check, answer)) found.push(`${label}: ${hosts[i]!.name}: ${problem}`);
  });
  return found;
}

export async function compareHosts(hosts: readonly [Host, Host]): Promise<TableRun> {
  const tables = await Promise.all(hosts.map((h) => requestTable(h.url)));
  const checks = tables[0]!;
  const differences: string[] = [];
  if (JSON.stringify(tables[0]) !== JSON.stringify(tables[1]))
    differences.push('the two hosts list different trips or peaks');
  for (const check of checks) {
    const answers = await Promise.all(hosts.map((h) => run(h.url, check)));
    differences.push(...compare(check, hosts, answers));
  }
  const over = quotaCheck();
  for (let sent = apiRequestsIn(checks); sent < apiRateLimit.requests; sent += 1)
    await Promise.all(hosts.map((h) => send(h.url, over)));
  differences.push(...compare(over, hosts, await Promise.all(hosts.map((h) => send(h.url, over)))));
  return { size: checks.length + 1, differences };
}
