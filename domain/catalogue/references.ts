/**
 * Sources as references: who publishes one, and whether it is only the operator speaking about
 * itself. A fact the operator states on its own pages is not evidence for that fact.
 */
import type { SiteSettings } from '../schemas/site.ts';

export interface Reference {
  title: string;
  publisher?: string | undefined;
  url: string;
}

/** The host of a web address without a leading `www.`: `en.wikipedia.org`. */
export function hostOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

/** The name a reference list shows for a source: its publisher, or the site it is on. */
export function publisherOf(reference: Reference): string {
  return reference.publisher ?? hostOf(reference.url);
}

/** The operator's own domains: the settings' list, the canonical origin and the origin being built. */
export function operatorDomains(site: SiteSettings, origin?: string): string[] {
  const domains = new Set((site.operatorDomains ?? []).map((d) => d.toLowerCase().replace(/^www\./, '')));
  domains.add(hostOf(site.siteUrl));
  if (origin) domains.add(hostOf(origin));
  return [...domains];
}

/** True for a page on one of the domains or a subdomain of one. */
export function isOwnPage(url: string, domains: readonly string[]): boolean {
  const host = hostOf(url);
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** True when a record has references and every one of them is the operator's own page. */
export function onlyOwnPages(references: readonly Reference[], domains: readonly string[]): boolean {
  return references.length > 0 && references.every((r) => isOwnPage(r.url, domains));
}
