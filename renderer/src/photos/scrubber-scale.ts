/**
 * The scrubber's scale (TimelineScrubber.tsx): the timeline's years stacked from the top (newest)
 * to the bottom (oldest), each as tall as its share of the library, from the statistics operation
 * getStatsYears (counts per year, cheap: the server keeps them). Within a year the twelve months
 * share its height evenly, December at the top, since the timeline runs newest first.
 *
 * Positions are fractions of the scrubber's height (0 top, 1 bottom) and times are wall clocks
 * (lib/capture-time.ts: the photo's own clock read as UTC), like the timeline's days. Decision: the
 * years' counts are the household member's own items (the statistics' scope), so with filters set
 * or stacks collapsed the years keep their proportions of the whole library: the scale places years
 * and months, and a jump looks for the first loaded photo of that month, whatever the list holds.
 */
export interface YearCount {
  year: number;
  count: number;
}

export interface YearSpan extends YearCount {
  /** Fractions of the scale's height: where the year starts (its December) and ends (its January). */
  from: number;
  to: number;
}

/** Years newest first, each spanning its share; years without items are left out. */
export function yearSpans(years: readonly YearCount[]): YearSpan[] {
  const sorted = years.filter((y) => y.count > 0).sort((a, b) => b.year - a.year);
  const total = sorted.reduce((s, y) => s + y.count, 0);
  let at = 0;
  return sorted.map((y) => {
    const from = at;
    at += y.count / total;
    return { ...y, from, to: at };
  });
}

/** The month at fraction `f` of the scale: { year, month 0..11 }, or null when there are no years. */
export function monthAt(spans: readonly YearSpan[], f: number): { year: number; month: number } | null {
  if (!spans.length) return null;
  const x = Math.min(1, Math.max(0, f));
  const span = spans.find((s) => x < s.to) ?? spans[spans.length - 1]!;
  const within = span.to > span.from ? (x - span.from) / (span.to - span.from) : 0;
  return { year: span.year, month: 11 - Math.min(11, Math.max(0, Math.floor(within * 12))) };
}

/** Where a wall clock lies on the scale (its year's span, its month and day within it); 0 for null (undated items come first). */
export function fractionOf(spans: readonly YearSpan[], ts: number | null): number {
  if (ts === null || !spans.length) return 0;
  const d = new Date(ts);
  const year = d.getUTCFullYear();
  const span = spans.find((s) => s.year <= year);
  if (!span) return 1;
  if (span.year < year) return span.from; // a year the statistics do not know yet: at the next older one's top
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const within = (end - ts) / (end - start); // 0 at the end of December, 1 at the start of January
  return span.from + (span.to - span.from) * Math.min(1, Math.max(0, within));
}

/** The wall clock just after a month (its photos are those taken before it): the start of the next month. */
export const endOfMonth = (year: number, month: number): number => Date.UTC(year, month + 1, 1);
