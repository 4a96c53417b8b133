/**
 * Checks a running site, local or deployed, against the request table every host must answer
 * alike (scripts/smoke/checks.ts): status, media type, cache policy, ETag and 304, Vary, the
 * rate-limit headers and the /v1 error shape, over the network. Run it after every deploy:
 *
 *   npm run smoke -- --url https://<deployment> [--no-quota]
 *
 * The last check sends /v1 requests until one goes over the per-client quota (121 in a minute),
 * so it spends this machine's quota for a minute; `--no-quota` leaves it out. Prints one line
 * per check and a summary, and exits non-zero when a check fails.
 */
import { apiRateLimit } from '../service/rules/policy.ts';
import { apiRequestsIn, problems, quotaCheck, requestTable, run, send, type Check } from './smoke/checks.ts';

export interface SmokeResult {
  check: Check;
  problems: string[];
}

/** Runs the table (and the quota check unless told not to) against `origin`, in order. */
export async function smoke(origin: string, { quota = true }: { quota?: boolean } = {}): Promise<SmokeResult[]> {
  const checks = await requestTable(origin);
  const results: SmokeResult[] = [];
  for (const check of checks) results.push({ check, problems: problems(check, await run(origin, check)) });
  if (quota) {
    const over = quotaCheck();
    // Fill the window: the table's own /v1 requests count, and so do these.
    for (let sent = apiRequestsIn(checks); sent < apiRateLimit.requests; sent += 1)
      await send(origin, { ...over, expect: { status: 200 } });
    results.push({ check: over, problems: problems(over, await send(origin, over)) });
  }
  return results;
}

export function report(results: readonly SmokeResult[]): string {
  const width = Math.max(...results.map((r) => `${r.check.method} ${r.check.path}`.length));
  const lines = results.map(({ check, problems: found }) => {
    const request = `${check.method} ${check.path}`.padEnd(width);
    return `${found.length === 0 ? 'PASS' : 'FAIL'}  ${request}  ${check.name}${found.length ? `: ${found.join('; ')}` : ''}`;
  });
  const failed = results.filter((r) => r.problems.length > 0).length;
  lines.push('', `${results.length - failed} passed, ${failed} failed`);
  return lines.join('\n');
}

if (import.meta.filename === process.argv[1]) {
  const at = process.argv.indexOf('--url');
  const url = at >= 0 ? process.argv[at + 1] : undefined;
  if (!url) {
    console.error('Usage: npm run smoke -- --url https://<deployment> [--no-quota]');
    process.exit(2);
  }
  const origin = new URL(url).origin;
  try {
    const results = await smoke(origin, { quota: !process.argv.includes('--no-quota') });
    console.log(`Smoke check of ${origin}\n`);
    console.log(report(results));
    process.exit(results.some((r) => r.problems.length > 0) ? 1 : 0);
  } catch (error) {
    console.error(`Smoke check of ${origin} could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
