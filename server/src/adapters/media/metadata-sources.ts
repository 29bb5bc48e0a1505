/**
 * Read a photo's metadata blocks (EXIF IFD0/Exif/GPS, IPTC, XMP, Apple MakerNote) from whatever container it
 * is in, as plain tag → value maps. photo-metadata.ts turns these into our fields.
 *
 * exifr does the EXIF/IPTC/XMP parsing; this file decides what to hand it:
 *   - JPEG, PNG, WebP, TIFF and TIFF-based RAWs: the bytes exifr reads from them, and only those
 *     (metadata-bytes.ts; see readWithExifr for why not the path).
 *   - HEIF/HEIC/AVIF: our own box parser finds the Exif and XMP items (bmff.ts), exifr parses the TIFF inside.
 *   - CR3: the CMT1 (IFD0), CMT2 (Exif) and CMT4 (GPS) boxes are TIFF blocks; each is read with our IFD reader
 *     and named with exifr's tag dictionaries.
 *   - RAF: the embedded JPEG carries the EXIF (its metadata segments are read, not the whole JPEG); without
 *     it, make and model from the RAF header.
 *   - CRW (Canon CIFF): its own records (ciff.ts).
 * The file is opened once and read with positioned reads; nothing here reads a whole file.
 * Options are chosen for correctness: reviveValues off (dates stay strings, see capture-time.ts), translateValues
 * off (Orientation stays 6 instead of "Rotate 90 CW"), XMP read as text and parsed separately so that XMP
 * namespaces ("exif", "tiff") cannot collide with the EXIF blocks of the same name.
 */
import fs from 'node:fs/promises';
import exifr from 'exifr';
import { bufferSource, openFileSource, type ByteSource } from './byte-source.ts';
import { readCiff } from './ciff.ts';
import { readCr3Parts, readHeifMetadataItems } from './bmff.ts';
import type { DetectedType } from './detect.ts';
import { jpegMetadataBytes, metadataBytes, type MetadataBytes } from './metadata-bytes.ts';
import { TiffReader } from './tiff-ifd.ts';

export type TagBlock = Record<string, unknown>;

export interface MetadataSources {
  ifd0: TagBlock;
  exif: TagBlock;
  gps: TagBlock;
  interop: TagBlock;
  iptc: TagBlock;
  /** XMP by canonical namespace prefix (xmp, dc, photoshop, exif, aux, exifEX, MicrosoftPhoto, ...). */
  xmp: Record<string, TagBlock>;
  makerNote?: Uint8Array;
  /** Problems met while reading; the data that could be read is still returned. */
  warnings: string[];
}

const EXIFR_OPTIONS = {
  tiff: true,
  ifd0: {},
  ifd1: false,
  exif: true,
  gps: true,
  interop: true,
  makerNote: true,
  userComment: false,
  xmp: { parse: false, multiSegment: true },
  iptc: true,
  icc: false,
  jfif: false,
  ihdr: false,
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  sanitize: true,
  mergeOutput: false,
  silentErrors: true,
} as const;

/** Canonical prefixes by namespace URI: files use "xap" or "xmp", "exif" or "exifEX" interchangeably. */
const XMP_NAMESPACES: Record<string, string> = {
  'http://ns.adobe.com/xap/1.0/': 'xmp',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://ns.adobe.com/photoshop/1.0/': 'photoshop',
  'http://ns.adobe.com/exif/1.0/': 'exif',
  'http://ns.adobe.com/exif/1.0/aux/': 'aux',
  'http://cipa.jp/exif/1.0/': 'exifEX',
  'http://ns.adobe.com/tiff/1.0/': 'tiff',
  'http://ns.microsoft.com/photo/1.0/': 'MicrosoftPhoto',
  'http://ns.microsoft.com/photo/1.0': 'MicrosoftPhoto',
  'http://ns.adobe.com/lightroom/1.0/': 'lr',
  'http://ns.google.com/photos/1.0/camera/': 'GCamera',
  'http://ns.google.com/photos/1.0/container/': 'Container',
  'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/': 'Iptc4xmpCore',
};

