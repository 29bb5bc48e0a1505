/**
 * Dates as Hearth shows them to people: one format on every screen, in the browser's locale, through
 * Intl.DateTimeFormat (issue 24 found three: "3 June 2024" written by hand on events, "4/19/2007" from
 * a bare toLocaleDateString on links, "Apr 19, 2007" elsewhere).
 *
 * The format: the locale's medium date ("Apr 19, 2007" in en-US, "19 Apr 2007" in en-GB,
 * "19.04.2007" in de-DE), with the locale's short time where a time is shown ("Apr 19, 2007, 11:03 AM"),
 * and Intl's own range for two dates ("Jun 3 – 9, 2024"). The timeline's day labels and month headers
 * are headings, not dates in a sentence: they spell the month out (timeline-layout.ts), still from
 * the same locale through this module's formatters.
 *
 * `utc: true` reads a time in UTC: for wall clocks (a photo's own clock, lib/capture-time.ts) and
 * calendar days sent as midnight UTC (a filter's "2024-06-03"), which the viewer's zone must not move
 * to the day before. Formatters are costly to make: one per locale, options and zone, kept.
 * Every screen formats dates here (test/renderer/dates.test.ts checks that no other file does).
 */

export const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
export const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
export const TIME: Intl.DateTimeFormatOptions = { timeStyle: 'short' };

export interface DateOptions {
  /** Read the time in UTC (a wall clock, or a calendar day sent as midnight UTC). */
  utc?: boolean;
  /** A locale other than the browser's (tests). */
  locale?: string | undefined;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The kept formatter for these options, in the browser's locale (or `locale`). */
export function dateFormat(options: Intl.DateTimeFormatOptions, { utc = false, locale }: DateOptions = {}): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${utc ? 'utc' : ''}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, utc ? { ...options, timeZone: 'UTC' } : options);
    formats.set(key, f);
  }
  return f;
}

type When = string | number | Date | null | undefined;

function msOf(value: When): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** "Apr 19, 2007"; '' when absent or unreadable. */
export function formatDate(value: When, options: DateOptions = {}): string {
  const ms = msOf(value);
  return ms === null ? '' : dateFormat(DATE, options).format(ms);
}

/** "Apr 19, 2007, 11:03 AM"; '' when absent or unreadable. */
export function formatDateTime(value: When, options: DateOptions = {}): string {
  const ms = msOf(value);
  return ms === null ? '' : dateFormat(DATE_TIME, options).format(ms);
}

/** "11:03 AM"; '' when absent or unreadable. */
export function formatTime(value: When, options: DateOptions = {}): string {
  const ms = msOf(value);
  return ms === null ? '' : dateFormat(TIME, options).format(ms);
}

/** "Jun 3 – 9, 2024", "Jun 30 – Jul 2, 2024", one date when both fall on the same day. */
export function formatDateRange(start: number, end: number, options: DateOptions = {}): string {
  const f = dateFormat(DATE, options);
  return start <= end ? f.formatRange(start, end) : f.formatRange(end, start);
}
