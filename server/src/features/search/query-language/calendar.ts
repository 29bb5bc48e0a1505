/**
 * Calendar days as whole numbers (days since 1970-01-01 in the proleptic Gregorian calendar), and
 * the spans the date words stand for. No time of day and no time zone here: the parser works out
 * "today" in the viewer's zone once, and the filter's days are read in that zone by queryAssets.
 */
import type { HolidayRule, Season } from './grammar.ts';

export type Day = number;
/** Inclusive span of days. */
export interface Span {
  from: Day;
  to: Day;
}

const MS_PER_DAY = 86_400_000;

export const dayOf = (y: number, m: number, d: number): Day => Math.round(Date.UTC(y, m - 1, d) / MS_PER_DAY);

export function ymd(day: Day): { y: number; m: number; d: number } {
  const t = new Date(day * MS_PER_DAY);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

export const yearOf = (day: Day) => ymd(day).y;

/** YYYY-MM-DD, the filter's day form. */
export function formatDay(day: Day): string {
  const { y, m, d } = ymd(day);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
export const isValidDay = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);

/** 0 Sunday … 6 Saturday. 1970-01-01 was a Thursday. */
export const weekday = (day: Day) => (((day + 4) % 7) + 7) % 7;

/** The first day of the week holding `day`; weeks start on `weekStart` (1 Monday, 0 Sunday). */
export const startOfWeek = (day: Day, weekStart: number) => day - ((weekday(day) - weekStart + 7) % 7);

/** The calendar day it is at instant `now` in time zone `tz` (an IANA name the runtime knows). */
export function todayIn(now: number, tz: string): Day {
  const parts = dayFormat(tz).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return dayOf(get('year'), get('month'), get('day'));
}

/**
 * One formatter per zone, kept: making one costs more than the rest of a query's parse (every search asks for
 * "today"). Only zones the runtime knows get here (the constructor throws RangeError for others); names are
 * matched ignoring case, so spellings of a zone could pile up: the map is emptied past a few hundred.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(tz: string): Intl.DateTimeFormat {
  let f = dayFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric' });
    if (dayFormats.size >= 500) dayFormats.clear();
    dayFormats.set(tz, f);
  }
  return f;
}

export const yearSpan = (y: number): Span => ({ from: dayOf(y, 1, 1), to: dayOf(y, 12, 31) });
export const monthSpan = (y: number, m: number): Span => ({ from: dayOf(y, m, 1), to: dayOf(y, m, daysInMonth(y, m)) });

/** The same day of the month `n` months later (earlier for negative n), clamped to the month's end. */
export function addMonths(day: Day, n: number): Day {
  const { y, m, d } = ymd(day);
  const index = y * 12 + (m - 1) + n;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  return dayOf(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

/** Easter Sunday of year y (the anonymous Gregorian algorithm, "Meeus/Jones/Butcher"). */
export function easterSunday(y: number): Day {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOf(y, month, day);
}

/** The anchor day of a holiday in year y. */
export function holidayAnchor(rule: HolidayRule, y: number): Day {
  if (rule.anchor === 'fixed') return dayOf(y, rule.month, rule.day);
  if (rule.anchor === 'easter') return easterSunday(y);
  if (rule.n > 0) {
    const first = dayOf(y, rule.month, 1);
    return first + ((rule.weekday - weekday(first) + 7) % 7) + 7 * (rule.n - 1);
  }
  const last = dayOf(y, rule.month, daysInMonth(y, rule.month));
  return last - ((weekday(last) - rule.weekday + 7) % 7) + 7 * (rule.n + 1);
}

export type Hemisphere = 'northern' | 'southern';

/**
 * Meteorological seasons: whole months, three each. In the north spring is March–May, summer
 * June–August, autumn September–November, winter December–February; in the south the other way
 * round. A season is named by the year it begins in: northern "winter 2022" is December 2022 to
 * February 2023 (and a southern summer likewise).
 */
const FIRST_MONTH: Record<Hemisphere, Record<Season, number>> = {
  northern: { spring: 3, summer: 6, autumn: 9, winter: 12 },
  southern: { spring: 9, summer: 12, autumn: 3, winter: 6 },
};

export function seasonSpan(season: Season, y: number, hemisphere: Hemisphere): Span {
  const first = FIRST_MONTH[hemisphere][season];
  const from = dayOf(y, first, 1);
  return { from, to: addMonths(from, 3) - 1 };
}