function emptySources(): MetadataSources {
  return { ifd0: {}, exif: {}, gps: {}, interop: {}, iptc: {}, xmp: {}, warnings: [] };
}

const isBlock = (v: unknown): v is TagBlock => !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Long enough to say what failed; exifr quotes a whole failed block's values in its message. */
const MAX_WARNING_CHARS = 300;

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.length > MAX_WARNING_CHARS ? `${text.slice(0, MAX_WARNING_CHARS)}…` : text;
}

/** Parse an XMP packet (bytes) into namespace blocks with canonical prefixes. */
export async function parseXmpPacket(packet: Uint8Array | string, warnings: string[]): Promise<Record<string, TagBlock>> {
  try {
    const bytes = typeof packet === 'string' ? Buffer.from(packet, 'utf8') : Buffer.from(packet);
    const parsed = (await exifr.sidecar(bytes, { mergeOutput: false, reviveValues: false }, 'xmp')) as Record<string, unknown> | undefined;
    if (!parsed) return {};
    const xmlns = isBlock(parsed.xmlns) ? (parsed.xmlns as Record<string, string>) : {};
    const out: Record<string, TagBlock> = {};
    for (const [prefix, block] of Object.entries(parsed)) {
      if (prefix === 'xmlns' || !isBlock(block)) continue;
      const uri = xmlns[prefix];
      const canonical = (uri && XMP_NAMESPACES[uri]) || (prefix === 'xap' ? 'xmp' : prefix);
      out[canonical] = { ...(out[canonical] ?? {}), ...block };
    }
    return out;
  } catch (e) {
    warnings.push(`xmp: ${errorText(e)}`);
    return {};
  }
}

/** Merge one exifr result into the sources; returns whether it held any EXIF/IPTC/XMP data. */
async function absorb(out: MetadataSources, result: unknown): Promise<boolean> {
  if (!isBlock(result)) return false;
  let any = false;
  for (const key of ['ifd0', 'exif', 'gps', 'interop', 'iptc'] as const) {
    const block = result[key];
    if (isBlock(block) && Object.keys(block).length) {
      out[key] = { ...out[key], ...block };
      any = true;
    }
  }
  const mn = (result.exif as TagBlock | undefined)?.MakerNote ?? result.makerNote;
  if (mn instanceof Uint8Array) out.makerNote = mn;
  if (typeof result.xmp === 'string' && result.xmp.trim()) {
    out.xmp = { ...out.xmp, ...(await parseXmpPacket(result.xmp, out.warnings)) };
    any = true;
  }
  if (Array.isArray(result.errors)) for (const e of result.errors) out.warnings.push(`exifr: ${errorText(e)}`);
  return any;
}

/** The blocks exifr can lose at once: IFD0/Exif/GPS/Interop are always read, each of these on its own. */
const OPTIONAL_BLOCKS = { xmp: EXIFR_OPTIONS.xmp, iptc: true, makerNote: true } as const;
const CORE_OPTIONS = { ...EXIFR_OPTIONS, xmp: false, iptc: false, makerNote: false };

async function exifrParse(input: Buffer, options: object): Promise<unknown> {
  try {
    return await exifr.parse(input, options);
  } catch (e) {
    return { errors: [e] };
  }
}

/** exifr reports errors (undefined alone means the file has no such metadata, which is no failure). */
const failed = (result: unknown) => isBlock(result) && Array.isArray(result.errors) && result.errors.length > 0;

/**
 * exifr gives up on the whole file when one block fails (silentErrors then returns only `errors`): the IPTC
 * block of a Nikon Capture NEF (stored as LONGs) cost the D70's make, model and date. So after a failed read
 * the blocks are read again apart, the core EXIF IFDs first and each optional block with them, and whatever
 * reads is kept: a block exifr cannot parse costs that block only (and a warning), never the camera or date.
 */
