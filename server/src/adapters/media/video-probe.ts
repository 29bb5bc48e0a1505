/**
 * Video metadata from ffprobe, and whether a browser can play the original.
 *
 * Field decisions:
 *   - width/height are the *displayed* size: phones record sideways and store a display matrix (rotation), so
 *     a portrait iPhone clip is coded 1920×1080 with rotation −90; we report 1080×1920 and `rotation` 90.
 *   - creation_time: when the camera wrote a local time with its zone (Apple's
 *     com.apple.quicktime.creationdate, or the QuickTime/MP4 ©day "date" tag; on the movie or on a track, in
 *     any language variant, the zone as ±hh:mm, ±hhmm, ±hh or GMT±h:mm), that is the capture moment and its
 *     offset is kept, as the photo path prefers a zoned EXIF time; it survives editing/exporting, which rewrites the container's creation_time (the corpus'
 *     iphone5_gps.mov: exported 2015-12-12, taken 2015-01-19 −08:00). Otherwise the container's creation_time,
 *     which QuickTime/MP4 define as UTC: a true instant whose local zone is unknown (creation_time_kind 'utc';
 *     the offset stays null and a geocoder may supply the zone from GPS). AVI's IDIT/ICRD has no zone and is
 *     kept local-naive (kind 'local', the same convention as photos, see capture-time.ts). Zero dates (1904/1970 epochs, 0000-00-00) and date-only
 *     values are no date.
 *     A zoned time in the movie's XMP packet (exif:DateTimeOriginal, photoshop:DateCreated, xmp:CreateDate),
 *     which ffprobe does not read, comes right after Apple's creationdate and before ©day (movie-metadata.ts).
 *     A date more than a day ahead of now (a clock that was never set, a garbage field) is no date either.
 *   - gps: from the ISO 6709 string in com.apple.quicktime.location.ISO6709 or the "location" (©xyz) tag;
 *     (0, 0) is "no location".
 * Without ffprobe, `videoInfoFromMovie` gives what the MP4/MOV boxes say (size, rotation, duration, codec,
 * capture time, place, camera): a video is never without its own metadata.
 */
import { offsetFromWallClockString, type CaptureTime } from './video-time.ts';
import { ffprobe, type FfprobeResult, type FfprobeStream, type ProbeOptions } from './ffprobe.ts';
import { readAvchdTime } from './avchd-date.ts';
import { readMovieMetadata, type MovieMetadata } from './movie-metadata.ts';

export interface VideoInfo {
  /** Seconds. */
  duration: number | null;
  /** Displayed size (rotation applied). */
  width: number | null;
  height: number | null;
  /** Clockwise degrees to display the coded frames upright: 0, 90, 180 or 270. */
  rotation: number;
  video_codec: string | null;
  audio_codec: string | null;
  pix_fmt: string | null;
  /** ffprobe's container list, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  container: string | null;
  /** ISO 8601 ending in Z; see creation_time_kind for what it means. */
  creation_time: string | null;
  capture_offset_minutes: number | null;
  /** 'zoned' instant with known offset, 'utc' instant with unknown zone, 'local' zone-less wall clock. */
  creation_time_kind: CaptureTime['kind'];
  gps: { latitude: number; longitude: number; altitude: number | null } | null;
  /** Frames per second (average), e.g. 29.97. */
  fps: number | null;
  /** Overall bits per second. */
  bitrate: number | null;
  make: string | null;
  model: string | null;
  /** Apple Live Photo pairing id (com.apple.quicktime.content.identifier). */
  content_identifier: string | null;
}

export interface VideoProbe {
  info: VideoInfo;
  raw: FfprobeResult;
}

function number(v: string | number | undefined): number | null {
  const n = typeof v === 'number' ? v : v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** "30000/1001" → 29.97; "0/0" → null. */
export function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [a, b] = rate.split('/').map(Number);
  if (!a || !Number.isFinite(a)) return null;
  const value = b === undefined ? a : b ? a / b : NaN;
  return Number.isFinite(value) && value > 0 && value < 1000 ? Math.round(value * 1000) / 1000 : null;
}

/** Clockwise rotation from the display matrix (ffprobe reports it counter-clockwise) or the legacy tag. */
export function streamRotation(s: FfprobeStream | undefined): number {
  if (!s) return 0;
  const matrix = s.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && typeof d.rotation === 'number');
  const degrees = matrix ? -(matrix.rotation as number) : Number(s.tags?.rotate ?? 0);
  if (!Number.isFinite(degrees)) return 0;
  return ((Math.round(degrees / 90) * 90) % 360 + 360) % 360;
}

/**
 * ISO 6709 point: "+38.1893-119.9558+2004.158/", also in degree-minute(-second) form ("+4012.34-07500.00/").
 * Returns null for malformed strings, out-of-range values and (0, 0).
 */
