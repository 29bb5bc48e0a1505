/**
 * An event's dates ("Jun 3 – 9, 2024" in en-US), read in the event's own time zone (its photos'
 * capture offset, `timezone` "+01:00"), so a trip's days are the days the photos were taken wherever
 * the person looks from, and written like every other date on screen (lib/dates.ts: the browser's
 * locale, Intl's own range).
 */
import { formatDateRange } from '../../lib/dates.ts';

/** "+01:00" → 60; null or unreadable → 0 (UTC). */
export function offsetMinutes(timezone: string | null): number {
  const m = timezone ? /^([+-])(\d{2}):(\d{2})$/.exec(timezone) : null;
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/** en-US: "Jun 3 – 9, 2024", "Jun 3, 2024", "Jun 30 – Jul 2, 2024", "Dec 30, 2023 – Jan 2, 2024". */
export function dateRange(start: number, end: number, timezone: string | null, locale?: string): string {
  const offset = offsetMinutes(timezone) * 60_000;
  // The event's wall clock read as UTC: its own days, whatever the viewer's zone.
  return formatDateRange(start + offset, end + offset, { utc: true, locale });
}

/** "12 photos" / "1 photo" (media items: a RAW+JPEG pair is one photo). */
export function photoCount(n: number): string {
  return n === 1 ? '1 photo' : `${n.toLocaleString()} photos`;
}
