/**
 * The developer page as one Markdown document: served as /developers.md and rendered to the
 * HTML page at build time, so the two always say the same thing.
 */
import { marked, Renderer } from 'marked';
import type { DeveloperReference, ReferenceField } from './developer-reference.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

function fieldTable(fields: ReferenceField[], first = 'Field'): string[] {
  return [
    `| ${first} | Type | Required | Meaning |`,
    '| --- | --- | --- | --- |',
    ...fields.map((f) => `| \`${f.name}\` | ${cell(f.type)} | ${f.required ? 'yes' : 'no'} | ${cell(f.description)} |`),
  ];
}

const fence = (lang: string, text: string) => ['```' + lang, text, '```'];

export function developerMarkdown(ref: DeveloperReference): string {
  const lines: string[] = [
    '# API reference',
    '',
    `${ref.title}, version ${ref.version}. Base URL: \`${ref.baseUrl}\`. Machine-readable description: [openapi.json](${ref.openapiUrl}) (OpenAPI 3.1).`,
    '',
    ref.overview,
    '',
    '## Quick start',
    '',
    'No key, no sign-up. Every operation is a GET that answers JSON:',
    '',
    ...fence(
      'sh',
      [
        `curl -s '${ref.baseUrl}/'`,
        `curl -s '${ref.baseUrl}/trips?type=trek&difficulty=Moderate'`,
        `curl -s '${ref.baseUrl}/peaks?firstSixThousanderCandidate=true'`,
        `curl -si '${ref.baseUrl}/trips/no-such-trip'   # the error shape, with rate-limit headers`,
      ].join('\n'),
    ),
    '',
    '## Operations',
    '',
    '| Operation | Method and path | What it returns |',
    '| --- | --- | --- |',
    ...ref.operations.map(
      (op) =>
        `| [\`${op.operationId}\`](#${slug(`${op.method} ${op.path}`)}) | ${op.method} \`${op.path}\` | ${cell(op.summary)} |`,
    ),
    '',
  ];
  for (const op of ref.operations) {
    lines.push(`### ${op.method} ${op.path}`, '', `\`${op.operationId}\`: ${op.summary}`, '');
    if (op.description) lines.push(op.description, '');
    if (op.parameters.length > 0) {
      lines.push(
        '| Parameter | In | Type | Required | Meaning |',
        '| --- | --- | --- | --- | --- |',
        ...op.parameters.map(
          (p) =>
            `| \`${p.name}\` | ${p.in} | ${cell(p.type)} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`,
        ),
        '',
      );
    }
    lines.push(
      'Responses:',
      '',
      ...op.responses.map((r) => `- **${r.status}**: ${r.description.replace(/\n+/g, ' ')}`),
      '',
    );
    lines.push('Try it:', '', ...fence('sh', op.curl.join('\n')), '');
    if (op.example)
      lines.push('Example answer (long lists cut to their first items):', '', ...fence('json', op.example), '');
  }
  lines.push('## Resources', '', 'Every field, with its type and meaning, as the OpenAPI document defines it.', '');
  for (const schema of ref.schemas) {
    lines.push(`### ${schema.name}`, '');
    if (schema.description) lines.push(schema.description, '');
    lines.push(...fieldTable(schema.fields), '');
  }
  lines.push(
    '## Rate limits',
    '',
    `${ref.rateLimit.requests} requests per ${ref.rateLimit.windowSeconds} seconds per client IP (${ref.rateLimit.scope}). A window opens with a client's first request. Over the quota the answer is 429 \`rate_limited\` with \`Retry-After\`; wait that many seconds and retry. Booking enquiries (\`POST /api/bookings\`) have their own quota of ${ref.bookingLimit.requests} per ${ref.bookingLimit.windowSeconds / 60} minutes and do not send these headers.`,
    '',
    'Every response under the base URL, success or error, reports the quota in these headers:',
    '',
    '| Header | Meaning |',
    '| --- | --- |',
    ...ref.rateLimit.headers.map((h) => `| \`${h.name}\` | ${cell(h.description)} |`),
    '',
    '## Errors',
    '',
    'Every error under the base URL is JSON in one shape, never HTML: `{ "error": { code, message, status, documentationUrl, hint } }`. Branch on `code`, which never changes within v1; `message` is for people; `hint`, when present, says how to fix the request. `documentationUrl` points here.',
    '',
    '| Code | HTTP status | When |',
    '| --- | --- | --- |',
    ...ref.errors.map((e) => `| \`${e.code}\` | ${e.status} | ${cell(e.condition)} |`),
    '',
  );
  if (ref.errorExample) lines.push('For example, an unknown trip slug:', '', ...fence('json', ref.errorExample), '');
  lines.push(
    '## Caching',
    '',
    `Successful responses carry a strong \`ETag\`; send it back in \`If-None-Match\` and an unchanged resource answers 304 with no body. Trips and peaks: \`Cache-Control: ${ref.cache.catalogue}\`. Departures change as seats sell: \`${ref.cache.departures}\`.`,
    '',
    '## Markdown for agents',
    '',
    `Every page of the site is also Markdown. Send \`Accept: text/markdown\` to a page's own URL and the answer is \`text/markdown; charset=utf-8\` with \`Vary: Accept\`; HTML pages name their twin in \`<link rel="alternate" type="text/markdown">\` and a \`Link\` header. A trip page's twin is its path plus \`.md\` and holds the itinerary, inclusions, FAQs and live departures.`,
    '',
    ...fence(
      'sh',
      [`curl -s -H 'Accept: text/markdown' '${ref.siteUrl}/'`, `curl -s '${ref.siteUrl}/treks.md'`].join('\n'),
    ),
    '',
    '## Machine-readable files',
    '',
    '| File | Type | What it is |',
    '| --- | --- | --- |',
    ...ref.files.map(
      (f) => `| [${f.url.replace(ref.siteUrl, '')}](${f.url}) | ${f.mediaType} | ${cell(f.description)} |`,
    ),
    `| [/sitemap-index.xml](${ref.siteUrl}/sitemap-index.xml) | application/xml | Every page of the site. |`,
    '',
    '## Booking enquiries',
    '',
    `Booking is not part of the API: a booking enquiry is. \`POST ${ref.enquiry.url}\` passes a person's enquiry to the team, and a guide calls them back to confirm seats and dates; nothing is booked until then. Its own OpenAPI 3.1 document is [enquiry-openapi.json](${ref.enquiry.openapiUrl}); the MCP tool \`send_enquiry\` takes the same fields. Send one only for a person who asked for it, with their own name and phone number and their consent; otherwise, or if they would rather send it themselves, give them the trip page's form (the trip's \`url\` plus \`#enquiry-form\`). Never send test enquiries: each one reaches the team.`,
    '',
    ...fieldTable(ref.enquiry.fields),
    '',
    ...fence(
      'sh',
      `curl -s -X POST '${ref.enquiry.url}' -H 'Content-Type: application/json' -d '${ref.enquiry.example}'`,
    ),
    '',
    'Answers:',
    '',
    ...ref.enquiry.answers.map((a) => `- **${a.status}**: ${a.description.replace(/\n+/g, ' ')}`),
    '',
    '## Versioning and contact',
    '',
    `The version is in the path. Additive changes (a field, an endpoint, a filter) ship inside v1; a breaking change would get a new \`v2\` path while v1 keeps working. \`operationId\` and error \`code\` values are never renamed or reused within v1. Questions and data corrections: ${ref.contactEmail}.`,
    '',
  );
  return lines.join('\n');
}

/** The id a heading gets on the HTML page: `## Errors` is `#errors`, `### GET /trips/{slug}` is `#get-trips-slug`. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The same Markdown as HTML, with ids on headings so sections can be linked (`/developers#errors`). */
export function developerHtml(markdown: string): string {
  const renderer = new Renderer();
  // Descriptions mention placeholders such as <quota>; they are text, never markup.
  renderer.html = ({ text }) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  let section = 'Reference';
  renderer.heading = function ({ tokens, depth }) {
    const text = this.parser.parseInline(tokens);
    section = text.replace(/<[^>]+>/g, '');
    // The page's own <h1> comes from the layout around this document.
    return depth === 1 ? '' : `<h${depth} id="${slug(text)}">${text}</h${depth}>\n`;
  };
  // Wide tables scroll inside their own labelled, focusable box instead of widening a phone screen.
  const table = renderer.table.bind(renderer);
  renderer.table = (token) =>
    `<div class="table-scroll" tabindex="0" role="region" aria-label="${section.replace(/"/g, '&quot;')}, table">${table(token)}</div>\n`;
  return marked.parse(markdown, { async: false, gfm: true, renderer });
}
