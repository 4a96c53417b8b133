/**
 * The page that says what departure alerts are, what is kept, why and for how long (/alerts, and
 * its Markdown twin /alerts.md), written once from the same numbers the alert job keeps to
 * (`retention` in service/departures/alert-paths.ts, the quotas in service/rules/policy.ts).
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { alertAddressQuota } from '../rules/policy.ts';
import { alertPaths, feedPaths } from '../departures/alert-paths.ts';
import { retention } from '../departures/alert-paths.ts';

interface AboutSection {
  heading: string;
  paragraphs: string[];
  links?: { label: string; href: string }[];
}

export interface AlertsAbout {
  title: string;
  description: string;
  lead: string;
  sections: AboutSection[];
}

export function alertsAbout(catalogue: Catalogue): AlertsAbout {
  const operator = catalogue.site.operatorName;
  return {
    title: 'Departure alerts: what we keep, why and for how long',
    description: `Email alerts when seats open on a full date or new dates fit a search, from ${operator}: no account, one confirmation email, at most one alert a day, and only the address kept.`,
    lead: 'Tell us an email address, and we write when seats open on a full date, or when a new date fits your search. No account and no password: only the address.',
    sections: [
      {
        heading: 'How it works',
        paragraphs: [
          '"Tell me when seats open" is under every full or filling date on the departures board. "Tell me about new dates that fit" is under every search on the board, an empty one included.',
          `We send one email with a link to confirm, which works for ${retention.confirmHours} hours. Nothing else is sent until you confirm. Asking again for the same alert with the same address keeps one alert.`,
          'Once confirmed, we write at most once a day for each alert, naming exactly what changed (seats opened, a lower price, a new date, a cancellation) with a link to the seats and price as they are at that moment. Nothing is held until you enquire and a guide confirms.',
        ],
      },
      {
        heading: 'What we keep, and why',
        paragraphs: [
          'The email address, what it watches (a date, or a search and the group size it is for), and when you asked, confirmed and were last written to. We keep them only to send these alerts: they are not used for anything else and not shared. Emails are sent through our mail service; the text of an email is not kept once it is sent.',
          `The links in our emails carry random keys that say nothing about the address; we keep only a fingerprint of each. An address can ask for at most ${alertAddressQuota.confirmationsPerDay} confirmation emails a day and keep ${alertAddressQuota.watches} alerts, whoever asks for them, and our answer is the same whether an address was watching already or not.`,
        ],
      },
      {
        heading: 'For how long',
        paragraphs: [
          `An alert you do not confirm is deleted within a day. A date's alert is deleted when the date starts; a search's when its last day has passed, or after ${retention.searchDays} days when it has none. Any alert is deleted at once when you stop it.`,
          `What changed on each departure, which the alerts and the feeds are made from, is kept for ${retention.changesDays} days; it holds no address.`,
        ],
      },
      {
        heading: 'Stopping',
        paragraphs: [
          'Every email has a link to stop it, and mail apps that show an "Unsubscribe" button stop every alert to the address in one click. Stopping deletes the address and what it watched.',
        ],
      },
      {
        heading: 'Without an email address',
        paragraphs: [
          "Every search on the board is also a feed of its changes, for a feed reader: Atom and JSON Feed, with the board's filters in the address.",
        ],
        links: [
          { label: 'Every departure, as Atom', href: feedPaths.atom },
          { label: 'Every departure, as JSON Feed', href: feedPaths.json },
          { label: 'The departures board', href: '/departures' },
        ],
      },
    ],
  };
}

/** The same page as Markdown. */
export function alertsAboutMarkdown(catalogue: Catalogue): string {
  const about = alertsAbout(catalogue);
  const lines = [`# ${about.title}`, '', about.lead, ''];
  for (const section of about.sections) {
    lines.push(`## ${section.heading}`, '', ...section.paragraphs.flatMap((p) => [p, '']));
    for (const link of section.links ?? []) lines.push(`- [${link.label}](${catalogue.siteUrl}${link.href})`);
    if (section.links) lines.push('');
  }
  lines.push(`Page: ${catalogue.siteUrl}${alertPaths.about}`, '');
  return lines.join('\n');
}
