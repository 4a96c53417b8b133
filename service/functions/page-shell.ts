/**
 * Live HTML pages: the function's content written into a frame the site built at deploy time,
 * so a live page has the same header, styles and footer as every other page without the
 * function carrying the site's templates. The head follows the same rules as the built pages
 * (domain/page-head.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { html, htmlMediaType, type SafeHtml } from '../../domain/html.ts';
import { pageHead, type PageHead } from '../../domain/page-head.ts';
import type { LiveShellName } from '../live-shells.ts';
import { keptPerBuild, servedBuild } from './site-build.ts';

/**
 * Where the build leaves the frames (service/live-shells.ts), written out in full so that Vercel's
 * file tracing puts exactly these files in the functions that read them. The Node host names the
 * build each request is answered from, and the frames are read from that build's folder.
 */
const frameFiles: Record<LiveShellName, URL> = {
  departures: new URL('../../dist/live/shells/departures.html', import.meta.url),
  page: new URL('../../dist/live/shells/page.html', import.meta.url),
  block: new URL('../../dist/live/shells/block.html', import.meta.url),
};

/** The frames read so far, per build of the site. */
const framesOfBuild = keptPerBuild(() => new Map<LiveShellName, string>());

function frame(name: LiveShellName): string {
  const frames = framesOfBuild();
  let text = frames.get(name);
  if (text === undefined) {
    const build = servedBuild();
    const file = build ? path.join(build.liveDir, 'shells', `${name}.html`) : fileURLToPath(frameFiles[name]);
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(
        `the page frame ${file} is missing; it is made by the site build (npm run build): ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    if (!text.includes('<!--live-head-->') || !text.includes('<!--live-main-->'))
      throw new Error(`the page frame ${file} has no markers to fill`);
    frames.set(name, text);
  }
  return text;
}

export interface LivePage extends PageHead {
  main: SafeHtml;
}

/** The whole HTML document of a live page. */
export function livePageHtml(catalogue: Catalogue, shell: LiveShellName, page: LivePage): string {
  const { main, ...head } = page;
  // Functions as replacements, so `$` in the content is never read as a pattern.
  return frame(shell)
    .replace('<!--live-head-->', () => pageHead(catalogue, head).value)
    .replace('<!--live-main-->', () => main.value);
}

/**
 * A live block as a document of its own, for a frame inside a built page: only a title (frames
 * are named by it) and noindex in its head, since the page around it is the one to find.
 */
export function liveBlockHtml(title: string, main: SafeHtml): string {
  return frame('block')
    .replace('<!--live-head-->', () => html`<title>${title}</title><meta name="robots" content="noindex">`.value)
    .replace('<!--live-main-->', () => main.value);
}

export function htmlResponse(body: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(body, {
    status: init.status ?? 200,
    headers: { 'Content-Type': htmlMediaType, ...init.headers },
  });
}
