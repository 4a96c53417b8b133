/**
 * Live HTML pages: the function's content written into a frame the site built at deploy time,
 * so a live page has the same header, styles and footer as every other page without the
 * function carrying the site's templates. The head follows the same rules as the built pages
 * (domain/page/page-head.ts).
 */
import { html, htmlMediaType, type SafeHtml } from '../../domain/html.ts';
import { pageHead, type PageHead } from '../../domain/page/page-head.ts';
import type { LiveShellName } from '../live-shells.ts';
import type { SiteBuild } from './site-build.ts';

export interface LivePage extends PageHead {
  main: SafeHtml;
}

/** The whole HTML document of a live page, in a frame of the build it is answered from, with its catalogue's head. */
export function livePageHtml(build: SiteBuild, shell: LiveShellName, page: LivePage): string {
  const { main, ...head } = page;
  // Functions as replacements, so `$` in the content is never read as a pattern.
  return build
    .frame(shell)
    .replace('<!--live-head-->', () => pageHead(build.catalogue(), head).value)
    .replace('<!--live-main-->', () => main.value);
}

/**
 * A live block as a document of its own, for a frame inside a built page: only a title (frames
 * are named by it) and noindex in its head, since the page around it is the one to find.
 */
export function liveBlockHtml(build: SiteBuild, title: string, main: SafeHtml): string {
  return build
    .frame('block')
    .replace('<!--live-head-->', () => html`<title>${title}</title><meta name="robots" content="noindex">`.value)
    .replace('<!--live-main-->', () => main.value);
}

export function htmlResponse(body: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(body, {
    status: init.status ?? 200,
    headers: { 'Content-Type': htmlMediaType, ...init.headers },
  });
}
