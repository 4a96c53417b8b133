/**
 * The MCP App views of a build. scripts/mcp-app.ts writes them into the build's `live/mcp-app/`,
 * beside the page frames; the MCP function hands the views of the build it answers from to its
 * server (service/mcp/views.ts), which fills in that build's catalogue. On the Node host they are
 * read from the build's folder (service/host/built-site.ts); on Vercel from beside the MCP
 * function's bundle, where the build puts them (scripts/vercel/function-bundles.ts). Either way each is
 * read when a client that shows views first asks for it, and kept.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ViewTemplates } from '../mcp/views.ts';

/** Each view's file in a build's `live/mcp-app/`. */
export const viewFiles: Readonly<Record<keyof ViewTemplates, string>> = {
  departureSearch: 'departure-search.html',
};

/** The views whose files `read` gives by name, each read once (and again after a failure). */
export function viewsReadBy(read: (file: string) => string): ViewTemplates {
  let departureSearch: string | undefined;
  return { departureSearch: () => (departureSearch ??= read(viewFiles.departureSearch)) };
}

/** The views of the build whose `live/` folder is `liveDir`. */
export function builtViews(liveDir: string): ViewTemplates {
  return viewsReadBy((file) => {
    const at = path.join(liveDir, 'mcp-app', file);
    try {
      return readFileSync(at, 'utf8');
    } catch (error) {
      throw new Error(
        `the MCP App view ${at} is missing; it is made by the site build (npm run build): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  });
}
