/**
 * The MCP tool `send_enquiry`: an agent sends a booking enquiry for a person, through the same
 * path as POST /api/bookings (service/bookings: the client's enquiry quota, the same Zod schema,
 * the store, delivery to the team), and gets the same answer: the reference and the call-back
 * promise, or the same refusal per field. It never books: a guide calls the person back.
 */
import type { CallToolResult, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { enquiryRequestSchema } from '../bookings/enquiry-schema.ts';
import { takeEnquiry, type EnquiryDeps } from '../bookings/index.ts';
import { bookingErrorStatus, enquiryReceivedBody, errorBody, receivedBody, refusalOf } from '../bookings/responses.ts';
import { bookingRateLimit } from '../rules/policy.ts';

export const enquiryToolName = 'send_enquiry';

export interface McpEnquiries {
  /** The enquiry path's dependencies, opened when an enquiry is first sent. */
  deps: () => Promise<EnquiryDeps>;
  /** The address the enquiry quota counts against: the client's, as the host sees it. */
  clientIp: string;
  /** The Idempotency-Key header of the POST that calls the tool: the enquiry is taken once under it, as by the endpoint. */
  idempotencyKey?: string | null;
}

/** What the tool says about itself: when to use it, and what the agent must have first. */
function enquiryToolDescription(catalogue: Catalogue): string {
  return [
    `Send a booking enquiry to ${catalogue.site.operatorName}'s team for one person, exactly as the form on a trip page does (POST ${catalogue.siteUrl}/api/bookings).`,
    'Use it only when the person has asked you to enquire, for that trip and group size, and you have their own name and phone number and their consent to share them; show them what you will send first.',
    `Nothing is booked: a guide calls them back ${catalogue.site.callbackPromise ?? ''} to confirm seats and dates. The answer is the enquiry's reference: give it to them.`.replace(
      /\s+/g,
      ' ',
    ),
    "If the person would rather send it themselves, or you lack any of these, send them to the trip page's enquiry form (the trip's `url` plus #enquiry-form) instead.",
    `Counts against ${bookingRateLimit.requests} enquiries per ${bookingRateLimit.windowSeconds / 60} minutes from one address. Never send test enquiries: each one reaches the team.`,
    'Where your client can, send the POST that calls this tool with an Idempotency-Key header (a new UUID for each enquiry), and call again with the same key when no answer came: the enquiry is then taken once.',
  ].join(' ');
}

/**
 * A schema as the tool publishes it, with the checking left to the endpoint: the SDK would refuse
 * a faulty enquiry in its own words, before the endpoint could, where POST /api/bookings names
 * the trip (its group-size cap) and counts the attempt. The endpoint checks every call with this
 * same schema, so the tool refuses exactly what the endpoint refuses, in its words.
 */
function publishedOnly<S extends StandardSchemaWithJSON>(schema: S): S {
  return { '~standard': { ...schema['~standard'], validate: (value: unknown) => ({ value }) } } as unknown as S;
}

export function registerEnquiryTool(server: McpServer, catalogue: Catalogue, enquiries: McpEnquiries): void {
  server.registerTool(
    enquiryToolName,
    {
      title: 'Send a booking enquiry for a person',
      description: enquiryToolDescription(catalogue),
      inputSchema: publishedOnly(enquiryRequestSchema(catalogue)),
      outputSchema: enquiryReceivedBody,
      annotations: {
        title: 'Send a booking enquiry',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (args: Record<string, unknown>): Promise<CallToolResult> => {
      const answer = await takeEnquiry(args, await enquiries.deps(), {
        clientIp: enquiries.clientIp,
        idempotencyKey: enquiries.idempotencyKey,
      });
      if (answer.kind === 'received') {
        const body = receivedBody(answer.enquiry);
        return {
          structuredContent: body,
          content: [{ type: 'text', text: `Sent. Reference ${body.enquiry.id}. ${body.next}` }],
        };
      }
      const refusal = refusalOf(answer);
      const body = errorBody(refusal);
      const status = bookingErrorStatus[refusal.code];
      const fields = body.error.fields?.map((f) => `- ${f.field}: ${f.message}`) ?? [];
      const text = [
        `Not sent (${refusal.code}; POST /api/bookings answers HTTP ${status} with the same code). ${body.error.message}`,
        ...fields,
        body.next ?? '',
      ]
        .filter(Boolean)
        .join('\n');
      return {
        isError: true,
        content: [
          { type: 'text', text },
          { type: 'text', text: JSON.stringify(body) },
        ],
      };
    },
  );
}
