/**
 * Capture time from metadata strings, done by hand rather than with exifr's revived Dates.
 *
 * Why: exifr turns "2008:05:30 15:56:01" into a JavaScript Date in the *server's* local time zone, so the same
 * photo would get a different instant on a server in Berlin and one in Tokyo. EXIF times are wall-clock times
 * of the camera; the zone, when known at all, is a separate tag (OffsetTimeOriginal, EXIF 2.31) or part of an
 * XMP/IPTC string, and some writers (DJI, editors that copy ExifTool's composite) put it inside the EXIF
 * string too ("2019:04:30 15:56:18.605+00:00"). We parse the strings ourselves and keep "wall clock" and
 * "offset" apart; which zone wins when a tag and a string disagree is photo-metadata.ts's decision.
 *
 * The decision for times without a known offset (documented for the API's taken_time):
 *   taken_time is always an ISO 8601 string in UTC ("...Z").
 *   - offset known: taken_time is the true instant (wall clock minus offset), capture_offset_minutes = offset.
 *   - offset unknown: the wall clock is written *as if it were UTC* ("local-naive"), and
 *     capture_offset_minutes is null. Rendering such a taken_time in UTC shows exactly what the camera's clock
 *     showed, which is what people expect from "date taken"; it must not be shifted into the viewer's zone.
 *     This is the same convention as Immich's localDateTime and Google Photos for zone-less files.
 */

export interface WallClock {
  /** "YYYY-MM-DDTHH:mm:ss.sss" (no zone). */
  local: string;
  /** Minutes east of UTC when the string itself carried a zone ("Z", "+02:00"), else null. */
  offsetMinutes: number | null;
}

/** Offsets beyond ±14 h do not exist; anything else is a corrupt tag. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** Parse "+02:00", "-0500", "+01", "Z". Null for anything else (including "   :  " blanks). */
export function parseOffset(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (s === 'Z' || s === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(s);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (minutes > MAX_OFFSET_MINUTES || Number(m[3] ?? 0) >= 60) return null;
  return m[1] === '-' ? -minutes : minutes;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * Parse EXIF ("2008:05:30 15:56:01"), XMP/ISO ("2008-05-30T15:56:01.41+02:00") and date-only ("2008-05-30")
 * strings. Sub-seconds and a trailing zone are optional. Zero dates ("0000:00:00 00:00:00"), blanks and
 * impossible values give null.
 */
export function parseWallClock(value: unknown, subSeconds?: unknown): WallClock | null {
  if (typeof value !== 'string') return null;
  const s = value.replace(/\0/g, '').trim();
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?/i.exec(s);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  // Photography starts in 1826; anything earlier is a zero/garbage date.
  if (year < 1826 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  // Real calendar day (rejects Feb 30).
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1) return null;
  // A bare 1970-01-01 is what broken software writes for "unknown".
  if (year === 1970 && month === 1 && day === 1 && hour === 0 && minute === 0 && second === 0) return null;
  const fraction = m[7] ?? (typeof subSeconds === 'string' || typeof subSeconds === 'number' ? String(subSeconds).trim() : '');
  const ms = /^\d+$/.test(fraction) ? Math.round(Number(`0.${fraction}`) * 1000) : 0;
  const local = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(Math.min(second, 59))}.${pad(Math.min(ms, 999), 3)}`;
  return { local, offsetMinutes: m[8] ? parseOffset(m[8].length === 3 ? `${m[8]}:00` : m[8]) : null };
}

/** IPTC IIM splits date ("20220110") and time with zone ("151544-0400"). */
export function parseIptcDateTime(date: unknown, time: unknown): WallClock | null {
  if (typeof date !== 'string' || !/^\d{8}$/.test(date.trim())) return null;
  const d = date.trim();
  const t = typeof time === 'string' ? /^(\d{2})(\d{2})(\d{2})([+-]\d{4})?$/.exec(time.trim()) : null;
  const iso = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` + (t ? `T${t[1]}:${t[2]}:${t[3]}${t[4] ? `${t[4].slice(0, 3)}:${t[4].slice(3)}` : ''}` : '');
  return parseWallClock(iso);
}

/** Milliseconds of a zone-less wall clock read as if it were UTC. */
export function wallClockMs(local: string): number {
  return Date.parse(`${local}Z`);
}

/** taken_time per the decision above. */
export function toTakenTime(local: string, offsetMinutes: number | null): string {
  const ms = wallClockMs(local) - (offsetMinutes ?? 0) * 60_000;
  return new Date(ms).toISOString();
}

/**
 * Derive the zone from the GPS clock: GPSDateStamp + GPSTimeStamp are UTC by definition, so
 * (camera wall clock − GPS UTC) is the offset, if the two were taken together. Accepted only when the difference
 * is within ±14 h and within 3 minutes of a whole quarter hour (every real zone is a multiple of 15 minutes);
 * a stale GPS fix or a drifting camera clock fails that test and gives null rather than a wrong zone.
 */
export function offsetFromGpsClock(local: string, gpsDate: unknown, gpsTime: unknown): number | null {
  if (typeof gpsDate !== 'string' || !Array.isArray(gpsTime) || gpsTime.length < 3) return null;
  const dm = /^(\d{4})[:-](\d{2})[:-](\d{2})/.exec(gpsDate.trim());
  const [h, mi, s] = gpsTime.map(Number) as [number, number, number];
  if (!dm || ![h, mi, s].every(Number.isFinite)) return null;
  const gpsMs = Date.UTC(Number(dm[1]), Number(dm[2]) - 1, Number(dm[3]), 0, 0, 0) + ((h * 60 + mi) * 60 + s) * 1000;
  const diffMin = (wallClockMs(local) - gpsMs) / 60_000;
  const quarter = Math.round(diffMin / 15) * 15;
  if (Math.abs(quarter) > MAX_OFFSET_MINUTES || Math.abs(diffMin - quarter) > 3) return null;
  return quarter === 0 ? 0 : quarter; // avoid -0
}
