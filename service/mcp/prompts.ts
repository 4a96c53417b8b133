/**
 * The MCP prompts: the two conversations people start with this catalogue, written from its
 * data. `choose_a_trip` hands the model the published trips and the rules for comparing them;
 * `enquire` walks it through an enquiry with the person in charge (their details, their consent,
 * then `send_enquiry`, or the trip page's form).
 */
import { completable, ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'astro/zod';
import { groupSizeCap } from '../bookings/enquiry.ts';
import type { V1Deps } from '../v1/operations.ts';
import { enquiryToolName } from './enquiry-tool.ts';
import { tripLine } from './tools.ts';
import { searchNames } from '../departures/search.ts';
import { tripBySlug } from '../../domain/catalogue/index.ts';
import { quoted } from '../http/quoted.ts';

const userText = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
});

export function registerPrompts(server: McpServer, deps: V1Deps, options: { enquiries: boolean }): void {
  const { catalogue } = deps;
  const slugs = catalogue.trips.map((page) => page.trip.slug);

  server.registerPrompt(
    'choose_a_trip',
    {
      title: 'Choose a trek or expedition',
      description:
        'Compare the published treks and expeditions against what the person wants, with the facts to check before recommending one.',
      argsSchema: {
        wishes: z
          .string()
          .max(500)
          .optional()
          .describe('What the person wants: month, fitness, experience, budget, region.'),
      },
    },
    ({ wishes }) =>
      userText(
        [
          `Help me choose a Himalayan trip from ${catalogue.site.operatorName}.${wishes ? ` What I want: ${wishes}` : ''}`,
          '',
          'The published trips:',
          ...catalogue.trips.map((page) => tripLine(page.trip)),
          '',
          `Compare them on difficulty, highest altitude, days, season and price. Read a trip's itinerary and fitness needs in its Markdown (the trips resources) before recommending it, and check its dates with list_departures, which takes the person's dates, difficulty, length, group size and budget as filters (${searchNames.join(', ')}); never guess dates, prices or seats.`,
          "Where a trip's page and anything else disagree on a number, the page is right: link it when you quote it.",
        ].join('\n'),
      ),
  );

  server.registerPrompt(
    'enquire',
    {
      title: 'Enquire about a trip',
      description:
        "Send a booking enquiry for the person, with their details and consent, or hand them the trip page's form.",
      argsSchema: {
        tripSlug: completable(z.string().describe('The trip: a slug from list_trips.'), (value) =>
          slugs.filter((slug) => slug.startsWith(value)),
        ),
      },
    },
    ({ tripSlug }) => {
      const page = tripBySlug(catalogue, tripSlug);
      if (!page)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No trip has the slug ${quoted(tripSlug) ?? 'given'}; use a slug from list_trips.`,
        );
      const { trip } = page;
      const form = `${trip.url}#enquiry-form`;
      const steps = options.enquiries
        ? [
            `Before you send anything, ask me for my own name, my phone number with the country code and how many of us are coming (1 to ${groupSizeCap(trip.groupSize)}); dates and questions are optional. Show me exactly what you will send and wait for my yes.`,
            `Then call ${enquiryToolName} with tripSlug "${trip.slug}". Tell me the reference it returns, and that a guide calls back${catalogue.site.callbackPromise ? ` ${catalogue.site.callbackPromise}` : ''} to confirm seats: nothing is booked until then.`,
            `If I would rather send it myself, give me the form: ${form}`,
          ]
        : [`Give me the trip page's enquiry form, where I can send it myself: ${form}`];
      return userText([`I want to enquire about ${trip.name} (${trip.url}).`, tripLine(trip), '', ...steps].join('\n'));
    },
  );
}
