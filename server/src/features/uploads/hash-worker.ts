/**
 * Worker thread body for upload hashing (started by sink.ts; not imported anywhere else).
 *
 * BLAKE3 through hash-wasm runs at about 450 MB/s on one core here, about as fast as the rest of the
 * upload path (multipart parsing, writing to disk) together: hashing on the main thread halves upload
 * throughput. Here it runs beside the main thread. Several uploads share a worker, each by its id;
 * messages of one id are handled in order. Each block comes in by transfer and goes back the same
 * way once hashed, so the main thread reuses its buffers and nothing is copied twice.
 */
import { parentPort } from 'node:worker_threads';
import { createBLAKE3, type IHasher } from 'hash-wasm';

export type HashRequest =
  | { op: 'init'; id: number }
  | { op: 'update'; id: number; buf: ArrayBuffer; len: number }
  | { op: 'digest'; id: number }
  | { op: 'drop'; id: number };

export type HashResponse =
  | { op: 'ack'; id: number; buf: ArrayBuffer }
  | { op: 'digest'; id: number; hex: string }
  | { op: 'error'; id: number; error: string; buf?: ArrayBuffer };

const hashers = new Map<number, Promise<IHasher>>();

parentPort!.on('message', (m: HashRequest) => {
  void handle(m).catch((e: unknown) => {
    const buf = m.op === 'update' ? m.buf : undefined;
    parentPort!.postMessage({ op: 'error', id: m.id, error: (e as Error).message, buf } satisfies HashResponse, buf ? [buf] : []);
  });
});

async function handle(m: HashRequest): Promise<void> {
  switch (m.op) {
    case 'init': {
      const h = createBLAKE3().then((x) => {
        x.init();
        return x;
      });
      hashers.set(m.id, h);
      await h;
      return;
    }
    case 'update': {
      const h = await hashers.get(m.id);
      if (!h) throw new Error(`no hasher ${m.id}`);
      h.update(new Uint8Array(m.buf, 0, m.len));
      parentPort!.postMessage({ op: 'ack', id: m.id, buf: m.buf } satisfies HashResponse, [m.buf]);
      return;
    }
    case 'digest': {
      const h = await hashers.get(m.id);
      hashers.delete(m.id);
      if (!h) throw new Error(`no hasher ${m.id}`);
      parentPort!.postMessage({ op: 'digest', id: m.id, hex: h.digest('hex') } satisfies HashResponse);
      return;
    }
    case 'drop':
      hashers.delete(m.id);
      return;
  }
}
