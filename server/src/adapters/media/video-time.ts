/**
 * Container time strings (QuickTime, MP4, AVI as ffprobe prints them) to taken_time + offset, with the same
 * convention as photos (capture-time.ts): UTC instant when the zone is known, local-naive otherwise.
 */
import { parseWallClock, toTakenTime } from './capture-time.ts';

export interface CaptureTime {
  iso: string | null;
  offsetMinutes: number | null;
  /**
   * What `iso` is: 'zoned' = true instant, zone known (offsetMinutes set); 'utc' = true instant, camera zone
   * unknown (MP4/QuickTime creation_time; a geocoder can add the zone from GPS); 'local' = camera wall clock
   * without zone, written as if UTC (AVI), exactly like zone-less photos.
   */
  kind: 'zoned' | 'utc' | 'local' | null;
}

/**
 * The zone after a time of day, in every form writers use, as "±hh:mm": "+0300", "+03:00", "+03" (ISO 8601
 * allows hours alone), " +03:00", "GMT+03:00", "UTC+3". A "Z" and strings without a zone are left alone.
 */
function normaliseZone(value: string): string {
  const m = /(\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*(GMT|UTC)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(value);
  if (!m) return value;
  const [, time, prefix, sign, hh, mm] = m;
  if (hh!.length === 1 && !prefix) return value; // "+3" without GMT/UTC is not a zone anyone writes
  return `${value.slice(0, m.index)}${time}${sign}${hh!.padStart(2, '0')}:${mm ?? '00'}`;
}

/**
 * "2019-07-24T11:25:40+0300" (Apple), "2015-12-12T08:59:26.000000Z" (MP4 creation_time),
 * "2012-09-10 20:52:00" (AVI IDIT, no zone).
 *   - requireZone: only accept strings that carry a zone (used for camera-local tags).
 *   - defaultUtc: a string without a zone is UTC (MP4/QuickTime creation_time is UTC by definition);
 *     the offset stays null because the local zone is still unknown.
 * Zero/epoch dates, date-only values and dates more than a day ahead of `now` (a clock never set, a
 * garbage field: QuickTime's 32-bit maximum is 2040) give null: no date is better than a wrong one.
 */
export function offsetFromWallClockString(
  value: string | undefined,
  opts: { requireZone?: boolean; defaultUtc?: boolean; now?: number } = {},
): CaptureTime | null {
  const t = parseCaptureTime(value, opts);
  return t && t.iso && Date.parse(t.iso) > (opts.now ?? Date.now()) + FUTURE_TOLERANCE_MS ? null : t;
}

/** Clocks a little ahead (a zone set wrong, a day's travel) are still believed. */
const FUTURE_TOLERANCE_MS = 24 * 3600_000;

function parseCaptureTime(value: string | undefined, opts: { requireZone?: boolean; defaultUtc?: boolean }): CaptureTime | null {
  if (!value || !/\d{2}:\d{2}/.test(value)) return null; // date-only: not a capture time
  const normalised = normaliseZone(value.replace(/\0/g, '').trim());
  const wall = parseWallClock(normalised);
  if (!wall) return null;
  const year = Number(wall.local.slice(0, 4));
  if (year <= 1904 || wall.local.startsWith('1970-01-01T00:00:00')) return null; // QuickTime/Unix epoch zero
  const explicitZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(normalised);
  if (opts.requireZone && !explicitZone) return null;
  if (wall.offsetMinutes !== null) {
    // A "Z" on a container timestamp is the format's UTC convention, not the camera's zone: offset unknown.
    const isUtcMarker = /Z$/i.test(normalised);
    return isUtcMarker
      ? { iso: toTakenTime(wall.local, 0), offsetMinutes: null, kind: 'utc' }
      : { iso: toTakenTime(wall.local, wall.offsetMinutes), offsetMinutes: wall.offsetMinutes, kind: 'zoned' };
  }
  return opts.defaultUtc
    ? { iso: toTakenTime(wall.local, 0), offsetMinutes: null, kind: 'utc' }
    : { iso: toTakenTime(wall.local, null), offsetMinutes: null, kind: 'local' };
}
