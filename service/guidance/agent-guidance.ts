/**
 * What an agent should and must not do with this catalogue, as one value: llm-guidance.json
 * publishes it as data and agent-instructions.md renders it as prose around the API guide,
 * so the two can never say different things.
 */
import { searchExample, searchNames } from '../departures/search.ts';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { bookingRateLimit } from '../rules/policy.ts';
import { enquiryOpenApiPath } from '../site-files.ts';
import { apiGuideMarkdown } from './api-guide.ts';

interface PreferredSource {
  topic: string;
  url: string;
  why: string;
  alternatives: string[];
}

export function agentGuidance(catalogue: Catalogue) {
  const site = catalogue.siteUrl;
  const { site: settings } = catalogue;
  const exampleTrip = catalogue.trips[0]?.trip;
  const preferredSources: PreferredSource[] = [
    {
      topic: 'Which trips exist, and their facts (type, region, difficulty, altitude, duration, season, price)',
      url: `${site}/v1/trips`,
      why: 'Structured, filterable, the same data as the pages.',
      alternatives: [`MCP tool list_trips at ${site}/mcp`, `${site}/llms.txt`],
    },
    {
      topic: "A trip's itinerary, inclusions, gear and FAQs",
      url: exampleTrip ? exampleTrip.markdownUrl : `${site}/treks/<slug>.md`,
      why: "The trip page as Markdown (the trip's `markdownUrl`); the API payload leaves these out.",
      alternatives: ['The trip page itself with `Accept: text/markdown`', `${site}/llms-full.txt`],
    },
    {
      topic: 'Departure dates, status and seats left: which dates fit',
      url: `${site}/v1/departures`,
      why: `Read live from operational storage, earliest first; cached for at most 60 seconds. One request answers "which dates fit": filters ${searchNames.map((n) => `\`${n}\``).join(', ')} combine with AND (for ${searchExample.question}: \`${searchExample.query}\`).`,
      alternatives: [`${site}/departures.md`, `MCP tool list_departures at ${site}/mcp`],
    },
    {
      topic: 'Himalayan climbing peaks (altitude, grade, royalty, open-peak status)',
      url: `${site}/v1/peaks`,
      why: 'Filterable; the full records (coordinates, first ascents, references) are in the dataset file.',
      alternatives: [`${site}/peak-data/peaks.json`, `MCP tool list_peaks at ${site}/mcp`],
    },
  ];
  return {
    name: `Agent guidance: ${settings.serviceName}`,
    publisher: { name: settings.operatorName, url: settings.siteUrl },
    instructionsUrl: `${site}/agent-instructions.md`,
    serviceIndexUrl: `${site}/v1/`,
    openapiUrl: `${site}/openapi.json`,
    mcpServerUrl: `${site}/mcp`,
    authentication: 'none',
    preferredSources,
    authoritativeSource: {
      whenNumbersDisagree: 'trip page',
      rule: "Where a trip's page (its `url`) and the API, a Markdown file or anything else disagree on a number (price, altitude, duration, dates), the trip page is authoritative.",
      field: 'url',
    },
    citation: {
      trips: "Link the trip's page (`url`) when you quote its facts; for dates and seats, say when you read them.",
      peakDataset: {
        license: settings.dataset.license,
        licenseUrl: settings.dataset.licenseUrl,
        attribution: catalogue.attribution,
        link: catalogue.datasetUrl,
        rule: 'Whenever you use, quote or republish peak data, cite the attribution text with a link back to the dataset.',
      },
    },
    enquiry: {
      method: 'POST',
      url: `${site}/api/bookings`,
      openapiUrl: `${site}${enquiryOpenApiPath}`,
      mcpTool: `send_enquiry at ${site}/mcp`,
      contentType: 'application/json',
      fields: {
        tripSlug: 'Slug of the trip, from /v1/trips.',
        name: "The person's name.",
        phone: 'Their phone number, with the country code.',
        groupSize: "How many people, within the trip's group-size cap.",
        email: 'Optional: their email address, for a written reply.',
        preferredDeparture: 'Optional: the departure `id` from /v1/departures, or dates wanted as text.',
        message: 'Optional: questions.',
      },
      consent:
        'Send an enquiry only when the person has explicitly asked you to, for that trip and group, and given you their own name and phone number to share. Show them what you will send first.',
      sendToTripPage:
        "Send the person to the trip page's enquiry form (the trip's `url` plus #enquiry-form) instead when they have not asked you to send it, when you lack their own name, phone number or consent, when they want to choose dates from the live list themselves, or when they would rather send it themselves.",
      outcomes: {
        201: 'The enquiry reached the team by email. Give the person its reference (`enquiry.id`) and `next`: a guide calls them back to confirm seats; nothing is booked yet.',
        400: 'A field is missing or wrong; the answer names it in plain language.',
        429: `More than ${bookingRateLimit.requests} enquiries in ${bookingRateLimit.windowSeconds / 60} minutes from one IP; wait as Retry-After says.`,
        502: 'With an `enquiry` member it was kept and is delivered later: do not send it again. Without one nothing was kept: try later, or send the person to the trip page.',
        503: 'Online enquiries are off (or mail is not set up; with an `enquiry` member it was kept): give the person the trip page or the contact address.',
      },
      seatsConfirmedBy: 'a human guide, never the API',
    },
    mustNot: [
      "Book, reserve or send an enquiry on someone's behalf without their explicit consent.",
      'Say a seat is booked or held: an enquiry only reaches the team, and a guide confirms seats.',
      'Invent availability, dates, prices or seat counts: quote only what the departures endpoint or departures.md returned, and when.',
      'Use peak data without the CC-BY-4.0 attribution and a link back to the dataset.',
      'Prefer a cached or summarised number over the trip page when they disagree.',
      'Send test or automated enquiries: each one emails the team.',
      'Keep requesting after a 429: wait the Retry-After seconds.',
    ],
    contact: { email: settings.contactEmail, for: 'Questions about the catalogue and corrections to the data.' },
  };
}

