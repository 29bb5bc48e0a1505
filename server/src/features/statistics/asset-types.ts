/**
 * The asset types Hearth catalogs and the file formats behind each, as recognised by content in
 * adapters/media/detect.ts (the extension only tells TIFF-based RAWs apart). Keep the two in step:
 * test/server/statistics/statistics.test.ts checks corpus files of every type against this list.
 */
export type AssetType = 'PHOTO' | 'VIDEO' | 'AUDIO';

export interface FormatInfo {
  type: AssetType;
  name: string;
  /** Usual file name extensions, lower case, without the dot. */
  extensions: string[];
  mime_types: string[];
  /** A camera RAW (shown through its embedded preview; paired with a same-name JPEG when present). */
  raw: boolean;
}

export const ASSET_TYPES: AssetType[] = ['PHOTO', 'VIDEO', 'AUDIO'];

const photo = (name: string, extensions: string[], mime_types: string[], raw = false): FormatInfo => ({ type: 'PHOTO', name, extensions, mime_types, raw });
const video = (name: string, extensions: string[], mime_types: string[]): FormatInfo => ({ type: 'VIDEO', name, extensions, mime_types, raw: false });
const audio = (name: string, extensions: string[], mime_types: string[]): FormatInfo => ({ type: 'AUDIO', name, extensions, mime_types, raw: false });

export const FORMATS: FormatInfo[] = [
  photo('JPEG', ['jpg', 'jpeg', 'jpe'], ['image/jpeg']),
  photo('PNG', ['png'], ['image/png']),
  photo('GIF', ['gif'], ['image/gif']),
  photo('WebP', ['webp'], ['image/webp']),
  photo('TIFF', ['tif', 'tiff'], ['image/tiff']),
  photo('HEIC / HEIF', ['heic', 'heif', 'hif'], ['image/heic', 'image/heif']),
  photo('AVIF', ['avif'], ['image/avif']),
  photo('Canon RAW', ['cr2', 'cr3', 'crw'], ['image/x-canon-cr2', 'image/x-canon-cr3', 'image/x-canon-crw'], true),
  photo('Nikon RAW', ['nef', 'nrw'], ['image/x-nikon-nef', 'image/x-nikon-nrw'], true),
  photo('Sony RAW', ['arw', 'srf', 'sr2'], ['image/x-sony-arw', 'image/x-sony-srf', 'image/x-sony-sr2'], true),
  photo('Adobe DNG', ['dng'], ['image/x-adobe-dng'], true),
  photo('Olympus RAW', ['orf'], ['image/x-olympus-orf'], true),
  photo('Panasonic RAW', ['rw2'], ['image/x-panasonic-rw2'], true),
  photo('Pentax RAW', ['pef'], ['image/x-pentax-pef'], true),
  photo('Fujifilm RAW', ['raf'], ['image/x-fujifilm-raf'], true),
  photo('Samsung RAW', ['srw'], ['image/x-samsung-srw'], true),
  photo('Hasselblad RAW', ['3fr'], ['image/x-hasselblad-3fr'], true),
  photo('Phase One RAW', ['iiq'], ['image/x-phaseone-iiq'], true),
  photo('Epson RAW', ['erf'], ['image/x-epson-erf'], true),
  photo('Kodak RAW', ['kdc', 'dcr'], ['image/x-kodak-kdc', 'image/x-kodak-dcr'], true),
  photo('Leaf RAW', ['mos'], ['image/x-leaf-mos'], true),
  video('MPEG-4', ['mp4', 'm4v'], ['video/mp4', 'video/x-m4v']),
  video('QuickTime', ['mov', 'qt'], ['video/quicktime']),
  video('3GPP', ['3gp', '3g2'], ['video/3gpp', 'video/3gpp2']),
  video('Matroska / WebM', ['mkv', 'webm'], ['video/x-matroska', 'video/webm']),
  video('AVI', ['avi'], ['video/x-msvideo']),
  video('MPEG transport stream (AVCHD)', ['mts', 'm2ts', 'ts'], ['video/mp2t']),
  video('Ogg Theora', ['ogv'], ['video/ogg']),
  audio('MP3', ['mp3'], ['audio/mpeg']),
  audio('AAC / M4A', ['m4a', 'm4b', 'aac'], ['audio/mp4', 'audio/aac']),
  audio('FLAC', ['flac'], ['audio/flac']),
  audio('WAV', ['wav'], ['audio/wav']),
  audio('Ogg Vorbis / Opus', ['ogg', 'oga', 'opus'], ['audio/ogg']),
];
