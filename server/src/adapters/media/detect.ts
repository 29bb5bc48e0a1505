/**
 * File type detection from content ("magic bytes"), never from the name alone.
 *
 * Why: household folders hold PNGs saved as .jpg, HEICs renamed to .jpg by a phone's "compatible" export, and
 * the odd text file with a photo extension. Trusting the extension sends such a file down the wrong decoder,
 * so the extension is used only where the content cannot tell formats apart: TIFF-based camera RAWs (NEF, ARW,
 * PEF, ... are plain TIFF containers; CR2, ORF, RW2 and DNG carry their own marks and are detected by content).
 *
 * Coverage: JPEG, PNG, GIF, WebP, TIFF, HEIC/HEIF/AVIF (ISO-BMFF ftyp brands), RAW (CR2, CR3, CRW, NEF, NRW,
 * ARW, SRF, SR2, DNG, ORF, RW2, PEF, RAF, SRW, 3FR, IIQ, ERF, KDC, DCR, MOS), MP4/MOV/M4V/3GP/3G2 (ftyp, or a
 * bare QuickTime atom), MKV/WebM (EBML DocType), AVI, MPEG-TS/M2TS (AVCHD .mts), and audio MP3, M4A, AAC
 * (ADTS), FLAC, WAV, OGG (Vorbis/Opus/FLAC; Theora is video). Anything else (text, garbage, documents) is null.
 *
 * Limits: an ISO-BMFF file whose brand says "video container" but holds only audio is reported as video (only
 * a probe can tell); the ingest's ffprobe step corrects that.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export type MediaKind = 'photo' | 'video' | 'audio';

export interface DetectedType {
  kind: MediaKind;
  mime: string;
  /** Canonical extension for the content, lower case, no dot (what the file *should* be called). */
  ext: string;
  isRaw: boolean;
}

/** Bytes read from the start of a file: enough for any ftyp brand list, EBML header and TIFF IFD0. */
export const DETECT_HEAD_BYTES = 4096;

const photo = (mime: string, ext: string, isRaw = false): DetectedType => ({ kind: 'photo', mime, ext, isRaw });
const video = (mime: string, ext: string): DetectedType => ({ kind: 'video', mime, ext, isRaw: false });
const audio = (mime: string, ext: string): DetectedType => ({ kind: 'audio', mime, ext, isRaw: false });

/** TIFF-container RAW formats that can only be told apart by extension. */
const TIFF_RAW_BY_EXT: Record<string, string> = {
  nef: 'image/x-nikon-nef',
  nrw: 'image/x-nikon-nrw',
  arw: 'image/x-sony-arw',
  srf: 'image/x-sony-srf',
  sr2: 'image/x-sony-sr2',
  dng: 'image/x-adobe-dng',
  pef: 'image/x-pentax-pef',
  cr2: 'image/x-canon-cr2',
  srw: 'image/x-samsung-srw',
  '3fr': 'image/x-hasselblad-3fr',
  iiq: 'image/x-phaseone-iiq',
  erf: 'image/x-epson-erf',
  kdc: 'image/x-kodak-kdc',
  dcr: 'image/x-kodak-dcr',
  mos: 'image/x-leaf-mos',
};

