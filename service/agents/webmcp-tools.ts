/**
 * The tools the site's pages offer an agent in the browser (WebMCP, `document.modelContext` or,
 * in earlier drafts, `navigator.modelContext`), as data: name, description and input schema, the
 * same argument shapes as the MCP tools and the /v1 query (the schemas are the MCP server's own).
 * Served as /webmcp-tools.json; /webmcp-tools.js registers them and does the work in the page:
 * reading /v1, and filling the enquiry form, which only the person sends.
 */
import { z } from 'astro/zod';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { enquiryRequestSchema } from '../bookings/enquiry-schema.ts';
import { enquiryToolName } from '../mcp/enquiry-tool.ts';
import { operationOf, toolDefinitions, toolInputSchema } from '../mcp/tools.ts';

export interface WebMcpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: boolean };
}

/** The MCP tools a page offers too, reading the same /v1 operations from the page. */
const readTools = ['list_trips', 'list_departures'];

const startEnquiryToolName = 'start_enquiry';

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

export function buildWebMcpTools(catalogue: Catalogue): { tools: WebMcpTool[] } {
  const read = toolDefinitions
    .filter((tool) => readTools.includes(tool.name))
    .map((tool) => {
      const op = operationOf(tool.operationId);
      return {
        name: tool.name,
        title: tool.title,
        description: `${op.summary} ${op.description} The answer is the JSON of GET /v1${op.path}; the same tool is on the MCP server at ${catalogue.siteUrl}/mcp.`,
        inputSchema: jsonSchema(toolInputSchema(op)),
        annotations: { readOnlyHint: true },
      };
    });
  const start: WebMcpTool = {
    name: startEnquiryToolName,
    title: 'Fill in the enquiry form for the person to send',
    description:
      `Fills in the booking enquiry form of a trip's page with what the person told you (on this page, or on the trip's page, which it opens) for them to check and send themselves: it never sends. ` +
      `Use it when the person wants to enquire and has given you their own name and phone number. The same fields as the MCP tool ${enquiryToolName} and POST ${catalogue.siteUrl}/api/bookings; after they send it, a guide calls them back to confirm seats and dates.`,
    inputSchema: jsonSchema(enquiryRequestSchema(catalogue)),
    annotations: { readOnlyHint: false },
  };
  return { tools: [...read, start] };
}
