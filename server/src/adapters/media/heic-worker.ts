/**
 * Worker thread body for HEIC/HEIF decoding (started by heic.ts; not imported anywhere else).
 *
 * heic-decode runs libheif + libde265 compiled to wasm. A 12 MP photo takes 0.5–3 s of synchronous CPU, which
 * would freeze the HTTP server if done on the main thread, so it runs here. The image size is checked from the
 * container before any pixel is decoded, so an oversized (or hostile) file is refused cheaply.
 */
import fs from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import decode from 'heic-decode';

export interface HeicRequest {
  id: number;
  /** The file to decode, or (with `bytes`) only a name for messages. */
  filePath: string;
  /** The encoded bytes, when they are in memory (a query image that must never reach the disk). */
  bytes?: Uint8Array;
  maxPixels: number;
  maxBytes: number;
}

export type HeicResponse =
  | { id: number; ok: true; width: number; height: number; channels: 3 | 4; data: ArrayBuffer }
  | { id: number; ok: false; code: 'too-large' | 'decode'; error: string };

// libheif-js reports problems with console.log ("Could not parse HEIF file ..."). Keep those lines for the
// error message of the current job instead of letting them reach the server's stdout.
let libheifLog: string[] = [];
console.log = (...args: unknown[]) => {
  libheifLog.push(args.map(String).join(' ').slice(0, 300));
  if (libheifLog.length > 20) libheifLog.shift();
};

/**
 * libheif always hands back RGBA. Photos are opaque; carrying a constant alpha channel would make every later
 * step (sharp's premultiplication, WebP alpha coding) slower and the transfer 33 % larger. Keep RGBA only when
 * some pixel is actually transparent.
 */
function dropOpaqueAlpha(rgba: Uint8ClampedArray): { pixels: Uint8Array; channels: 3 | 4 } {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return { pixels: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), channels: 4 };
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    rgb[j] = rgba[i]!;
    rgb[j + 1] = rgba[i + 1]!;
    rgb[j + 2] = rgba[i + 2]!;
  }
  return { pixels: rgb, channels: 3 };
}

async function handle(req: HeicRequest): Promise<{ response: HeicResponse; transfer: ArrayBuffer[] }> {
  libheifLog = [];
  const fail = (code: 'too-large' | 'decode', error: string) => ({
    response: { id: req.id, ok: false as const, code, error: libheifLog.length ? `${error} (libheif: ${libheifLog.join('; ')})` : error },
    transfer: [],
  });
  const size = req.bytes ? req.bytes.byteLength : (await fs.stat(req.filePath)).size;
  if (size > req.maxBytes) return fail('too-large', `file is ${size} bytes, limit ${req.maxBytes}`);
  const buffer = req.bytes ?? (await fs.readFile(req.filePath));
  const images = await decode.all({ buffer });
  try {
    // heic-decode lists top-level images; a photo has one (the primary). Thumbnails, depth and gain maps are
    // auxiliary items, not top-level, so the first entry is the picture itself.
    const image = images[0];
    if (!image) return fail('decode', 'no image in file');
    if (image.width * image.height > req.maxPixels) {
      return fail('too-large', `${image.width}×${image.height} exceeds the ${req.maxPixels}-pixel limit`);
    }
    const { width, height, data } = await image.decode();
    const { pixels, channels } = dropOpaqueAlpha(data);
    const out = pixels.buffer as ArrayBuffer;
    return { response: { id: req.id, ok: true, width, height, channels, data: out }, transfer: [out] };
  } finally {
    images.dispose();
  }
}

parentPort?.on('message', (req: HeicRequest) => {
  handle(req)
    .then(({ response, transfer }) => parentPort!.postMessage(response, transfer))
    .catch((e: unknown) => {
      const error = e instanceof Error ? e.message : String(e);
      parentPort!.postMessage({ id: req.id, ok: false, code: 'decode', error } satisfies HeicResponse);
    });
});
