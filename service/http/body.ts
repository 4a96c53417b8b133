/**
 * A request body read up to a cap: the cap is enforced while reading, so an oversize body is
 * refused after at most `max` bytes have arrived, never buffered whole. Each endpoint decides
 * what a body too large, an unreadable one or one that is not UTF-8 means for its answer.
 */

/** The body's bytes, or null when it is larger than `max` (read no further). A failed read throws. */
export async function readCappedBytes(request: Request, max: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
