/**
 * Starts the fixture site's server, in the test's process, with the SITE_URL it was built with
 * (read back from a built file), so live answers and prerendered files name the same origin.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startInProcess, type InProcessServer } from '../helpers/in-process.ts';

export function builtSiteUrl(siteDir: string): string {
  const guidance = JSON.parse(readFileSync(path.join(siteDir, 'dist', 'site', 'llm-guidance.json'), 'utf8')) as {
    serviceIndexUrl: string;
  };
  return new URL(guidance.serviceIndexUrl).origin;
}

export function startBuiltSite(siteDir: string): Promise<InProcessServer> {
  return startInProcess(siteDir, { SITE_URL: builtSiteUrl(siteDir) });
}