function ascii(b: Uint8Array, start: number, len: number): string {
  let s = '';
  for (let i = start; i < start + len && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

function startsWith(b: Uint8Array, bytes: number[], at = 0): boolean {
  if (b.length < at + bytes.length) return false;
  return bytes.every((v, i) => b[at + i] === v);
}

function u32be(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

function extOf(fileName: string | undefined): string {
  return fileName ? path.extname(fileName).slice(1).toLowerCase() : '';
}

/** ISO-BMFF: major brand + compatible brands from a leading ftyp box. */
function ftypBrands(b: Uint8Array): { major: string; brands: Set<string> } | null {
  if (b.length < 16 || ascii(b, 4, 4) !== 'ftyp') return null;
  const size = u32be(b, 0);
  if (size < 16 || size > 4096) return null;
  const major = ascii(b, 8, 4);
  const brands = new Set<string>([major]);
  for (let at = 16; at + 4 <= Math.min(size, b.length); at += 4) brands.add(ascii(b, at, 4));
  return { major, brands };
}

function fromFtyp(b: Uint8Array): DetectedType | null {
  const f = ftypBrands(b);
  if (!f) return null;
  const { major, brands } = f;
  if (major === 'crx ') return photo('image/x-canon-cr3', 'cr3', true);
  // Still images. The major brand decides first; a generic 'mif1'/'msf1' major looks at the compatible list.
  if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(major)) return photo('image/heic', 'heic');
  if (major === 'avif' || major === 'avis') return photo('image/avif', 'avif');
  if (major === 'mif1' || major === 'msf1') {
    if (brands.has('heic') || brands.has('heix') || brands.has('hevc')) return photo('image/heic', 'heic');
    if (brands.has('avif') || brands.has('avis')) return photo('image/avif', 'avif');
    return photo('image/heif', 'heif');
  }
  // Audio-only brands.
  if (major === 'M4A ' || major === 'M4B ' || major === 'M4P ' || major === 'F4A ') return audio('audio/mp4', 'm4a');
  // Video containers.
  if (major === 'qt  ') return video('video/quicktime', 'mov');
  if (major.startsWith('M4V')) return video('video/x-m4v', 'm4v');
  if (major.startsWith('3g2')) return video('video/3gpp2', '3g2');
  if (major.startsWith('3gp') || major.startsWith('3gg') || major.startsWith('3ge')) return video('video/3gpp', '3gp');
  const mp4Brands = ['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'MSNV', 'XAVC', 'f4v ', 'mmp4', 'NDAS', 'CAEP', 'kddi'];
  if (mp4Brands.includes(major)) return video('video/mp4', 'mp4');
  // Unknown major brand: decide by what it declares compatibility with.
  if (brands.has('qt  ')) return video('video/quicktime', 'mov');
  if ([...brands].some((x) => mp4Brands.includes(x))) return video('video/mp4', 'mp4');
  return null;
}

/** Old QuickTime files start with a bare atom instead of ftyp. */
function isBareQuickTime(b: Uint8Array): boolean {
  if (b.length < 12) return false;
  const type = ascii(b, 4, 4);
  if (!['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'].includes(type)) return false;
  const size = u32be(b, 0);
  if (size !== 1 && size < 8) return false;
  // The next atom (when it is in the buffer) must look like an atom too; this keeps random bytes out.
  if (size >= 8 && size + 8 <= b.length) return /^[a-z ]{4}$/.test(ascii(b, size + 4, 4));
  return true;
}

/** EBML (Matroska/WebM): read the DocType element from the header. */
function ebmlDocType(b: Uint8Array): string | null {
  if (!startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  const limit = Math.min(b.length - 3, 64);
  for (let i = 4; i < limit; i++) {
    if (b[i] === 0x42 && b[i + 1] === 0x82) {
      const lenByte = b[i + 2]!;
      if (lenByte & 0x80) return ascii(b, i + 3, lenByte & 0x7f).replace(/\0+$/, '');
      return null;
    }
  }
  return 'matroska';
}

/** TIFF: IFD0 entries, to find the DNGVersion tag (0xC612) that marks a DNG whatever its name. */
function tiffHasTag(b: Uint8Array, tag: number): boolean {
  const le = b[0] === 0x49;
  const u16 = (at: number) => (le ? b[at]! | (b[at + 1]! << 8) : (b[at]! << 8) | b[at + 1]!);
  const u32 = (at: number) => (le ? (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0 : u32be(b, at));
  if (b.length < 8) return false;
  const ifd = u32(4);
  if (ifd + 2 > b.length) return false;
  const n = u16(ifd);
  for (let i = 0; i < n && ifd + 2 + i * 12 + 2 <= b.length; i++) if (u16(ifd + 2 + i * 12) === tag) return true;
  return false;
}

function fromTiff(b: Uint8Array, ext: string): DetectedType | null {
  const le = startsWith(b, [0x49, 0x49, 0x2a, 0x00]);
  const be = startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]);
  if (!le && !be) return null;
  if (le && ascii(b, 8, 2) === 'CR') return photo('image/x-canon-cr2', 'cr2', true);
  if (tiffHasTag(b, 0xc612)) return photo('image/x-adobe-dng', 'dng', true);
  const rawMime = TIFF_RAW_BY_EXT[ext];
  if (rawMime) return photo(rawMime, ext, true);
  return photo('image/tiff', 'tiff');
}

const MP3_KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * An MPEG audio frame header at `at` (MP3 = layer III, or AAC in ADTS framing) with plausible fields, and the
 * frame's length so the caller can look for the next one. Random bytes starting 0xFF match a single header
 * now and then; two consecutive frames almost never.
 */
function mpegAudioFrame(b: Uint8Array, at: number): { type: 'mp3' | 'aac'; length: number } | null {
  if (b.length < at + 7 || b[at] !== 0xff || (b[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = (b[at + 1]! >> 3) & 3;
  const layer = (b[at + 1]! >> 1) & 3;
  if (layer === 0) {
    // ADTS: 12-bit sync, MPEG-4/2 id, layer 00; sampling index 0..12; 13-bit frame length.
    if ((b[at + 1]! & 0xf6) !== 0xf0) return null;
    const sf = (b[at + 2]! >> 2) & 0xf;
    const length = ((b[at + 3]! & 0x03) << 11) | (b[at + 4]! << 3) | (b[at + 5]! >> 5);
    return sf <= 12 && length >= 7 ? { type: 'aac', length } : null;
  }
  if (version === 1 || layer !== 1) return null; // reserved version; only layer III counts as MP3
  const bitrateIdx = b[at + 2]! >> 4;
  const rateIdx = (b[at + 2]! >> 2) & 3;
  if (bitrateIdx === 0 || bitrateIdx === 15 || rateIdx === 3) return null;
  const kbps = (version === 3 ? MP3_KBPS_V1 : MP3_KBPS_V2)[bitrateIdx]!;
  const rate = MP3_RATES[version]![rateIdx]!;
  const padding = (b[at + 2]! >> 1) & 1;
  const length = Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + padding;
  return { type: 'mp3', length };
}

/** A frame at `at` followed by a second one (when the buffer reaches that far). */
function mpegAudioStream(b: Uint8Array, at: number): 'mp3' | 'aac' | null {
  const first = mpegAudioFrame(b, at);
  if (!first) return null;
  const next = at + first.length;
  if (next + 7 > b.length) return first.type; // cannot check further inside the head we read
  const second = mpegAudioFrame(b, next);
  return second && second.type === first.type ? first.type : null;
}

function fromAudio(b: Uint8Array): DetectedType | null {
  if (ascii(b, 0, 4) === 'fLaC') return audio('audio/flac', 'flac');
  if (ascii(b, 0, 3) === 'ID3' && b.length >= 10) {
    // ID3v2 tag, then the first frame; sizes are syncsafe (7 bits per byte).
    const tagSize = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
    const frame = mpegAudioFrame(b, 10 + tagSize);
    return frame?.type === 'aac' ? audio('audio/aac', 'aac') : audio('audio/mpeg', 'mp3');
  }
  const stream = mpegAudioStream(b, 0);
  if (stream) return stream === 'mp3' ? audio('audio/mpeg', 'mp3') : audio('audio/aac', 'aac');
  if (ascii(b, 0, 4) === 'OggS') {
    const head = ascii(b, 28, 8);
    if (head.startsWith('\x80theora')) return video('video/ogg', 'ogv');
    return audio('audio/ogg', head.startsWith('OpusHead') ? 'opus' : 'ogg');
  }
  return null;
}

/** MPEG transport stream: 0x47 sync every 188 bytes (TS) or every 192 after a 4-byte timecode (M2TS/AVCHD). */
function fromTransportStream(b: Uint8Array): DetectedType | null {
  const synced = (first: number, stride: number) => {
    let n = 0;
    for (let at = first; at < b.length; at += stride, n++) if (b[at] !== 0x47) return false;
    return n >= 4;
  };
  if (synced(0, 188)) return video('video/mp2t', 'ts');
  if (synced(4, 192)) return video('video/mp2t', 'm2ts');
  return null;
}

/**
 * Detect from the first bytes of a file. `fileName` is only consulted for TIFF-container RAWs.
 * Returns null for anything that is not a supported photo, video or audio format.
 */
export function detectBytes(head: Uint8Array, fileName?: string): DetectedType | null {
  const b = head;
  const ext = extOf(fileName);
  if (b.length < 4) return null;
  if (startsWith(b, [0xff, 0xd8, 0xff])) return photo('image/jpeg', 'jpg');
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return photo('image/png', 'png');
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return photo('image/gif', 'gif');
  if (ascii(b, 0, 4) === 'RIFF' && b.length >= 12) {
    const form = ascii(b, 8, 4);
    if (form === 'WEBP') return photo('image/webp', 'webp');
    if (form === 'AVI ') return video('video/x-msvideo', 'avi');
    if (form === 'WAVE') return audio('audio/wav', 'wav');
    return null;
  }
  if (ascii(b, 0, 15) === 'FUJIFILMCCD-RAW') return photo('image/x-fujifilm-raf', 'raf', true);
  if (startsWith(b, [0x49, 0x49, 0x1a, 0x00, 0x00, 0x00]) && ascii(b, 6, 8) === 'HEAPCCDR') {
    return photo('image/x-canon-crw', 'crw', true);
  }
  // Olympus ORF ("IIRO"/"IIRS"/"MMOR") and Panasonic RW2 ("IIU\0") are TIFF with their own magic number.
  if (['IIRO', 'IIRS', 'MMOR'].includes(ascii(b, 0, 4))) return photo('image/x-olympus-orf', 'orf', true);
  if (startsWith(b, [0x49, 0x49, 0x55, 0x00])) return photo('image/x-panasonic-rw2', 'rw2', true);
  const tiff = fromTiff(b, ext);
  if (tiff) return tiff;
  const bmff = fromFtyp(b);
  if (bmff) return bmff;
  if (isBareQuickTime(b)) return video('video/quicktime', 'mov');
  const doc = ebmlDocType(b);
  if (doc) return doc === 'webm' ? video('video/webm', 'webm') : video('video/x-matroska', 'mkv');
  return fromAudio(b) ?? fromTransportStream(b);
}

/** Detect a file's type from its first bytes (its name only breaks ties between TIFF-based RAWs). */
export async function detect(filePath: string): Promise<DetectedType | null> {
  const fh = await fs.open(filePath, 'r');
  try {
    const head = new Uint8Array(DETECT_HEAD_BYTES);
    const { bytesRead } = await fh.read(head, 0, DETECT_HEAD_BYTES, 0);
    return detectBytes(head.subarray(0, bytesRead), filePath);
  } finally {
    await fh.close();
  }
}

/** A type detected earlier is still the file's when the catalog row says the same MIME type. */
export function stillDetected(type: DetectedType | null | undefined, mime: string | null | undefined): DetectedType | null {
  return type && mime && type.mime === mime ? type : null;
}
