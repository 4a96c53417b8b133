/**
 * The JSON-RPC side of /mcp that runs before the SDK: which requests a POST body holds, and the
 * error answers of the endpoint itself (origin, method, size, parse errors, batches, protocol
 * version, quota). An error names the request it answers whenever the body could be read: one
 * error per request, with its id, as JSON-RPC 2.0 asks; `id: null` only when no id could be known.
 */
import { cachePolicy } from '../http/cache-policy.ts';

type Id = string | number;

/** What a POST body holds, as far as the endpoint needs to know before the SDK reads it. */
export interface RpcMessages {
  /** The ids of its requests (notifications have none), in order. */
  ids: Id[];
  /** A batch (an array), even of one. */
  batch: boolean;
  /** The body as parsed JSON; undefined when it is not JSON. */
  parsed: unknown;
}

function idOf(message: unknown): Id | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message)) return undefined;
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

/** Reads a body as JSON-RPC messages; anything unparsable is a message without an id. */
export function rpcMessages(body: string): RpcMessages {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ids: [], batch: false, parsed: undefined };
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return { ids: messages.map(idOf).filter((id) => id !== undefined), batch: Array.isArray(parsed), parsed };
}

const noMessages: RpcMessages = { ids: [], batch: false, parsed: undefined };

/** The error codes JSON-RPC 2.0 defines, and the generic server error MCP transports use. */
export const rpcErrorCodes = { parseError: -32700, invalidRequest: -32600, serverError: -32000 } as const;

/**
 * An error answer of the endpoint: one error object per request of the body (a batch gets an
 * array), or one with `id: null` when no request id could be read.
 */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  messages: RpcMessages = noMessages,
  headers: Record<string, string> = {},
): Response {
  const error = (id: Id | null) => ({ jsonrpc: '2.0', error: { code, message }, id });
  const body =
    messages.ids.length === 0 ? error(null) : messages.batch ? messages.ids.map(error) : error(messages.ids[0]!);
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cachePolicy.never, ...headers },
  });
}
