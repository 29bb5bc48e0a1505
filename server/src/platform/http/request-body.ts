/** Streamed request bodies: read as they arrive, never buffered whole (uploads, Takeout parts). */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

/**
 * The request body as a Node stream.
 *
 * Under @hono/node-server the Node request itself is in `c.env.incoming`: reading it directly skips
 * two stream adapters (Node → web ReadableStream → Node), which showed in CPU profiles of 1 GiB
 * uploads as about a second of main-thread time (the adapter's per-chunk work and the garbage it
 * makes). It also reports a client that went away as an error of the stream, which a resumable upload
 * needs to record what arrived. The web body is the fallback for other runtimes, as long as nobody read it.
 */
export function bodyStream(c: Context<AppEnv>): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && typeof incoming.pipe === 'function' && !incoming.readableDidRead) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>) : Readable.from([]);
}

/**
 * A streamed request answered before its body was read to the end (it stalled, broke off, or was refused
 * part-way) closes its connection after the answer: the rest of that body is not worth reading,
 * and a stalled client must not keep the socket, and the drain of its body, forever.
 */
export async function closeUnfinishedBody(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  await next();
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.complete) c.res.headers.set('connection', 'close');
}
