/**
 * Date expressions over lexemes: a point ("2023", "may 2021", "march 5", "christmas 2022", "last
 * summer", "yesterday", "3 days ago") or a range of two points ("2019 to 2021", "between march and
 * june 2020", "since 2020", "before may 2021"), turned into an inclusive span of days.
 *
 * Rules (the ambiguity rules of the parser, see also parse-query.ts):
 * - A bare number is a year only when it has four digits and lies in 1900–2100.
 * - A month word the grammar marks ambiguous ("may", "march") is a month only next to an
 *   introducer ("in may"), a year ("may 2021"), a day ("may 5") or inside a range.
 * - Without a year, a month, a day or a holiday is its most recent occurrence that has begun
 *   ("in may" in November 2026 is May 2026; in March 2026 it is May 2025).
 * - A season needs "this", "last" or a year ("summer 2022", "summer of 2022"); alone it is a word
 *   for the search channels ("beach summer"), except inside a range ("between spring and summer 2020").
 *   "last summer" is the latest that has ended; "this summer" the one we are in, else the one that
 *   begins this calendar year.
 * - "last week/month/year" are the previous calendar week (weeks start on Monday unless the context
 *   says Sunday), month, year; "this …" the current one; "last weekend" the latest Saturday–Sunday
 *   that has ended; "last 3 days" today and the two days before; "2 weeks ago" the calendar week
 *   that held the day two weeks back.
 * - In a range, a point without a year takes it from the other end: the start is the latest
 *   occurrence not after the end's start, the end the first whose end is not before the start.
 *   Ends given the wrong way round are swapped.
 */
import { addMonths, dayOf, holidayAnchor, isValidDay, monthSpan, seasonSpan, startOfWeek, weekday, yearOf, yearSpan, ymd, type Day, type Hemisphere, type Span } from './calendar.ts';
import { classOf, has, type Lexeme } from './lexicon.ts';
import type { Unit } from './grammar.ts';

export interface DateContext {
  today: Day;
  hemisphere: Hemisphere;
  /** 1 Monday (default), 0 Sunday. */
  weekStart: number;
}

/** A point: one span, or a span for each year when none was said ("in may", "christmas"). */
type Point = { span: Span; yearless?: undefined } | { yearless: (y: number) => Span; span?: undefined };

/** How a point came to be read: after a range word, after an introducer, or on its own. */
type Setting = 'range' | 'intro' | 'alone';

interface Found<T> {
  len: number;
  value: T;
}

/** An open or closed range of days. */
export interface DateRange {
  from?: Day;
  to?: Day;
}

const MIN_YEAR = 1900;
const MAX_YEAR = 2100;
const isYear = (lx: Lexeme | undefined): number | undefined => {
  const n = classOf(lx, 'number');
  return n && n.digits === 4 && !n.plus && n.value >= MIN_YEAR && n.value <= MAX_YEAR ? n.value : undefined;
};
/** Year after an optional "of" ("summer of 2022"): [year, lexemes used]. */
function yearAfter(lxs: Lexeme[], i: number): [number, number] | undefined {
  const y = isYear(lxs[i]);
  if (y !== undefined) return [y, 1];
  const y2 = has(lxs[i], 'of') ? isYear(lxs[i + 1]) : undefined;
  return y2 !== undefined ? [y2, 2] : undefined;
}
/** A day of the month; not a count of stars ("in may 5 stars" is May, rated five). */
const dayNumber = (lx: Lexeme | undefined, next: Lexeme | undefined): number | undefined => {
  if (has(next, 'star')) return undefined;
  const o = classOf(lx, 'ordinal');
  if (o) return o.value >= 1 && o.value <= 31 ? o.value : undefined;
  const n = classOf(lx, 'number');
  return n && n.digits > 0 && n.digits <= 2 && !n.plus && n.value >= 1 && n.value <= 31 ? n.value : undefined;
};
/** A count before a unit ("3 days", "a week"); "last a week" is no English, but harmless. */
const count = (lx: Lexeme | undefined): number | undefined => {
  const n = classOf(lx, 'number');
  return n && !n.plus && n.value >= 1 ? n.value : undefined;
};

const thisOrLast = (lx: Lexeme | undefined) => (has(lx, 'this') ? 'this' : has(lx, 'last') ? 'last' : null);

const inYears = (s: Span): boolean => yearOf(s.from) >= MIN_YEAR - 1 && yearOf(s.to) <= MAX_YEAR + 1;