export function parseIso6709(value: string | undefined): VideoInfo['gps'] {
  if (!value) return null;
  const m = /^([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)([+-]\d+(?:\.\d+)?)?(?:CRS[^/]*)?\/?$/.exec(value.trim());
  if (!m) return null;
  const part = (s: string, degDigits: number): number => {
    const sign = s.startsWith('-') ? -1 : 1;
    const body = s.slice(1);
    const intLen = body.split('.')[0]!.length;
    const x = Number(body);
    if (intLen === degDigits) return sign * x; // ±DD.DDDD
    if (intLen === degDigits + 2) return sign * (Math.trunc(x / 100) + (x % 100) / 60); // ±DDMM.MMM
    if (intLen === degDigits + 4) {
      const d = Math.trunc(x / 10000);
      const mm = Math.trunc((x % 10000) / 100);
      return sign * (d + mm / 60 + (x % 100) / 3600); // ±DDMMSS.SS
    }
    return NaN;
  };
  const latitude = part(m[1]!, 2);
  const longitude = part(m[2]!, 3);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  if (latitude === 0 && longitude === 0) return null;
  const altitude = m[3] ? Number(m[3]) : null;
  return { latitude, longitude, altitude: altitude !== null && Number.isFinite(altitude) ? altitude : null };
}

/** Tags that hold the camera's local time with its zone, best first: QuickTime's Keys, then ©day / MP4 date. */
const ZONED_TIME_KEYS = ['com.apple.quicktime.creationdate', 'date'];

/** The values of `key` in a tag list, ignoring case, the plain key first, then language variants ("date-eng"). */
function tagValues(tags: Record<string, string>, key: string): string[] {
  const plain: string[] = [];
  const localised: string[] = [];
  for (const [k, v] of Object.entries(tags)) {
    const lower = k.toLowerCase();
    if (lower === key) plain.push(v);
    else if (lower.startsWith(`${key}-`) && /^[a-z]{3}$/.test(lower.slice(key.length + 1))) localised.push(v);
  }
  return [...plain, ...localised];
}

const NO_TIME: CaptureTime = { iso: null, offsetMinutes: null, kind: null };

/**
 * The first zoned time among `zoned` (best first), else the container's time (UTC for MP4/QuickTime/3GP,
 * local for AVI, whose IDIT/ICRD dates are the camera's clock).
 */
function pickCaptureTime(zoned: Iterable<string>, containerTime: string | undefined, isAvi: boolean): CaptureTime {
  for (const value of zoned) {
    const t = offsetFromWallClockString(value, { requireZone: true });
    if (t) return t;
  }
  return offsetFromWallClockString(containerTime, { defaultUtc: !isAvi }) ?? NO_TIME;
}

/** Zoned-time candidates of ffprobe's tags, best first: the movie's tags, else a track's, any language suffix. */
function* probeZonedTimes(tags: Record<string, string>, streams: FfprobeStream[], key: string): Generator<string> {
  for (const source of [tags, ...streams.map((s) => s.tags ?? {})]) yield* tagValues(source, key);
}

function captureTime(tags: Record<string, string>, streams: FfprobeStream[], container: string, movie: MovieMetadata | null): CaptureTime {
  const [keysDate, dayDate] = ZONED_TIME_KEYS;
  function* zoned() {
    // A local time with a zone, written by the camera: the best evidence of when it was taken.
    yield* probeZonedTimes(tags, streams, keysDate!);
    if (movie) yield* movie.xmpTimes;
    yield* probeZonedTimes(tags, streams, dayDate!);
  }
  const containerTime = tags.creation_time ?? streams.find((s) => s.tags?.creation_time)?.tags?.creation_time;
  return pickCaptureTime(zoned(), containerTime, container === 'avi');
}

/** Map ffprobe's JSON (and the movie's own boxes, for what ffprobe does not read) to VideoInfo. */
export function videoInfoFromProbe(raw: FfprobeResult, movie: MovieMetadata | null = null): VideoInfo {
  const tags = raw.format.tags ?? {};
  const video = raw.streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = raw.streams.find((s) => s.codec_type === 'audio');
  const rotation = streamRotation(video);
  const [w, h] = [video?.width ?? null, video?.height ?? null];
  const swap = rotation === 90 || rotation === 270;
  const durations = [raw.format.duration, ...raw.streams.map((s) => s.duration)].map(number).filter((d): d is number => d !== null && d > 0);
  const time = captureTime(tags, raw.streams, raw.format.format_name ?? '', movie);
  return {
    duration: number(raw.format.duration) ?? (durations.length ? Math.max(...durations) : null),
    width: swap ? h : w,
    height: swap ? w : h,
    rotation,
    video_codec: video?.codec_name ?? null,
    audio_codec: audio?.codec_name ?? null,
    pix_fmt: video?.pix_fmt ?? null,
    container: raw.format.format_name ?? null,
    creation_time: time.iso,
    capture_offset_minutes: time.offsetMinutes,
    creation_time_kind: time.kind,
    gps: parseIso6709(tags['com.apple.quicktime.location.ISO6709'] ?? tags.location ?? tags['location-eng']),
    fps: parseRate(video?.avg_frame_rate) ?? parseRate(video?.r_frame_rate),
    bitrate: number(raw.format.bit_rate),
    make: tags['com.apple.quicktime.make'] ?? tags.make ?? null,
    model: tags['com.apple.quicktime.model'] ?? tags.model ?? null,
    content_identifier: tags['com.apple.quicktime.content.identifier'] ?? null,
  };
}

/** ffprobe's name of a sample entry's four-character code, for the codecs cameras and phones write. */
const CODEC_NAMES: Record<string, string> = {
  avc1: 'h264', avc3: 'h264', hvc1: 'hevc', hev1: 'hevc', mp4v: 'mpeg4', s263: 'h263', jpeg: 'mjpeg', mjpa: 'mjpeg', av01: 'av1', vp09: 'vp9',
  apch: 'prores', apcn: 'prores', apcs: 'prores', apco: 'prores', ap4h: 'prores',
  mp4a: 'aac', samr: 'amr_nb', sawb: 'amr_wb', 'ac-3': 'ac3', alac: 'alac', Opus: 'opus', sowt: 'pcm_s16le', twos: 'pcm_s16be', lpcm: 'pcm',
};

/**
 * VideoInfo from the MP4/MOV boxes alone (no ffprobe): null when the file is not an ISO-BMFF movie. Frame
 * rate, bit rate and pixel format stay unknown (null); the container is named as ffprobe names it.
 */
export function videoInfoFromMovie(movie: MovieMetadata): VideoInfo | null {
  const b = movie.boxes;
  if (!b.brand && b.width === null && b.duration === null) return null;
  const swap = b.rotation === 90 || b.rotation === 270;
  const tags = b.tags;
  const zoned = [...tagValues(tags, 'com.apple.quicktime.creationdate'), ...movie.xmpTimes, ...tagValues(tags, 'date')];
  const time = pickCaptureTime(zoned, b.creation_time ?? undefined, false);
  const codec = (fourcc: string | null) => (fourcc ? (CODEC_NAMES[fourcc] ?? fourcc) : null);
  return {
    duration: b.duration,
    width: swap ? b.height : b.width,
    height: swap ? b.width : b.height,
    rotation: b.rotation,
    video_codec: codec(b.video_fourcc),
    audio_codec: codec(b.audio_fourcc),
    pix_fmt: null,
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    creation_time: time.iso,
    capture_offset_minutes: time.offsetMinutes,
    creation_time_kind: time.kind,
    gps: parseIso6709(tags['com.apple.quicktime.location.ISO6709'] ?? tags.location),
    fps: null,
    bitrate: null,
    make: tags['com.apple.quicktime.make'] ?? tags.make ?? null,
    model: tags['com.apple.quicktime.model'] ?? tags.model ?? null,
    content_identifier: tags['com.apple.quicktime.content.identifier'] ?? null,
  };
}

/** What the boxes of a movie say, without ffprobe (see videoInfoFromMovie); null for other containers. */
export async function readVideoContainer(input: string): Promise<VideoInfo | null> {
  const movie = await readMovieMetadata(input);
  return movie && videoInfoFromMovie(movie);
}

export async function probeVideo(input: string, options: ProbeOptions = {}): Promise<VideoProbe> {
  const raw = await ffprobe(input, options);
  const info = videoInfoFromProbe(raw, await readMovieMetadata(input));
  // AVCHD keeps its date in the H.264 stream, where ffprobe does not look (avchd-date.ts).
  if (info.creation_time === null && (info.container ?? '').includes('mpegts')) {
    const t = await readAvchdTime(input);
    if (t) Object.assign(info, { creation_time: t.iso, capture_offset_minutes: t.offsetMinutes, creation_time_kind: t.offsetMinutes === null ? 'local' : 'zoned' });
  }
  return { info, raw };
}

/**
 * Does the original need a web copy? Browsers (Chromium without proprietary codecs included) reliably play
 * H.264 8-bit 4:2:0 with AAC or no audio in an MP4/MOV container, so anything else gets an H.264/AAC MP4:
 * HEVC from iPhones, MJPEG AVIs, MPEG-4 Part 2 3GPs, AVCHD (MPEG-TS), 10-bit H.264.
 * yuvj420p (full-range 4:2:0, common from phones) plays like yuv420p and is accepted.
 */
export function needsWebVideo(probe: VideoProbe | VideoInfo): boolean {
  const info = 'info' in probe ? probe.info : probe;
  const container = info.container ?? '';
  const mp4Family = container.includes('mp4') || container.includes('mov');
  const h264 = info.video_codec === 'h264';
  const pixels = info.pix_fmt === 'yuv420p' || info.pix_fmt === 'yuvj420p';
  const audioOk = info.audio_codec === null || info.audio_codec === 'aac';
  return !(mp4Family && h264 && pixels && audioOk);
}
