/**
 * The error shape of /v1 as a Zod schema: the OpenAPI document publishes it and tests parse
 * answers with it. Built from the code table in errors.ts, which builds every error answer.
 */
import { z } from 'astro/zod';
import { errorCodes, type ErrorCode } from './errors.ts';

export const errorBody = z
  .object({
    error: z
      .object({
        code: z
          .enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]])
          .describe('Stable machine-readable code; branch on this.'),
        message: z.string().describe('Human-readable explanation.'),
        status: z
          .number()
          .int()
          .min(300)
          .max(599)
          .describe('The HTTP status, repeated: 4xx or 5xx, or 301 for a peak whose id has changed.'),
        documentationUrl: z.url().describe('Where to read about the API.'),
        hint: z.string().optional().describe('How to fix the request, when a fix exists.'),
      })
      .strict(),
  })
  .strict();
