/**
 * Capture times as the photo's own clock showed them, not converted into the viewer's zone.
 *
 * The server's convention (server/src/adapters/media/capture-time.ts): `taken_time` is ISO in UTC;
 * - with `capture_offset_minutes` it is the true instant, and the photo's wall clock is
 *   taken_time + offset;
 * - without an offset, the camera's wall clock was written as if it were UTC ("local-naive"), so
 *   reading it in UTC shows exactly what the camera showed.
 * Either way the photo's wall clock is `taken_time + (offset ?? 0)`, read in UTC. A photo taken at
 * 11:03 in Mexico City is shown at 11:03 in Berlin too, and it lies on the day it was taken there;
 * converting it into the viewer's zone would show 18:03 and could move it to another day.
 *
 * Times are formatted with `timeZone: 'UTC'` on those wall-clock milliseconds, so nothing depends on
 * the zone of the browser (or of the test runner).
 */
import { DATE_TIME, dateFormat } from './dates.ts';

const MINUTE = 60_000;
export const DAY_MS = 86_400_000;

export interface CaptureStamp {
  taken_time: string | null;
  capture_offset_minutes: number | null;
}

/** The photo's wall clock in ms read as UTC, or null when it has no capture time. */
export function wallClockMs(taken: string | null | undefined, offsetMinutes: number | null | undefined): number | null {
  if (!taken) return null;
  const t = Date.parse(taken);
  return Number.isNaN(t) ? null : t + (offsetMinutes ?? 0) * MINUTE;
}

/** 0 → "UTC+00:00", −360 → "UTC−06:00", 330 → "UTC+05:30" (a real minus sign, as clocks apps write it). */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '\u2212' : '+';
  const abs = Math.abs(offsetMinutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A kept formatter (lib/dates.ts, the browser's locale), read in UTC (see above). */
export function utcFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return dateFormat(options, { utc: true, locale });
}

/**
 * "Apr 19, 2007, 11:03 AM (UTC−06:00)" with a recorded offset; "Apr 19, 2007, 11:03 AM" without
 * one (the camera's clock as it was); '' when there is no capture time.
 */
export function formatCaptureTime(a: CaptureStamp, locale?: string): string {
  const wall = wallClockMs(a.taken_time, a.capture_offset_minutes);
  if (wall === null) return '';
  const text = utcFormat(locale, DATE_TIME).format(wall);
  return a.capture_offset_minutes === null ? text : `${text} (${formatOffset(a.capture_offset_minutes)})`;
}

/** The same without the offset, for a compact title ("Apr 19, 2007, 11:03 AM"). */
export function formatCaptureTimeShort(a: CaptureStamp, locale?: string): string {
  const wall = wallClockMs(a.taken_time, a.capture_offset_minutes);
  return wall === null ? '' : utcFormat(locale, DATE_TIME).format(wall);
}