async function parseWithExifr(input: Uint8Array, out: MetadataSources): Promise<boolean> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const whole = await exifrParse(bytes, EXIFR_OPTIONS);
  // What the failed read did return (exifr keeps some blocks on some errors) is kept, with its errors.
  let any = await absorb(out, whole);
  if (!failed(whole)) return any;
  any = (await absorb(out, await exifrParse(bytes, CORE_OPTIONS))) || any;
  for (const [block, option] of Object.entries(OPTIONAL_BLOCKS)) {
    const one = await exifrParse(bytes, { ...CORE_OPTIONS, [block]: option });
    if (!failed(one)) any = (await absorb(out, one)) || any;
    else if (block === 'iptc' && (await absorb(out, await exifrParse(await iptcOfTiff(bytes), IPTC_ONLY)))) any = true;
    else out.warnings.push(`exifr: the ${block} block could not be read`);
  }
  return any;
}

const TAG_IPTC = 0x83bb;
const IPTC_ONLY = { ...CORE_OPTIONS, tiff: false, ifd0: false, exif: false, gps: false, interop: false, iptc: true };

/**
 * The IPTC block of a TIFF (tag 0x83BB), wrapped as exifr reads it from a JPEG (APP13, Photoshop resource
 * 0x0404). exifr fails on this tag when it is typed LONG, as Photoshop and Nikon Capture write it; the IIM
 * bytes inside are the same whatever the type says. An empty buffer when there is none.
 */
async function iptcOfTiff(tiffBytes: Uint8Array): Promise<Buffer> {
  const tiff = await TiffReader.open(bufferSource(tiffBytes));
  const ifd = tiff && (await tiff.readIfd(tiff.firstIfd));
  const iim = tiff && ifd ? await tiff.bytes(ifd.entries.get(TAG_IPTC), 1024 * 1024) : undefined;
  if (!iim?.length) return Buffer.alloc(0);
  const resource = Buffer.alloc(12 + iim.length + (iim.length % 2));
  resource.write('8BIM', 0, 'latin1');
  resource.writeUInt16BE(0x0404, 4);
  resource.writeUInt32BE(iim.length, 8);
  resource.set(iim, 12);
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  if (payload.length + 2 > 0xffff) return Buffer.alloc(0);
  const segment = Buffer.from([0xff, 0xd8, 0xff, 0xed, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([segment, payload, Buffer.from([0xff, 0xd9])]);
}

/** Tags of a standalone TIFF block (CR3 CMTn), named with exifr's dictionary for that IFD kind. */
async function readTiffBlock(bytes: Uint8Array, dictionary: 'ifd0' | 'exif' | 'gps'): Promise<TagBlock> {
  const tiff = await TiffReader.open(bufferSource(bytes));
  const ifd = tiff && (await tiff.readIfd(tiff.firstIfd));
  if (!tiff || !ifd) return {};
  const names = exifr.tagKeys.get(dictionary);
  const out: TagBlock = {};
  for (const entry of ifd.entries.values()) {
    const name = names?.get(entry.tag) ?? `0x${entry.tag.toString(16).padStart(4, '0')}`;
    if (entry.type === 2) out[name] = await tiff.string(entry);
    else if (entry.type === 7) out[name] = await tiff.bytes(entry, 64 * 1024);
    else {
      const values = await tiff.numbers(entry, 64);
      out[name] = values.length === 1 ? values[0] : values;
    }
  }
  return out;
}

async function readCr3(src: ByteSource, out: MetadataSources): Promise<void> {
  const parts = await readCr3Parts(src);
  if (parts.cmt[1]) out.ifd0 = await readTiffBlock(parts.cmt[1], 'ifd0');
  if (parts.cmt[2]) out.exif = await readTiffBlock(parts.cmt[2], 'exif');
  if (parts.cmt[4]) out.gps = await readTiffBlock(parts.cmt[4], 'gps');
  if (parts.xmp) out.xmp = await parseXmpPacket(parts.xmp, out.warnings);
}

async function readHeif(src: ByteSource, out: MetadataSources): Promise<void> {
  const items = await readHeifMetadataItems(src);
  if (items.exif) await parseWithExifr(items.exif, out);
  else out.warnings.push('heif: no Exif item');
  if (items.xmp) out.xmp = { ...out.xmp, ...(await parseXmpPacket(items.xmp, out.warnings)) };
}

async function readRaf(src: ByteSource, out: MetadataSources): Promise<void> {
  const h = await src.read(84, 8);
  const v = h.length === 8 ? new DataView(h.buffer, h.byteOffset, 8) : null;
  const [offset, length] = v ? [v.getUint32(0), v.getUint32(4)] : [0, 0];
  if (offset > 0 && length > 0 && offset + length <= src.size) await parseMetadataBytes(await jpegMetadataBytes(src, offset, length), out);
  else out.warnings.push('raf: no embedded JPEG');
  // The EXIF lives in the preview JPEG; without it, the camera still names itself in the RAF header (bytes
  // 28..59), so the photo stays in the camera filter. Only the capture time is lost with the preview.
  if (out.ifd0.Make === undefined && out.ifd0.Model === undefined) {
    const model = Buffer.from(await src.read(28, 32)).toString('latin1').split('\0')[0]!.trim();
    if (model) Object.assign(out.ifd0, { Make: 'FUJIFILM', Model: model });
  }
}

/** Canon CRW (CIFF): its records named as the EXIF tags they are (ciff.ts). */
async function readCrw(src: ByteSource, out: MetadataSources): Promise<void> {
  const ciff = await readCiff(src);
  if (!ciff) {
    out.warnings.push('crw: not a CIFF file');
    return;
  }
  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));
  out.ifd0 = defined({ Make: ciff.make, Model: ciff.model, Orientation: ciff.orientation });
  out.exif = defined({ DateTimeOriginal: ciff.dateTimeOriginal, OffsetTimeOriginal: ciff.offsetTime, ExifImageWidth: ciff.width, ExifImageHeight: ciff.height });
}

