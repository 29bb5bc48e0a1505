/**
 * The photo a search by image brings: decoded in memory with ingest's decoders (adapters/media
 * `openImageBytes`: HEIC, RAW's embedded preview, EXIF orientation, the 200-megapixel guard that stops
 * decompression bombs from their header), reduced to what CLIP looks at, and handed on as bytes. Nothing
 * of it is written to disk, and nothing keeps it after the request.
 */
import { DEFAULT_MAX_INPUT_PIXELS, MediaDecodeError, openImageBytes } from '../../adapters/media/index.ts';
import { Invalid } from '../../platform/http/errors.ts';

const FIELD = 'body.image';
/** CLIP looks at 224×224 from the shortest side: twice that keeps its resampling as from the original. */
const REDUCED_SHORT_SIDE = 448;

const refuse = (code: string, message: string) => new Invalid(`Check ${FIELD} (${message}).`, [{ field: FIELD, message, code }], code);

export async function reduceQueryImage(bytes: Buffer, fileName?: string): Promise<Buffer> {
  if (bytes.length === 0) throw refuse('image_unreadable', 'the file is empty');
  let opened;
  try {
    opened = await openImageBytes(bytes, { name: fileName || 'the query image' });
  } catch (e) {
    throw decodeProblem(e);
  }
  const { width, height } = opened.metadata ?? {};
  if (width && height && width * height > DEFAULT_MAX_INPUT_PIXELS) {
    throw refuse('image_too_large', `${width}×${height} is over the ${DEFAULT_MAX_INPUT_PIXELS / 1e6}-megapixel limit`);
  }
  try {
    return await opened.pipeline
      .resize(REDUCED_SHORT_SIDE, REDUCED_SHORT_SIDE, { fit: 'outside', withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch (e) {
    throw decodeProblem(e);
  }
}

function decodeProblem(e: unknown): Invalid {
  const detail = e instanceof MediaDecodeError ? e.detail : e instanceof Error ? e.message : String(e);
  if (/pixel limit|exceeds the .*-pixel limit|too-large|too large/i.test(detail)) return refuse('image_too_large', `the image is too large (${detail})`);
  return refuse('image_unreadable', `not an image this server can read (${detail})`);
}
