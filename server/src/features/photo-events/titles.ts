/**
 * Generated event titles from place and dates: "Lisbon · June 2024" when a place name is known,
 * "3–9 June 2024" when not. Dates are read in the event's own time zone (the capture offset), so a
 * trip's days are the days the photos were taken.
 *
 * The place comes from an injected `placeNameAt(lat, lon)` (the offline reverse geocoder of
 * features/places, wired by the composition root); without one, titles use dates only.
 */
export type PlaceNameAt = (lat: number, lon: number) => string | null;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Day {
  y: number;
  m: number;
  d: number;
}

function dayOf(ms: number, offsetMinutes: number): Day {
  const t = new Date(ms + offsetMinutes * 60_000);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate() };
}

/** "3–9 June 2024", "3 June 2024", "30 June – 2 July 2024", "30 December 2023 – 2 January 2024". */
export function dateRangeTitle(start: number, end: number, offsetMinutes = 0): string {
  const a = dayOf(start, offsetMinutes);
  const b = dayOf(end, offsetMinutes);
  if (a.y !== b.y) return `${a.d} ${MONTHS[a.m]} ${a.y} – ${b.d} ${MONTHS[b.m]} ${b.y}`;
  if (a.m !== b.m) return `${a.d} ${MONTHS[a.m]} – ${b.d} ${MONTHS[b.m]} ${b.y}`;
  if (a.d !== b.d) return `${a.d}–${b.d} ${MONTHS[a.m]} ${a.y}`;
  return `${a.d} ${MONTHS[a.m]} ${a.y}`;
}

/** "June 2024", "June–July 2024", "December 2023 – January 2024". */
export function monthRange(start: number, end: number, offsetMinutes = 0): string {
  const a = dayOf(start, offsetMinutes);
  const b = dayOf(end, offsetMinutes);
  if (a.y !== b.y) return `${MONTHS[a.m]} ${a.y} – ${MONTHS[b.m]} ${b.y}`;
  if (a.m !== b.m) return `${MONTHS[a.m]}–${MONTHS[b.m]} ${a.y}`;
  return `${MONTHS[a.m]} ${a.y}`;
}

export function eventTitle(e: { start: number; end: number; offsetMinutes: number; place: string | null }): string {
  return e.place ? `${e.place} · ${monthRange(e.start, e.end, e.offsetMinutes)}` : dateRangeTitle(e.start, e.end, e.offsetMinutes);
}

/** "+02:00" for a capture offset in minutes; null when unknown. */
export function offsetName(minutes: number | null): string | null {
  if (minutes === null) return null;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
