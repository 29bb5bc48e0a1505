/**
 * An event's dates in words ("3–9 June 2024"), read in the event's own time zone (its photos' capture
 * offset, `timezone` "+01:00"), so a trip's days are the days the photos were taken wherever the
 * person looks from. The same rules as the server's generated titles (server/src/features/events/titles.ts).
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "+01:00" → 60; null or unreadable → 0 (UTC). */
export function offsetMinutes(timezone: string | null): number {
  const m = timezone ? /^([+-])(\d{2}):(\d{2})$/.exec(timezone) : null;
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

function dayOf(ms: number, offset: number) {
  const t = new Date(ms + offset * 60_000);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate() };
}

/** "3–9 June 2024", "3 June 2024", "30 June – 2 July 2024", "30 December 2023 – 2 January 2024". */
export function dateRange(start: number, end: number, timezone: string | null): string {
  const offset = offsetMinutes(timezone);
  const a = dayOf(start, offset);
  const b = dayOf(end, offset);
  if (a.y !== b.y) return `${a.d} ${MONTHS[a.m]} ${a.y} – ${b.d} ${MONTHS[b.m]} ${b.y}`;
  if (a.m !== b.m) return `${a.d} ${MONTHS[a.m]} – ${b.d} ${MONTHS[b.m]} ${b.y}`;
  if (a.d !== b.d) return `${a.d}–${b.d} ${MONTHS[a.m]} ${a.y}`;
  return `${a.d} ${MONTHS[a.m]} ${a.y}`;
}

/** "12 photos" / "1 photo" (media items: a RAW+JPEG pair is one photo). */
export function photoCount(n: number): string {
  return n === 1 ? '1 photo' : `${n.toLocaleString()} photos`;
}
