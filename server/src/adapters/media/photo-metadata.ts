/**
 * Photo metadata for the catalog: camera, exposure, capture time with its zone, GPS, rating, keywords,
 * description, the Live Photo identifier and the displayed size; plus the raw blocks for getAssetExif.
 *
 * Robustness rule: damaged files yield whatever could be read, with `warnings`; this never throws for bad
 * content (a missing file or unreadable path still throws, which is the caller's problem, not the file's).
 *
 * Field decisions:
 *   - taken_time / capture_offset_minutes: see capture-time.ts (UTC instant when the zone is known, else the
 *     camera's wall clock written as UTC with a null offset). Sources in order: EXIF DateTimeOriginal,
 *     EXIF CreateDate, XMP exif:DateTimeOriginal, XMP photoshop:DateCreated, XMP xmp:CreateDate, IPTC
 *     DateCreated+TimeCreated. ModifyDate is never a capture time (an edit a year later is not when it was taken).
 *     The zone comes from the chosen tag's OffsetTime* tag (OffsetTimeOriginal for DateTimeOriginal,
 *     OffsetTimeDigitized for CreateDate, then OffsetTime), then from the string itself (a trailing "Z",
 *     "+hh:mm" or "+hhmm", as DJI and some editors write "2019:04:30 15:56:18.605+00:00", and as XMP dates
 *     always may), then another source with the same wall clock that does carry a zone (Lightroom's XMP
 *     often does), then the GPS clock (capture-time.ts explains the safeguards).
 *     When an OffsetTime* tag and the string's own zone disagree, the OffsetTime* tag wins and the wall clock
 *     stays as written: it is the tag EXIF 2.31 made for the zone, and the one that cameras, phone galleries,
 *     Lightroom and ExifTool change when a person corrects the time zone, while a zone inside the
 *     DateTimeOriginal string is outside the standard (EXIF dates have no zone) and is left stale by those
 *     tools. The disagreement is reported in `warnings`.
 *   - GPS: signed decimal degrees; an empty GPS IFD, NaN rationals, out-of-range values and exactly (0, 0) are
 *     "no location" (0,0 is what broken firmware writes, not a photo taken in the Gulf of Guinea).
 *   - width/height: the displayed size, after orientation. For HEIF the decoder (libheif) applies the
 *     container's irot/imir/clap itself, so the size reported by libheif is already the displayed one and the
 *     EXIF Orientation tag must not be applied a second time (it is still reported, for information).
 *     For RAWs it is the full-resolution size the file declares (not the preview's), oriented.
 *   - rating: 0..5 from XMP xmp:Rating, MicrosoftPhoto:Rating (percent) or EXIF Rating; -1 ("rejected") and
 *     anything else is null.
 *   - description: XMP dc:description, EXIF ImageDescription, IPTC Caption; camera boilerplate such as
 *     "OLYMPUS DIGITAL CAMERA" is dropped.
 *   - content_identifier: Apple MakerNote 0x0011 (apple-makernote.ts), else an XMP ContentIdentifier.
 */
import fs from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';
import './sharp-setup.ts';
import { appleContentIdentifier } from './apple-makernote.ts';
import { offsetFromGpsClock, parseIptcDateTime, parseOffset, parseWallClock, toTakenTime, type WallClock } from './capture-time.ts';
import { detect, type DetectedType } from './detect.ts';
import { toJsonSafe, type JsonValue } from './json-safe.ts';
import { readMetadataSources, readXmpSidecar, type MetadataSources, type TagBlock } from './metadata-sources.ts';
import { swapsAxes } from './orientation.ts';
import { inspectRaw } from './raw-preview.ts';
import { embeddedVideoClaim, motionPhotoClaim, type MotionPhotoClaim } from './motion-photo.ts';
import { stableHead } from './stable-input.ts';

/**
 * How much of the file the image header read (dimensions) looks at: a first try that holds the
 * header of nearly every photo, then a larger one (big APP segments, a TIFF directory further in).
 */
const HEADER_TRIES = [512 * 1024, 16 * 1024 * 1024];

async function headerOf(filePath: string): Promise<Metadata> {
  for (let i = 0; ; i++) {
    const head = await stableHead(filePath, HEADER_TRIES[i]!);
    try {
      return await sharp(head, { limitInputPixels: false }).metadata();
    } catch (e) {
      if (i === HEADER_TRIES.length - 1 || head.length < HEADER_TRIES[i]!) throw e;
    }
  }
}