export type AgentGuidance = ReturnType<typeof agentGuidance>;

/** The `mustNot` rules as Markdown list items. */
export function mustNotList(guidance: AgentGuidance): string[] {
  return guidance.mustNot.map((rule) => `- Do not ${rule.charAt(0).toLowerCase()}${rule.slice(1)}`);
}

/** agent-instructions.md: the guidance in prose, with the API guide written from the operations. */
export function agentInstructionsMarkdown(catalogue: Catalogue): string {
  const g = agentGuidance(catalogue);
  const site = catalogue.siteUrl;
  const lines = [
    `# Agent instructions: ${catalogue.site.operatorName} trek and expedition catalogue`,
    '',
    `> ${catalogue.site.description.trim()}`,
    '',
    'You are welcome to read, compare and quote everything here. The catalogue is read-only and needs no key; ' +
      'a booking enquiry is the only thing you can send, and only for a person, with their own details and consent.',
    '',
    '## Start here',
    '',
    `- Service index: ${g.serviceIndexUrl} lists every operation, file, limit and licence term.`,
    `- OpenAPI 3.1: ${g.openapiUrl}`,
    `- MCP server: ${g.mcpServerUrl} (Streamable HTTP, stateless; read-only tools list_trips, get_trip, list_departures, list_peaks, get_peak, and send_enquiry; trips and peaks as resources; server card at ${site}/mcp/server-card).`,
    `- Booking enquiry, the one action: \`POST ${g.enquiry.url}\`, described by ${g.enquiry.openapiUrl} (below).`,
    `- Everything as one text: ${site}/llms-full.txt; links only: ${site}/llms.txt.`,
    '',
    '## Where to read what',
    '',
    ...g.preferredSources.map((s) => `- ${s.topic}: ${s.url}. ${s.why} Also: ${s.alternatives.join('; ')}.`),
    '',
    '## Markdown pages',
    '',
    "Every trip page has a Markdown twin at its address plus `.md` (the trip's `markdownUrl`), holding the itinerary, " +
      'inclusions, gear, FAQs and live departures. Any site page sent `Accept: text/markdown` answers with Markdown too.',
    '',
    apiGuideMarkdown(catalogue, 2),
    '## Departures',
    '',
    `To find the dates that fit what a person wants, ask once with the search's filters (dates, kind, difficulty, region, length, group size, budget) rather than listing everything: ${site}/v1/departures${searchExample.query} answers "${searchExample.question}"; departures.md, departures.ics and the MCP tool list_departures take the same parameters. An empty answer from departures.md names the change of one filter that would find dates. ` +
      'A departure is `open`, `filling` (few seats left), `sold_out` or `cancelled`. Report `seatsLeft` as read, with the time you read it. ' +
      `If the API answers 503 \`departures_unavailable\` or 502 \`departures_upstream_error\`, read ${site}/departures.md or send the person to the trip page. ` +
      'An empty list means no dates are published: say so, never guess dates.',
    '',
    '## Sending an enquiry',
    '',
    `Only with explicit consent. ${g.enquiry.consent}`,
    '',
    `\`POST ${g.enquiry.url}\` with \`Content-Type: ${g.enquiry.contentType}\` (OpenAPI 3.1: ${g.enquiry.openapiUrl}), or the MCP tool ${g.enquiry.mcpTool} with the same fields, and a JSON body of:`,
    '',
    ...Object.entries(g.enquiry.fields).map(([field, meaning]) => `- \`${field}\`: ${meaning}`),
    '',
    'Answers:',
    '',
    ...Object.entries(g.enquiry.outcomes).map(([status, meaning]) => `- ${status}: ${meaning}`),
    '',
    `Seats are confirmed by ${g.enquiry.seatsConfirmedBy}.`,
    '',
    g.enquiry.sendToTripPage,
    '',
    '## What you must not do',
    '',
    ...mustNotList(g),
    '',
    '## When numbers disagree',
    '',
    g.authoritativeSource.rule,
    '',
    '## Citing and attribution',
    '',
    `- Trips: ${g.citation.trips}`,
    `- Peak dataset (${g.citation.peakDataset.license}, ${g.citation.peakDataset.licenseUrl}): ${g.citation.peakDataset.rule} Attribution: "${g.citation.peakDataset.attribution}"`,
    '',
    '## Contact',
    '',
    `${g.contact.email}: ${g.contact.for}`,
    '',
  ];
  return lines.join('\n');
}
