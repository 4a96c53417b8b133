/**
 * The part of every page's <head> that differs from page to page: title, description,
 * canonical address or noindex, the Markdown twin, Open Graph and JSON-LD. Base.astro writes it
 * for the pages built at deploy time and the live functions write it into the page shell
 * (service/functions/page-shell.ts), so a live page's head follows the same rules.
 */
import type { Catalogue } from '../catalogue/index.ts';
import { html, trustedHtml, type SafeHtml } from '../html.ts';
import { jsonLdText } from './structured-data.ts';
import { metaDescription } from '../format.ts';
import { siteSocialImageAlt, siteSocialImagePath, socialCardSize } from './trip-images.ts';

/** A feed of the page's live content, linked as `rel="alternate"` for feed readers. */
export interface FeedLink {
  type: string;
  href: string;
  title: string;
}

export interface PageHead {
  title: string;
  description: string;
  /** Site path of the Markdown twin, when the page has one. */
  markdownPath?: string | undefined;
  /** Canonical site path, without a trailing slash or query. */
  canonicalPath: string;
  ogType?: 'website' | 'article' | 'product' | undefined;
  /** Site path of the page's social card (og:image); pages without their own show the site's card. */
  imagePath?: string | undefined;
  imageAlt?: string | undefined;
  jsonLd?: Record<string, unknown> | undefined;
  /** For pages that must not be indexed (the 404 note, answers to a form). */
  noindex?: boolean | undefined;
  /** Feeds of what changes on the page (the departures' changes). */
  feeds?: readonly FeedLink[] | undefined;
}

/** Titles carry the operator's name when they have room for it (search results cut near 70 characters). */
function pageTitle(catalogue: Catalogue, title: string): string {
  const branded = `${title} | ${catalogue.site.operatorName}`;
  return title.includes(catalogue.site.operatorName) || branded.length > 70 ? title : branded;
}

export function pageHead(catalogue: Catalogue, head: PageHead): SafeHtml {
  const title = pageTitle(catalogue, head.title);
  const description = metaDescription(head.description);
  const canonical = `${catalogue.siteUrl}${head.canonicalPath}`;
  const image = `${catalogue.siteUrl}${head.imagePath ?? siteSocialImagePath}`;
  const imageAlt = head.imagePath ? head.imageAlt : siteSocialImageAlt(catalogue);
  return html`<title>${title}</title>
<meta name="description" content="${description}">
${head.noindex ? html`<meta name="robots" content="noindex">` : html`<link rel="canonical" href="${canonical}">`}
${head.markdownPath ? html`<link rel="alternate" type="text/markdown" href="${head.markdownPath}">` : ''}${(head.feeds ?? []).map((feed) => html`<link rel="alternate" type="${feed.type}" title="${feed.title}" href="${feed.href}">`)}
<meta property="og:type" content="${head.ogType ?? 'website'}">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${canonical}">
<meta property="og:image" content="${image}"><meta property="og:image:width" content="${socialCardSize.width}"><meta property="og:image:height" content="${socialCardSize.height}">${imageAlt ? html`<meta property="og:image:alt" content="${imageAlt}">` : ''}
<meta name="twitter:card" content="summary_large_image">
${head.jsonLd ? html`<script type="application/ld+json">${trustedHtml(jsonLdText(head.jsonLd))}</script>` : ''}`;
}