async function parseMetadataBytes(m: MetadataBytes, out: MetadataSources): Promise<void> {
  if (m.limited) out.warnings.push(`metadata: ${m.limited}`);
  await parseWithExifr(m.bytes, out);
}

/**
 * exifr gets the bytes it will read, never the path: its own chunked file reader leaves file handles open when
 * it meets a damaged file (Node warns "Closing file descriptor on garbage collection"), fails on some valid
 * files (a DNG with a large XMP block: "Invalid typed array length"), and reads the whole file into memory
 * anyway as soon as multi-segment XMP is asked for. Which bytes: metadata-bytes.ts.
 */
async function readWithExifr(src: ByteSource, out: MetadataSources): Promise<void> {
  await parseMetadataBytes(await metadataBytes(src), out);
}

/** All metadata blocks of a photo. Never throws for damaged content; I/O errors on the path itself do. */
export async function readMetadataSources(filePath: string, type: DetectedType | null): Promise<MetadataSources> {
  const out = emptySources();
  const src = await openFileSource(filePath);
  try {
    if (type?.ext === 'cr3') await readCr3(src, out);
    else if (type?.ext === 'raf') await readRaf(src, out);
    else if (type && ['image/heic', 'image/heif', 'image/avif'].includes(type.mime)) await readHeif(src, out);
    else if (type?.ext === 'crw') await readCrw(src, out);
    else await readWithExifr(src, out);
  } catch (e) {
    out.warnings.push(`metadata: ${errorText(e)}`);
  } finally {
    await src.close();
  }
  return out;
}

/** XMP from a sidecar file (IMG_1234.xmp next to IMG_1234.jpg), by canonical namespace. */
export async function readXmpSidecar(sidecarPath: string, warnings: string[]): Promise<Record<string, TagBlock>> {
  try {
    return await parseXmpPacket(await fs.readFile(sidecarPath), warnings);
  } catch (e) {
    warnings.push(`sidecar: ${errorText(e)}`);
    return {};
  }
}
