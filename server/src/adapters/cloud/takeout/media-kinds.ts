/**
 * Which files of a Takeout export are photos and videos, decided by extension (the archive is read before any
 * byte of the file is: content sniffing happens later, in the intake). Files Takeout writes about the export
 * itself (sidecars, album metadata, the archive browser page) are not media and not worth a word; any other file
 * under the Photos folder is one a person might miss, so it is reported as skipped.
 */
import path from 'node:path';

export type MediaKind = 'photo' | 'video';

const PHOTO_EXTENSIONS = new Set([
  'jpg', 'jpeg', 'jpe', 'jfif', 'png', 'gif', 'webp', 'heic', 'heif', 'avif', 'bmp', 'tif', 'tiff', 'jxl',
  // RAW formats Google Photos accepts as uploads.
  'dng', 'cr2', 'cr3', 'crw', 'nef', 'nrw', 'arw', 'srf', 'sr2', 'orf', 'rw2', 'raf', 'pef', 'srw', 'x3f', '3fr',
  'erf', 'kdc', 'mrw', 'raw', 'rwl', 'iiq', 'mos',
]);

const VIDEO_EXTENSIONS = new Set([
  'mp4', 'm4v', 'mov', 'qt', '3gp', '3g2', 'avi', 'mkv', 'webm', 'mts', 'm2ts', 'ts', 'mpg', 'mpeg', 'wmv', 'flv',
  'asf', 'divx', 'vob',
  // The video half of a Pixel motion photo (`PXL_….MP` beside `PXL_….MP.jpg`).
  'mp',
]);

/** Export bookkeeping, never media: not reported when skipped. */
const BOOKKEEPING_EXTENSIONS = new Set(['json', 'html', 'htm', 'css', 'js']);

export function extensionOf(name: string): string {
  return path.posix.extname(name).slice(1).toLowerCase();
}

export function mediaKindOf(name: string): MediaKind | null {
  const ext = extensionOf(name);
  if (PHOTO_EXTENSIONS.has(ext)) return 'photo';
  if (VIDEO_EXTENSIONS.has(ext)) return 'video';
  return null;
}

export function isBookkeeping(name: string): boolean {
  return BOOKKEEPING_EXTENSIONS.has(extensionOf(name)) || name.startsWith('.');
}