export interface PhotoMetadata {
  make: string | null;
  model: string | null;
  lens_model: string | null;
  f_number: number | null;
  /** "1/250", or seconds ("2", "0.3") for long exposures. */
  exposure_time: string | null;
  iso_speed: number | null;
  /** Millimetres (actual, not 35 mm equivalent). */
  focal_length: number | null;
  /** EV. */
  exposure_compensation: number | null;
  /** EXIF orientation 1-8 as stored (for HEIF informational only: see the module comment). */
  orientation: number | null;
  /** ISO 8601 UTC; local-naive when capture_offset_minutes is null (see capture-time.ts). */
  taken_time: string | null;
  capture_offset_minutes: number | null;
  /** Which tag gave the offset: 'exif' (OffsetTime*), 'xmp', 'iptc', 'gps' (derived from the GPS clock). */
  capture_offset_source: 'exif' | 'xmp' | 'iptc' | 'gps' | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  /** Metres above sea level (negative below). */
  gps_altitude: number | null;
  description: string | null;
  rating: number | null;
  keywords: string[];
  content_identifier: string | null;
  /** Displayed size (orientation applied). */
  width: number | null;
  height: number | null;
  /** A Samsung/Google motion photo: where its XMP says the embedded video is (motion-photo.ts checks the bytes). */
  motion_photo: MotionPhotoClaim | null;
}

export interface PhotoMetadataResult {
  metadata: PhotoMetadata;
  /** Raw metadata blocks, JSON-safe, for getAssetExif: {ifd0, exif, gps, interop, iptc, xmp: {namespace: {...}}}. */
  exif: Record<string, JsonValue>;
  /** What went wrong while reading (damaged blocks, undecodable image header); empty for healthy files. */
  warnings: string[];
}

export interface PhotoMetadataOptions {
  /** Skip detection when the caller already knows the type. */
  type?: DetectedType | null;
  /** An XMP sidecar whose values take precedence over the embedded XMP (user edits from Lightroom etc.). */
  sidecarPath?: string;
  /**
   * The image header sharp has already read from this file's bytes (image-source.ts `OpenedImage.metadata`,
   * when the caller decodes the photo too, as ingest does), so that the displayed size does not read the file's
   * head and parse the header a second time (a 512 KB read and a libvips header parse per photo: ~1 ms of
   * CPU and as much garbage). Null, rejected or absent: the header is read here. Never used for RAWs, whose
   * size is the sensor's, not the preview's.
   */
  header?: Promise<Metadata | null>;
}

// ---------------------------------------------------------------------------------------------------------------
// Small value helpers

function text(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const s = v.split('\0')[0]!.replace(/\s+/g, ' ').trim();
  return s || null;
}

