/**
 * Which remote files a run fetches, by name, before it spends a download on them. Detection by content
 * (adapters/media/detect.ts) still decides what a fetched file is: a PNG named .jpg is a PNG. The name only
 * spares the household's bandwidth: a NAS folder holds documents, archives and app data beside the photos, and
 * fetching a 4 GB disk image to learn it is not a photo would be a waste. Files with no extension are fetched
 * (phones and some exports name files without one).
 */
import path from 'node:path';

/** Photos, RAW, videos and audio Hearth reads (the reference's list, with more RAW formats and live-photo videos). */
const MEDIA_EXTENSIONS = new Set(
  [
    'jpg jpeg jpe jfif png gif webp bmp tif tiff heic heif hif avif',
    '3fr arw cr2 cr3 crw dcr dng erf iiq kdc mos mrw nef nrw orf pef raf rw2 rwl sr2 srf srw x3f',
    'mp4 mov m4v avi mkv webm flv wmv mpeg mpg mts m2ts 3gp 3g2 ogv',
    'mp3 aac m4a wav flac ogg oga opus aiff wma',
  ]
    .join(' ')
    .split(' '),
);

/** Whether a file of this name may be a photo, video or audio file worth fetching. */
export function mayBeMedia(name: string): boolean {
  const ext = path.extname(name).slice(1).toLowerCase();
  return ext === '' || MEDIA_EXTENSIONS.has(ext);
}

/**
 * Why a name from a remote source cannot be used, or null when it can. Sources are strangers: a server can
 * send `../../etc/passwd`, NUL or terminal escapes in a name. Providers refuse such names already
 * (adapters/cloud/provider.ts); this is the feature's own check, whatever the provider.
 */
export function badRemoteName(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return 'The file has no usable name.';
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The name holds control characters.';
  if (/[\\/]/.test(name)) return 'The name holds a path separator.';
  return null;
}