export class DateReader {
  constructor(private readonly ctx: DateContext) {}

  /** The longest date expression starting at lexeme i. */
  read(lxs: Lexeme[], i: number): Found<DateRange> | null {
    const setting: Setting = has(lxs[i - 1], 'monthIntro') ? 'intro' : 'alone';
    const candidates = [this.range(lxs, i), this.open(lxs, i), this.single(lxs, i, setting)];
    let best: Found<DateRange> | null = null;
    for (const c of candidates) if (c && (!best || c.len > best.len)) best = c;
    return best;
  }

  private single(lxs: Lexeme[], i: number, setting: Setting): Found<DateRange> | null {
    const p = this.point(lxs, i, setting);
    if (!p) return null;
    const span = this.resolve(p.value);
    return inYears(span) ? { len: p.len, value: { from: span.from, to: span.to } } : null;
  }

  /** "between A and B", "from A to B", "A to B", "2019-2021". */
  private range(lxs: Lexeme[], i: number): Found<DateRange> | null {
    const yr = classOf(lxs[i], 'yearRange');
    if (yr) {
      const [a, b] = yr.from <= yr.to ? [yr.from, yr.to] : [yr.to, yr.from];
      return a >= MIN_YEAR && b <= MAX_YEAR ? { len: 1, value: { from: yearSpan(a).from, to: yearSpan(b).to } } : null;
    }
    const between = has(lxs[i], 'between');
    const lead = between || has(lxs[i], 'from') ? 1 : 0;
    // A point followed by a range word is in a range ("may to june"): the ambiguous words are dates there.
    const a = this.point(lxs, i + lead, 'range');
    if (!a) return null;
    const j = i + lead + a.len;
    if (!(between ? has(lxs[j], 'and') : has(lxs[j], 'to'))) return null;
    const b = this.point(lxs, j + 1, 'range');
    if (!b) return null;
    const span = this.join(a.value, b.value);
    return span && inYears(span) ? { len: j + 1 + b.len - i, value: { from: span.from, to: span.to } } : null;
  }

  /** "since 2020", "until may 2021", "after easter", "before 2000". */
  private open(lxs: Lexeme[], i: number): Found<DateRange> | null {
    const kind = (['since', 'until', 'after', 'before'] as const).find((k) => has(lxs[i], k));
    if (!kind) return null;
    const p = this.point(lxs, i + 1, 'range');
    if (!p) return null;
    const s = this.resolve(p.value);
    if (!inYears(s)) return null;
    const value: DateRange = kind === 'since' ? { from: s.from } : kind === 'until' ? { to: s.to } : kind === 'after' ? { from: s.to + 1 } : { to: s.from - 1 };
    return { len: p.len + 1, value };
  }

  private join(a: Point, b: Point): Span | null {
    let end: Span;
    let start: Span;
    if (a.span && b.span) [start, end] = [a.span, b.span];
    else if (a.span) [start, end] = [a.span, this.firstEndingFrom(b.yearless!, a.span.from)];
    else if (b.span) [start, end] = [this.latestStartingBy(a.yearless!, b.span.from), b.span];
    else {
      end = this.resolve(b);
      start = this.latestStartingBy(a.yearless!, end.from);
    }
    if (start.from > end.to) [start, end] = [end, start];
    return { from: Math.min(start.from, end.from), to: Math.max(start.to, end.to) };
  }

  private latestStartingBy(f: (y: number) => Span, limit: Day): Span {
    let y = yearOf(limit) + 1;
    while (f(y).from > limit) y--;
    return f(y);
  }

  private firstEndingFrom(f: (y: number) => Span, limit: Day): Span {
    let y = yearOf(limit) - 1;
    while (f(y).to < limit) y++;
    return f(y);
  }

  /** A yearless point: its most recent occurrence that has begun. */
  private resolve(p: Point): Span {
    return p.span ?? this.latestStartingBy(p.yearless, this.ctx.today);
  }

  private point(lxs: Lexeme[], i: number, setting: Setting): Found<Point> | null {
    const found = [this.digits(lxs, i), this.calendarDate(lxs, i, setting), this.season(lxs, i, setting), this.holiday(lxs, i), this.relative(lxs, i)];
    let best: Found<Point> | null = null;
    for (const f of found) if (f && (!best || f.len > best.len)) best = f;
    return best;
  }

