/**
 * A build of the site as the live functions read it: the catalogue it was made from, the page
 * frames and the MCP App views it built. A function is made for one build (its dependencies, runtime.ts) and answers
 * only from it, so an answer never mixes two builds.
 *
 * The Node host serves one build at a time and takes up a newly published one whole: it makes the
 * functions again for the new build, and each request is answered by the functions of the build it
 * started on (service/host/site-builds.ts). On Vercel a deployment is one build, carried inside
 * each function's bundle (`bundledBuild`, scripts/vercel/function-bundles.ts).
 *
 * Either way the catalogue is made from the content the build was made of, for the site's
 * settings (its address, and a contact email given instead of the content's), as the pages were.
 */
import { buildCatalogue, type Catalogue, type CatalogueSource } from '../../domain/catalogue/index.ts';
import type { Settings } from '../config.ts';
import type { LiveShellName } from '../live-shells.ts';
import type { ViewTemplates } from '../mcp/views.ts';

export interface SiteBuild {
  /** The published build's name (`X-Build`), or null where a deployment is one build. */
  id: string | null;
  /** The catalogue the build was made from; a content mistake throws ContentError. */
  catalogue(): Catalogue;
  /** One of the page frames the build made (service/live-shells.ts), checked. */
  frame(name: LiveShellName): string;
  /** The MCP App views the build made (built-views.ts), each read when first asked for. */
  views: ViewTemplates;
}

/** What a bundle carries of the build it was made in. */
export interface BuildData {
  /** The catalogue the build made, for the settings it was made with. */
  catalogue: Catalogue;
  /** Those settings. */
  madeWith: { siteUrl: string; contactEmail: string | null };
  /** The content it was made of, as read and checked: read when a deployment's settings differ from the build's. */
  content: () => CatalogueSource;
  frames: Record<LiveShellName, string>;
  /** Its MCP App views, beside the bundle of a function that shows them (built-views.ts). */
  views: ViewTemplates;
}

type CatalogueSettings = Pick<Settings, 'siteUrl' | 'CONTACT_EMAIL'>;

/** The catalogue of a build's content for a site's settings. */
export function catalogueOf(content: CatalogueSource, settings: CatalogueSettings): Catalogue {
  const site = settings.CONTACT_EMAIL ? { ...content.site, contactEmail: settings.CONTACT_EMAIL } : content.site;
  return buildCatalogue({ ...content, site }, settings.siteUrl);
}

/** The markers a frame must have: where the head and the main content go. */
export const frameMarkers = ['<!--live-head-->', '<!--live-main-->'] as const;

/** A frame's text, or an error naming where it came from when a marker is missing. */
export function checkedFrame(text: string, where: string): string {
  if (frameMarkers.some((marker) => !text.includes(marker)))
    throw new Error(`the page frame ${where} has no markers to fill`);
  return text;
}

/**
 * The build a bundle carries (one per deployment): the catalogue the build made, or, where the
 * deployment's settings are not those it was built with, the one its content makes for them.
 */
export function bundledBuild(data: BuildData, settings: () => CatalogueSettings): SiteBuild {
  let catalogue: Catalogue | undefined;
  const catalogueFor = (current: CatalogueSettings) =>
    current.siteUrl === data.madeWith.siteUrl && (current.CONTACT_EMAIL ?? null) === data.madeWith.contactEmail
      ? data.catalogue
      : catalogueOf(data.content(), current);
  return {
    id: null,
    catalogue: () => (catalogue ??= catalogueFor(settings())),
    frame: (name) => data.frames[name],
    views: data.views,
  };
}