function num(v: unknown): number | null {
  const x = Array.isArray(v) ? v[0] : typeof v === 'string' ? Number(v) : v;
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** XMP language alternatives come as {lang, value}, arrays of them, or plain strings. */
function xmpText(v: unknown): string | null {
  if (Array.isArray(v)) {
    for (const item of v) {
      const t = xmpText(item);
      if (t) return t;
    }
    return null;
  }
  if (v && typeof v === 'object' && 'value' in v) return text((v as { value: unknown }).value);
  return text(v);
}

function list(v: unknown): string[] {
  const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return items.map((x) => xmpText(x)).filter((x): x is string => !!x);
}

/** Exposure time as photographers write it. */
export function formatExposureTime(seconds: number | null): string | null {
  if (seconds === null || !(seconds > 0)) return null;
  if (seconds >= 1) return String(round(seconds, 1));
  const denominator = 1 / seconds;
  if (Math.abs(denominator - Math.round(denominator)) / denominator < 0.02) return `1/${Math.round(denominator)}`;
  return String(round(seconds, 3));
}

/** Descriptions cameras write by themselves; they say nothing about the photo. */
const BOILERPLATE_DESCRIPTIONS = [
  /^([\w-]+ )*DIGITAL CAMERA$/i, // OLYMPUS / SANYO / KONICA MINOLTA DIGITAL CAMERA
  /^SONY DSC$/i,
  /^SAMSUNG( DIGITAL CAMERA)?$/i,
  /^DCIM\\/i,
  /^default$/i,
  /^(image|photo|picture)$/i,
  /^<?untitled>?$/i,
  /^\s*$/,
];

/** Drop camera boilerplate, including a description that only repeats the make or model. */
function cleanDescription(v: string | null, make: string | null, model: string | null): string | null {
  if (!v) return null;
  if (v === make || v === model) return null;
  return BOILERPLATE_DESCRIPTIONS.some((re) => re.test(v)) ? null : v;
}

// ---------------------------------------------------------------------------------------------------------------
// GPS

function degrees(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (!Array.isArray(v) || v.length === 0) return null;
  const [d, m = 0, s = 0] = v.map(Number);
  const deg = (d ?? NaN) + m / 60 + s / 3600;
  return Number.isFinite(deg) ? deg : null;
}

function refSign(ref: unknown, negative: string): number {
  return typeof ref === 'string' && ref.trim().toUpperCase().startsWith(negative) ? -1 : 1;
}

function gpsFrom(gps: TagBlock): { lat: number | null; lon: number | null; alt: number | null } {
  const rawLat = degrees(gps.GPSLatitude);
  const rawLon = degrees(gps.GPSLongitude);
  let lat = rawLat === null ? null : Math.abs(rawLat) * (rawLat < 0 ? -1 : refSign(gps.GPSLatitudeRef, 'S'));
  let lon = rawLon === null ? null : Math.abs(rawLon) * (rawLon < 0 ? -1 : refSign(gps.GPSLongitudeRef, 'W'));
  if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180 || (lat === 0 && lon === 0)) lat = lon = null;
  let alt = lat === null ? null : num(gps.GPSAltitude);
  if (alt !== null) {
    const ref = gps.GPSAltitudeRef;
    const below = ref instanceof Uint8Array ? ref[0] === 1 : num(ref) === 1;
    alt = round(below ? -Math.abs(alt) : alt, 2);
  }
  return { lat: lat === null ? null : round(lat, 7), lon: lon === null ? null : round(lon, 7), alt };
}

// ---------------------------------------------------------------------------------------------------------------
// Capture time

const TAG_DATE_TIME_ORIGINAL = 0x9003;

interface TimeCandidate extends WallClock {
  source: 'exif' | 'xmp' | 'iptc';
}

function captureTime(s: MetadataSources, warnings: string[]): { taken: string | null; offset: number | null; offsetSource: PhotoMetadata['capture_offset_source'] } {
  const { exif, xmp, iptc, ifd0, gps } = s;
  const candidates: TimeCandidate[] = [];
  /**
   * `offsetTags`: the OffsetTime* tags that go with this date, most specific first; the first valid one
   * counts (a blank "   :  " does not hide the next). It wins over a zone written inside the date string
   * itself (module comment); a disagreement is reported.
   */
  const add = (w: WallClock | null, source: TimeCandidate['source'], offsetTags: unknown[] = [], tagName = '') => {
    if (!w) return;
    const tagged = offsetTags.map(parseOffset).find((o) => o !== null) ?? null;
    if (tagged !== null && w.offsetMinutes !== null && tagged !== w.offsetMinutes) {
      warnings.push(`capture time: the zone written in ${tagName} (${w.offsetMinutes} min) disagrees with its OffsetTime tag (${tagged} min); the OffsetTime tag is used`);
    }
    candidates.push({ ...w, offsetMinutes: tagged ?? w.offsetMinutes, source });
  };
  add(parseWallClock(exif.DateTimeOriginal, exif.SubSecTimeOriginal), 'exif', [exif.OffsetTimeOriginal, exif.OffsetTime, ifd0.OffsetTime], 'DateTimeOriginal');
  add(parseWallClock(exif.CreateDate ?? exif.DateTimeDigitized, exif.SubSecTimeDigitized), 'exif', [exif.OffsetTimeDigitized, exif.OffsetTime], 'CreateDate');
  // TIFF/EP (older Nikon, Kodak and Leaf RAWs) puts DateTimeOriginal in IFD0 itself, where exifr's IFD0
  // dictionary has no name for it.
  add(parseWallClock(ifd0.DateTimeOriginal ?? ifd0[String(TAG_DATE_TIME_ORIGINAL)] ?? ifd0['0x9003']), 'exif', [ifd0.OffsetTimeOriginal, ifd0.OffsetTime], 'DateTimeOriginal');
  add(parseWallClock(xmp.exif?.DateTimeOriginal), 'xmp');
  add(parseWallClock(xmp.photoshop?.DateCreated), 'xmp');
  add(parseWallClock(xmp.xmp?.CreateDate), 'xmp');
  // IPTC IIM requires a zone on TimeCreated, so writers that do not know it put "+0000"; only a non-zero
  // IPTC zone is evidence (two corpus files carry a +0000 that contradicts where they were taken).
  const iptcTime = parseIptcDateTime(iptc.DateCreated, iptc.TimeCreated);
  add(iptcTime && iptcTime.offsetMinutes === 0 ? { ...iptcTime, offsetMinutes: null } : iptcTime, 'iptc');
  const chosen = candidates[0];
  if (!chosen) return { taken: null, offset: null, offsetSource: null };

  let offset = chosen.offsetMinutes;
  let offsetSource: PhotoMetadata['capture_offset_source'] = offset === null ? null : chosen.source;
  if (offset === null) {
    // Same moment written elsewhere with a zone (to the second; sub-seconds often differ between writers).
    const second = chosen.local.slice(0, 19);
    const twin = candidates.find((c) => c.offsetMinutes !== null && c.local.slice(0, 19) === second);
    if (twin) [offset, offsetSource] = [twin.offsetMinutes, twin.source];
  }
  if (offset === null) {
    offset = offsetFromGpsClock(chosen.local, gps.GPSDateStamp, gps.GPSTimeStamp);
    if (offset !== null) offsetSource = 'gps';
  }
  return { taken: toTakenTime(chosen.local, offset), offset, offsetSource };
}

