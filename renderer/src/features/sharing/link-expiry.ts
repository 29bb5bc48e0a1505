/**
 * A link's expiry as people choose it: a day, the link working to the end of that day (the
 * browser's zone). New links last 30 days unless changed; at most a year ahead, so a forgotten
 * link does not stay open for ever (the server accepts any future time or none; this is the UI's
 * household choice). A day in the past is left for the server to refuse (`expiry_in_past`), and the
 * refusal shows under the field.
 */
export const DEFAULT_EXPIRY_DAYS = 30;
export const MAX_EXPIRY_DAYS = 365;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the day `days` from today (local). */
export function dayFromToday(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of that local day as an RFC 3339 instant. */
export function endOfDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 23, 59, 59).toISOString();
}

/** `YYYY-MM-DD` (local) of an instant the server sent. */
export function dayOf(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Why a chosen day is refused before asking the server, or null. */
export function expiryProblem(day: string, now = new Date()): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return 'Choose the last day the link works.';
  if (day > dayFromToday(MAX_EXPIRY_DAYS, now)) return `A link can last at most ${MAX_EXPIRY_DAYS} days: choose a day before ${dayFromToday(MAX_EXPIRY_DAYS + 1, now)}.`;
  return null;
}
