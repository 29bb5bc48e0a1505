/**
 * Query images (dropped or picked for "search by image"), held in this tab's memory only and named
 * by a short key that goes in the address (search-url.ts). Never written to storage: a household's
 * photo used as a query is sent to the server (which embeds and discards it) and forgotten when the
 * tab closes. A few are kept so that Back to an earlier image search still has its image.
 */

const KEEP = 5;
const images = new Map<string, File>();
let counter = 0;

export function holdQueryImage(file: File): string {
  counter += 1;
  const key = `${Date.now().toString(36)}${counter.toString(36)}`;
  images.set(key, file);
  while (images.size > KEEP) images.delete(images.keys().next().value!);
  return key;
}

export function queryImage(key: string): File | undefined {
  return images.get(key);
}

/** A file the browser says is an image (HEIC and RAW often come without a type: the server decides those). */
export function looksLikeImage(file: File): boolean {
  if (file.type.startsWith('image/')) return true;
  return file.type === '' && /\.(heic|heif|avif|dng|nef|cr2|cr3|arw|orf|rw2|raf|jpe?g|png|webp|gif|tiff?)$/i.test(file.name);
}