// ---------------------------------------------------------------------------------------------------------------
// Other fields

function ratingFrom(s: MetadataSources): number | null {
  const fromXmp = num(s.xmp.xmp?.Rating);
  const percent = num(s.xmp.MicrosoftPhoto?.Rating) ?? num(s.ifd0.RatingPercent);
  const fromPercent = percent === null ? null : percent <= 0 ? 0 : percent < 13 ? 1 : percent < 38 ? 2 : percent < 63 ? 3 : percent < 88 ? 4 : 5;
  const r = fromXmp ?? num(s.ifd0.Rating) ?? fromPercent;
  return r !== null && Number.isInteger(r) && r >= 0 && r <= 5 ? r : null;
}

function keywordsFrom(s: MetadataSources): string[] {
  const all = [...list(s.xmp.dc?.subject), ...list(s.iptc.Keywords)];
  return [...new Set(all)];
}

function contentIdentifierFrom(s: MetadataSources): string | null {
  const fromMakerNote = appleContentIdentifier(s.makerNote);
  if (fromMakerNote) return fromMakerNote;
  for (const block of Object.values(s.xmp)) {
    const v = text(block.ContentIdentifier ?? block.MediaGroupUUID);
    if (v) return v;
  }
  return null;
}

async function displayedSize(
  filePath: string,
  type: DetectedType | null,
  s: MetadataSources,
  orientation: number | null,
  warnings: string[],
  known: Promise<Metadata | null> | undefined,
): Promise<{ width: number | null; height: number | null }> {
  const oriented = (w: number | null, h: number | null) => (w && h ? (swapsAxes(orientation) ? { width: h, height: w } : { width: w, height: h }) : null);
  if (type?.isRaw) {
    const raw = await inspectRaw(filePath);
    const r = oriented(raw.width, raw.height) ?? oriented(num(s.exif.ExifImageWidth), num(s.exif.ExifImageHeight));
    if (r) return r;
    const p = raw.previews[0];
    return oriented(p?.width ?? null, p?.height ?? null) ?? { width: null, height: null };
  }
  try {
    // Header only: no pixel decode. limitInputPixels off: we only read the numbers here, the decode limit
    // is enforced where pixels are decoded (thumbnails.ts). Bytes, not the path (stable-input.ts), and
    // only the first ones: a header never needs the whole of a huge file.
    const m = (await known?.catch(() => null)) ?? (await headerOf(filePath));
    if (m.format === 'heif') return { width: m.width ?? null, height: m.height ?? null };
    if (m.autoOrient?.width && m.autoOrient.height) return { width: m.autoOrient.width, height: m.autoOrient.height };
  } catch (e) {
    warnings.push(`dimensions: ${e instanceof Error ? e.message : String(e)}`);
  }
  return oriented(num(s.exif.ExifImageWidth), num(s.exif.ExifImageHeight)) ?? { width: null, height: null };
}