  /** "2023", "1990s", "2021-03-05", "2021-03". */
  private digits(lxs: Lexeme[], i: number): Found<Point> | null {
    const lx = lxs[i];
    const y = isYear(lx);
    if (y !== undefined) return { len: 1, value: { span: yearSpan(y) } };
    const iso = classOf(lx, 'isoDate');
    if (iso && iso.y >= MIN_YEAR && iso.y <= MAX_YEAR && isValidDay(iso.y, iso.m, iso.d)) {
      const d = dayOf(iso.y, iso.m, iso.d);
      return { len: 1, value: { span: { from: d, to: d } } };
    }
    const im = classOf(lx, 'isoMonth');
    if (im && im.y >= MIN_YEAR && im.y <= MAX_YEAR && im.m >= 1 && im.m <= 12) return { len: 1, value: { span: monthSpan(im.y, im.m) } };
    const dec = classOf(lx, 'decade');
    if (dec && dec.from >= MIN_YEAR && dec.from + 9 <= MAX_YEAR) return { len: 1, value: { span: { from: yearSpan(dec.from).from, to: yearSpan(dec.from + 9).to } } };
    return null;
  }

  /** Months and days: "may 2021", "2021 may", "march 5", "5th of march 2021", "in may". */
  private calendarDate(lxs: Lexeme[], i: number, setting: Setting): Found<Point> | null {
    const options: Found<Point>[] = [];
    const monthAt = (k: number) => classOf(lxs[k], 'month');
    // A day that does not exist ("february 30", "february 29 2023") makes the words no date at all.
    let noSuchDay = false;
    const withDay = (len: number, month: number, day: number, year: number | undefined) => {
      if (year !== undefined) {
        if (isValidDay(year, month, day)) options.push({ len, value: { span: { from: dayOf(year, month, day), to: dayOf(year, month, day) } } });
        else noSuchDay = true;
      } else if (!(day <= 29 || isValidDay(2001, month, day))) noSuchDay = true;
      else {
        // Without a year: any day the month can have (29 February reads as the 28th in a common year).
        options.push({ len, value: { yearless: (y) => dayInYear(y, month, day) } });
      }
    };
    const m0 = monthAt(i);
    if (m0) {
      // month [day] [year]
      const d = dayNumber(lxs[i + 1], lxs[i + 2]);
      if (d !== undefined) {
        const y = yearAfter(lxs, i + 2);
        withDay(2 + (y?.[1] ?? 0), m0.month, d, y?.[0]);
      }
      const y = yearAfter(lxs, i + 1);
      if (y) options.push({ len: 1 + y[1], value: { span: monthSpan(y[0], m0.month) } });
      if (!m0.ambiguous || setting !== 'alone') options.push({ len: 1, value: { yearless: (yy) => monthSpan(yy, m0.month) } });
    }
    // day [of] month [year]
    const d = dayNumber(lxs[i], lxs[i + 1]);
    if (d !== undefined) {
      const k = has(lxs[i + 1], 'of') ? i + 2 : i + 1;
      const m = monthAt(k);
      if (m) {
        const y = yearAfter(lxs, k + 1);
        withDay(k + 1 - i + (y?.[1] ?? 0), m.month, d, y?.[0]);
      }
    }
    // year month
    const y = isYear(lxs[i]);
    const m2 = monthAt(i + 1);
    if (y !== undefined && m2) options.push({ len: 2, value: { span: monthSpan(y, m2.month) } });
    return noSuchDay ? null : longest(options);
  }

  /** "summer 2022", "summer of 2022", "this summer", "last winter"; a bare season only in a range. */
  private season(lxs: Lexeme[], i: number, setting: Setting): Found<Point> | null {
    const { hemisphere, today } = this.ctx;
    const which = thisOrLast(lxs[i]);
    const s = classOf(lxs[which ? i + 1 : i], 'season');
    if (!s) return null;
    const f = (y: number) => seasonSpan(s.season, y, hemisphere);
    const y = yearOf(today);
    // "This summer": the one we are in, else the one beginning this calendar year.
    const current = [f(y), f(y - 1)].find((sp) => sp.from <= today && today <= sp.to) ?? f(y);
    return this.yearly(lxs, i, which, f, current, setting === 'range');
  }

  /** "christmas 2022", "2022 christmas", "easter", "last halloween", "this christmas". */
  private holiday(lxs: Lexeme[], i: number): Found<Point> | null {
    const which = thisOrLast(lxs[i]);
    const lead = isYear(lxs[i]);
    const h = classOf(lxs[which || lead !== undefined ? i + 1 : i], 'holiday');
    if (!h) return null;
    const { rule, before, after } = h.holiday;
    const f = (y: number): Span => {
      const a = holidayAnchor(rule, y);
      return { from: a - before, to: a + after };
    };
    if (lead !== undefined) return { len: 2, value: { span: f(lead) } };
    return this.yearly(lxs, i, which, f, f(yearOf(this.ctx.today)), true);
  }

