/**
 * Compression of answers made per request (the functions' answers, on the Node host), at levels
 * suited to work done per request and off the event loop (zlib's thread pool). For the 156 KB
 * departures board Brotli quality 5 takes about 3 ms for 8.1 KB, quality 9 about 17 ms for
 * 7.9 KB; gzip level 6 about 1.4 ms. Built files are compressed once, as hard as possible
 * (static-files.ts).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export type Encoding = 'br' | 'gzip';

const compressible = /^(text\/|application\/(json|xml|ld\+json|[a-z.-]+\+json)|image\/svg)/;

/** Below this a compressed body saves less than its headers cost. */
const smallest = 1024;

export function worthCompressing(mediaType: string, length: number): boolean {
  return length >= smallest && compressible.test(mediaType);
}

/** The encoding to send for this Accept-Encoding: Brotli when accepted, else gzip, else none. */
export function chosenEncoding(acceptEncoding: string): Encoding | null {
  if (/\bbr\b/.test(acceptEncoding)) return 'br';
  if (/\bgzip\b/.test(acceptEncoding)) return 'gzip';
  return null;
}

/**
 * Compressions under way at once. Each holds an encoder's state (Brotli's hash tables, zlib's
 * window) from the moment it is asked for; a flood of unique answers would otherwise ask for
 * hundreds at once, each waiting for one of libuv's four threads with its memory already taken.
 */
const atOnce = 2;
let running = 0;
const waiting: (() => void)[] = [];

export async function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (running >= atOnce) await new Promise<void>((start) => waiting.push(start));
  running += 1;
  try {
    // A window no larger than the body: the defaults (Brotli 4 MiB, zlib 32 KiB) are allocated
    // per answer and cost more time and memory than compressing a page does.
    const bits = Math.ceil(Math.log2(Math.max(body.length, 1)));
    if (encoding === 'gzip') return await gzipped(body, { level: 6, windowBits: Math.min(15, Math.max(9, bits)) });
    const window = Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.max(constants.BROTLI_MIN_WINDOW_BITS, bits));
    return await brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_LGWIN]: window,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}