function rawExifJson(s: MetadataSources): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const key of ['ifd0', 'exif', 'gps', 'interop', 'iptc'] as const) {
    const block = { ...s[key] };
    delete block.MakerNote;
    if (Object.keys(block).length) out[key] = toJsonSafe(block);
  }
  if (Object.keys(s.xmp).length) out.xmp = toJsonSafe(s.xmp);
  if (s.makerNote) out.maker_note_bytes = s.makerNote.length;
  return out;
}

/** The containers a motion photo's still comes in (motion-photo.ts). */
const STILLS_WITH_MOTION = new Set(['image/jpeg', 'image/heic', 'image/heif']);

/** Extract a photo's metadata. See the module comment for every field's rules. */
export async function extractPhotoMetadata(filePath: string, opts: PhotoMetadataOptions = {}): Promise<PhotoMetadataResult> {
  await fs.access(filePath); // a missing file is an error of the caller, not damaged content
  let type = opts.type;
  if (type === undefined) type = await detect(filePath).catch(() => null);
  const s = await readMetadataSources(filePath, type);
  const warnings = s.warnings;
  // From the file's own XMP only: a sidecar describes edits, not where bytes are inside the file. Without
  // such XMP, a JPEG or HEIC may still carry Samsung's clip (its mpvd box or SEFT trailer says so).
  const motion = motionPhotoClaim(s.xmp) ?? (type && STILLS_WITH_MOTION.has(type.mime) ? await embeddedVideoClaim(filePath).catch(() => null) : null);
  if (opts.sidecarPath) {
    const side = await readXmpSidecar(opts.sidecarPath, warnings);
    for (const [ns, block] of Object.entries(side)) s.xmp[ns] = { ...(s.xmp[ns] ?? {}), ...block };
  }

  const { ifd0, exif, gps } = s;
  // XMP tiff:Orientation counts too: image editors sometimes keep it there only (ExifTool reads both).
  const orientationTag = num(ifd0.Orientation) ?? num(s.xmp.tiff?.Orientation);
  const orientation = orientationTag !== null && orientationTag >= 1 && orientationTag <= 8 ? orientationTag : null;
  const time = captureTime(s, warnings);
  const position = gpsFrom(gps);
  const size = await displayedSize(filePath, type, s, orientation, warnings, opts.header);
  const compensation = num(exif.ExposureCompensation);

  const make = text(ifd0.Make) ?? text(s.xmp.tiff?.Make);
  const model = text(ifd0.Model) ?? text(s.xmp.tiff?.Model);
  const metadata: PhotoMetadata = {
    make,
    model,
    lens_model: text(exif.LensModel) ?? xmpText(s.xmp.aux?.Lens) ?? xmpText(s.xmp.exifEX?.LensModel),
    f_number: num(exif.FNumber),
    exposure_time: formatExposureTime(num(exif.ExposureTime)),
    iso_speed: num(exif.ISO) ?? num(exif.ISOSpeedRatings) ?? num(exif.PhotographicSensitivity),
    focal_length: num(exif.FocalLength),
    exposure_compensation: compensation === null ? null : round(compensation, 2),
    orientation,
    taken_time: time.taken,
    capture_offset_minutes: time.offset,
    capture_offset_source: time.offsetSource,
    gps_latitude: position.lat,
    gps_longitude: position.lon,
    gps_altitude: position.alt,
    description: cleanDescription(xmpText(s.xmp.dc?.description) ?? text(ifd0.ImageDescription) ?? text(s.iptc.Caption), make, model),
    rating: ratingFrom(s),
    keywords: keywordsFrom(s),
    content_identifier: contentIdentifierFrom(s),
    width: size.width,
    height: size.height,
    motion_photo: motion,
  };
  return { metadata, exif: rawExifJson(s), warnings };
}