  /** Something yearly after "this" or "last", with a year after it, or (when `alone` allows) by itself. */
  private yearly(lxs: Lexeme[], i: number, which: 'this' | 'last' | null, f: (y: number) => Span, current: Span, alone: boolean): Found<Point> | null {
    if (which === 'this') return { len: 2, value: { span: current } };
    if (which === 'last') {
      // The latest that has ended.
      let y = yearOf(this.ctx.today);
      while (f(y).to >= this.ctx.today) y--;
      return { len: 2, value: { span: f(y) } };
    }
    const y = yearAfter(lxs, i + 1);
    if (y) return { len: 1 + y[1], value: { span: f(y[0]) } };
    return alone ? { len: 1, value: { yearless: f } } : null;
  }

  /** "today", "yesterday", "this week", "last month", "last weekend", "past 3 days", "2 weeks ago". */
  private relative(lxs: Lexeme[], i: number): Found<Point> | null {
    const { today, weekStart } = this.ctx;
    const day = (d: Day): Found<Point> => ({ len: 1, value: { span: { from: d, to: d } } });
    if (has(lxs[i], 'today')) return day(today);
    if (has(lxs[i], 'yesterday')) return day(today - 1);
    const calendarUnit = (unit: Unit, d: Day): Span => {
      if (unit === 'day') return { from: d, to: d };
      if (unit === 'week') {
        const from = startOfWeek(d, weekStart);
        return { from, to: from + 6 };
      }
      const { y, m } = ymd(d);
      return unit === 'month' ? monthSpan(y, m) : yearSpan(y);
    };
    const which = thisOrLast(lxs[i]);
    if (which) {
      if (has(lxs[i + 1], 'weekend')) {
        // A Saturday and the Sunday after it, whichever day the week starts on. "This weekend" on a
        // weekday is the coming one; "last weekend" the latest one that has ended.
        let s = today - ((weekday(today) - 6 + 7) % 7);
        if (which === 'last' && s + 1 >= today) s -= 7;
        if (which === 'this' && s + 1 < today) s += 7;
        return { len: 2, value: { span: { from: s, to: s + 1 } } };
      }
      const unit = classOf(lxs[i + 1], 'unit');
      if (unit) {
        const current = calendarUnit(unit.unit, today);
        if (which === 'this') return { len: 2, value: { span: current } };
        return { len: 2, value: { span: calendarUnit(unit.unit, current.from - 1) } };
      }
      // "last 3 days", "past two weeks": up to today.
      const n = count(lxs[i + 1]);
      const u = classOf(lxs[i + 2], 'unit');
      if (which === 'last' && n !== undefined && u) {
        const from = back(today, u.unit, n) + 1;
        return Number.isFinite(from) ? { len: 3, value: { span: { from, to: today } } } : null;
      }
      return null;
    }
    // "3 days ago", "a week ago"
    const n = count(lxs[i]);
    const u = classOf(lxs[i + 1], 'unit');
    if (n !== undefined && u && has(lxs[i + 2], 'ago')) {
      const d = back(today, u.unit, n);
      return Number.isFinite(d) ? { len: 3, value: { span: calendarUnit(u.unit, d) } } : null;
    }
    return null;
  }
}

/** The day n units before `d`; not finite beyond two centuries (no photo is that old). */
function back(d: Day, unit: Unit, n: number): Day {
  const days = unit === 'day' ? n : unit === 'week' ? 7 * n : unit === 'month' ? 31 * n : 366 * n;
  if (days > 200 * 366) return Number.NaN;
  return unit === 'day' ? d - n : unit === 'week' ? d - 7 * n : addMonths(d, unit === 'month' ? -n : -12 * n);
}

/** Day `day` of `month` in year y; 29 February in a common year is the 28th. */
function dayInYear(y: number, month: number, day: number): Span {
  const d = isValidDay(y, month, day) ? dayOf(y, month, day) : dayOf(y, month, 28);
  return { from: d, to: d };
}

function longest<T>(xs: Found<T>[]): Found<T> | null {
  let best: Found<T> | null = null;
  for (const x of xs) if (!best || x.len > best.len) best = x;
  return best;
}
