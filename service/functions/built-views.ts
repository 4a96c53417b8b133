/**
 * The MCP App views as the build made them (scripts/mcp-app.ts writes them into the build's
 * `live/mcp-app/`, beside the page frames): the MCP function hands them to its server
 * (service/mcp/views.ts), which fills in the catalogue's data. Read once per build, like the
 * frames (page-shell.ts), and from the build each request is answered from on the Node host.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViewTemplates } from '../mcp/views.ts';
import { keptPerBuild } from './site-build.ts';

/** Written out in full, so that Vercel's file tracing puts this file in the function that reads it. */
const departureSearchFile = new URL('../../dist/live/mcp-app/departure-search.html', import.meta.url);

const departureSearchOfBuild = keptPerBuild((build) => {
  const file = build
    ? path.join(build.liveDir, 'mcp-app', 'departure-search.html')
    : fileURLToPath(departureSearchFile);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `the MCP App view ${file} is missing; it is made by the site build (npm run build): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
});

export const builtViews: ViewTemplates = { departureSearch: departureSearchOfBuild };
