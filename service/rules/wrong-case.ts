/**
 * Paths typed in the wrong letter case. Every address of the site is lower case (slugs, files,
 * the API, the live paths), but for the published files named otherwise (each skill's
 * `SKILL.md`, as the Agent Skills convention names it), which the rules recognise by name before
 * this, and the built assets, which the routing middleware does not see. Any other path with a
 * capital letter therefore names nothing, and it gets the not-found answer its `Accept` asks for,
 * which names the sitemap, the developer page and llms.txt: the Markdown note to a client that
 * prefers Markdown, the HTML page otherwise. It is answered here, in the rules, because the hosts
 * match rewrites without regard to case and would otherwise hand `/V1/TRIPS` or `/ENQUIRY-SENT` to
 * a function that does not expect it: the rules send it to an address that has no answer, so the
 * hosts' own not-found routes answer it. Like any path outside `/v1`, `/V1/…` is not the API's:
 * it is neither answered in the API's error shape nor counted against its quota.
 */
import { prefersMarkdown } from './negotiation.ts';

/** What the middleware's matcher leaves out (middleware.ts): the built assets, whose names may have capitals. */
export const builtAssets = /^\/(?:_astro\/|images\/|styles\/|favicon\.svg)/;

/** Rewrite targets that no file, page or rewrite answers: the not-found routes take them. */
export const notFoundTargets = { markdown: '/.not-found.md', page: '/.not-found' } as const;

function decoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** True for a path with a capital letter outside the built assets. */
export function isWrongCase(pathname: string): boolean {
  return /[A-Z]/.test(decoded(pathname)) && !builtAssets.test(pathname);
}

/** Where the rules send a wrong-case path: the not-found answer its Accept asks for. */
export function wrongCaseTarget(accept: string | null): string {
  return prefersMarkdown(accept) ? notFoundTargets.markdown : notFoundTargets.page;
}
