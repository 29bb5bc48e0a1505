/**
 * Plain-language queries, offline: `parseQuery("beach videos from last summer", context)` turns the
 * parts it understands into queryAssets' asset filter and leaves the rest of the text to the search
 * channels. Pure and deterministic: the same text and context always give the same answer; no
 * model, no I/O, no clock (today comes from the context). Any string is accepted: words that are
 * not understood are the rest, never an error.
 *
 * How a query is read:
 * 1. Words are grouped into the longest phrases the grammar or the catalog knows (lexicon.ts).
 * 2. From the left, at each word the longest rule that matches wins (dates.ts, rules.ts); on equal
 *    length the earlier rule (QueryParser's list: catalog names first). A word no rule takes stays
 *    for the rest.
 * 3. Parts that contradict an earlier part (a second date, a second rating, RAW after live photo,
 *    another camera) are not understood: their words stay in the rest, the first part counts.
 *    Media types add up ("photos and videos" is both); tags add up.
 * 4. Stop words ("from", "in", "with", "my"…) are dropped only when they lead an understood part
 *    ("videos from 2023") or trail one at the very end ("videos from"); between words that are not
 *    understood they stay ("dog in the snow"). An understood part's words include its stop words,
 *    so removing its chip removes them too.
 * 5. The rest is the text between understood parts, in order, with the separators next to a
 *    removed part (", ") and pieces of punctuation only dropped; white space and control
 *    characters are collapsed to one space.
 *
 * Ambiguity rules, all in one place (the code that applies them: dates.ts, rules.ts, lexicon.ts):
 * - A bare number is a year only with four digits in 1900–2100 ("2023 beach": year, rest "beach";
 *   "route 66" and "1850" stay words). A number before "stars" is a rating, never a day.
 * - "may", "march" and other month words the grammar marks ambiguous are months only after
 *   "in"/"during"/"from", next to a year or a day, or in a range ("may to june", "since march").
 *   Unambiguous month names ("august") are months alone.
 * - Without a year, a month, day or holiday is its latest occurrence that has begun ("in may" asked
 *   in July 2025 is May 2025, asked in March 2026 it is May 2025); "last christmas" the latest that
 *   has ended; "this christmas" the one of this calendar year.
 * - A season needs "this", "last" or a year; alone ("beach summer") it is a word for the search.
 *   Seasons are meteorological (whole months) by hemisphere; a season is named by the year it
 *   begins in ("winter 2022" is December 2022 – February 2023 in the north).
 * - In a range a point without a year takes it from the other end ("between march and june 2020");
 *   ends the wrong way round are swapped ("2021 to 2019").
 * - A day that does not exist ("february 30", "february 29 2023") is no date; a year after it
 *   still is a year.
 * - Catalog names (camera makes, models, lenses) match whole words, ignoring case, the longest name
 *   first ("canon eos 40d" is the model, not the make "canon"; "eos" alone is nothing); on the
 *   very same words a catalog name wins over a grammar word. Names the grammar lists as ordinary
 *   words ("apple") are cameras only after "with", "on", "shot on"….
 * - A place (a town, region or country of the caller's photos) is a location filter only after "in",
 *   "at", "near"… ("beach in Lisbon"); alone ("Lisbon") it is a word for the search's place channel.
 *   A date wins "in may" over a place called May: the date rule comes first on equal length.
 * - "a"/"an" count one before a unit ("a week ago") and nowhere else ("a star" is a word).
 *
 * The date filter's days are days in `context.timeZone`: send it as `viewer_timezone` with the
 * filter (the answer repeats it).
 */
import { todayIn } from './calendar.ts';
import { DateReader } from './dates.ts';
import { en } from './grammar.en.ts';
import type { Grammar } from './grammar.ts';
import type { AssetFilter } from './filter.ts';
import { has, Lexicon, type Catalog, type Lexeme } from './lexicon.ts';
import { catalogRule, dateRule, favouriteRule, fileTypeRule, mediaRule, placeRule, ratingRule, type Match, type PartKind, type Rule } from './rules.ts';

export interface QueryContext extends Catalog {
  /** The instant the query is asked at (tests fix it). */
  now: Date | number;
  /** The viewer's IANA time zone: "today" and the filter's days are read there. */
  timeZone: string;
  /** Seasons: northern (the default) or southern ("summer" is December–February). */
  hemisphere?: 'northern' | 'southern' | undefined;
  /** First day of the week for "this/last week": Monday (the default, ISO 8601) or Sunday. */
  weekStartsOn?: 'monday' | 'sunday' | undefined;
  /** The language's words (grammar.en.ts when absent). */
  grammar?: Grammar | undefined;
}

export interface ParsedPart {
  kind: PartKind;
  /** The words it came from, stop words it took included, as typed. */
  text: string;
  /** UTF-16 offsets in the query, end exclusive. */
  start: number;
  end: number;
  /** What this part adds to the filter. */
  filter: AssetFilter;
}

export interface ParsedQuery {
  filter: AssetFilter;
  /** The words left for the search channels, in order. */
  rest: string;
  parsed: ParsedPart[];
  /** The zone the filter's days are in: queryAssets' `viewer_timezone`. */
  viewer_timezone: string;
}

interface Part extends Match {
  first: number;
  end: number;
}

export function parseQuery(text: string, context: QueryContext): ParsedQuery {
  return new QueryParser(context).parse(text);
}

/** A parser for one context (catalog, today): reuse it for several queries. */
export class QueryParser {
  private readonly lexicon: Lexicon;
  private readonly rules: Rule[];
  private readonly timeZone: string;

  constructor(context: QueryContext) {
    const now = typeof context.now === 'number' ? context.now : context.now.getTime();
    if (!Number.isFinite(now)) throw new RangeError('context.now must be a valid instant');
    this.timeZone = context.timeZone;
    const today = todayIn(now, context.timeZone); // throws RangeError for a zone the runtime does not know
    this.lexicon = Lexicon.of(context.grammar ?? en, context);
    const reader = new DateReader({ today, hemisphere: context.hemisphere ?? 'northern', weekStart: context.weekStartsOn === 'sunday' ? 0 : 1 });
    // On equal length the earlier rule wins: a catalog name the grammar also knows is the catalog's.
    this.rules = [catalogRule, dateRule(reader), ratingRule, mediaRule, favouriteRule, fileTypeRule, placeRule];
  }

  parse(input: string): ParsedQuery {
    return this.parseIgnoring(input, new Set()).query;
  }

  /**
   * As `parse`, with each part's id, and without the parts whose id is in `ignore` (chips the user
   * removed: their words stay in the rest, and a part they had hidden may count instead). An id names
   * the part's kind and the words the rule matched (`date:9-18`, UTF-16 offsets, stop words not
   * included), so it stays the same whichever other parts are ignored.
   */
  parseIgnoring(input: string, ignore: ReadonlySet<string>): { query: ParsedQuery; ids: string[] } {
    const text = typeof input === 'string' ? input : '';
    const lxs = this.lexicon.lex(text);
    const ids = new Map<Part, string>();
    const matched = this.match(lxs).filter((p) => {
      const id = `${p.kind}:${lxs[p.first]!.start}-${lxs[p.end - 1]!.stop}`;
      ids.set(p, id);
      return !ignore.has(id);
    });
    const parts = accept(matched);
    attachStopWords(parts, lxs);
    return { query: this.shape(text, lxs, parts), ids: parts.map((p) => ids.get(p)!) };
  }

  private shape(text: string, lxs: Lexeme[], parts: Part[]): ParsedQuery {
    return {
      filter: combine(parts),
      rest: restOf(text, parts.map((p) => [lxs[p.first]!.start, lxs[p.end - 1]!.stop])),
      parsed: parts.map((p) => {
        const start = lxs[p.first]!.start;
        const end = lxs[p.end - 1]!.stop;
        return { kind: p.kind, text: text.slice(start, end), start, end, filter: p.filter };
      }),
      viewer_timezone: this.timeZone,
    };
  }

  private match(lxs: Lexeme[]): Part[] {
    const parts: Part[] = [];
    for (let i = 0; i < lxs.length; ) {
      let best: Match | null = null;
      for (const rule of this.rules) {
        const m = rule(lxs, i);
        if (m && m.len > 0 && (!best || m.len > best.len)) best = m;
      }
      if (best) {
        parts.push({ ...best, first: i, end: i + best.len });
        i += best.len;
      } else i++;
    }
    return parts;
  }
}

// ------------------------------------------------------------------ combining parts

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Filter fields that hold one value: a second, different value contradicts the first. */
const SINGLE: readonly (keyof AssetFilter)[] = ['date', 'liked', 'media_item', 'filename', 'camera_make', 'camera_model', 'lens', 'location'];

/** The parts that do not contradict an earlier one (step 3). */
function accept(parts: Part[]): Part[] {
  const kept: Part[] = [];
  const seen: AssetFilter = {};
  for (const p of parts) {
    const f = p.filter;
    const clash =
      SINGLE.some((k) => f[k] !== undefined && seen[k] !== undefined && !same(f[k], seen[k])) ||
      // One rating: exact or at least, not both, not two.
      ((f.rating !== undefined || f.rating_min !== undefined) && (seen.rating !== undefined || seen.rating_min !== undefined) && !(same(f.rating, seen.rating) && same(f.rating_min, seen.rating_min)));
    if (clash) continue;
    Object.assign(seen, f);
    kept.push(p);
  }
  return kept;
}

function combine(parts: Part[]): AssetFilter {
  const filter: AssetFilter = {};
  const types: NonNullable<AssetFilter['type']>[] = [];
  const tags: string[] = [];
  const people: number[] = [];
  for (const { filter: f } of parts) {
    for (const [k, v] of Object.entries(f) as [keyof AssetFilter, unknown][]) {
      if (k === 'type') {
        if (!types.includes(v as never)) types.push(v as never);
      } else if (k === 'person_ids') {
        // "Anna and Ben": photos with both.
        for (const id of v as number[]) if (!people.includes(id)) people.push(id);
      } else if (k === 'tag_names') {
        for (const t of v as string[]) if (!tags.includes(t)) tags.push(t);
      } else (filter as Record<string, unknown>)[k] = structuredClone(v);
    }
  }
  if (types.length === 1) filter.type = types[0];
  else if (types.length > 1) filter.types = types;
  if (tags.length) filter.tag_names = tags;
  if (people.length) filter.person_ids = people;
  return filter;
}

// ------------------------------------------------------------------ stop words and the rest

/**
 * Step 4: runs of stop words lead the part after them, or trail the last part at the end of the
 * query; an "and" between two parts leads the second ("photos and videos").
 */
function attachStopWords(parts: Part[], lxs: Lexeme[]): void {
  const startsAt = new Map(parts.map((p) => [p.first, p]));
  const endsAt = new Map(parts.map((p) => [p.end, p]));
  for (const p of parts) {
    const before = p.first - 1;
    if (before > 0 && has(lxs[before], 'and') && endsAt.has(before) && !startsAt.has(before)) {
      startsAt.delete(p.first);
      p.first = before;
      startsAt.set(before, p);
    }
  }
  const taken = new Set(parts.flatMap((p) => Array.from({ length: p.end - p.first }, (_, k) => p.first + k)));
  for (let a = 0; a < lxs.length; ) {
    if (taken.has(a) || !lxs[a]!.stopOnly) {
      a++;
      continue;
    }
    let b = a;
    while (b < lxs.length && !taken.has(b) && lxs[b]!.stopOnly) b++;
    const next = startsAt.get(b);
    const previous = endsAt.get(a);
    if (next) next.first = a;
    else if (previous && b === lxs.length) previous.end = b;
    a = b;
  }
}

const SEPARATOR = /[\s,;:.!?·–—-]/;
const PUNCTUATION_ONLY = /^[\s\p{P}\p{Cc}]*$/u;

/** White space and control characters (NUL, escapes): one space in the rest, none at its ends. */
const tidy = (s: string) => s.replace(/[\s\p{Cc}]+/gu, ' ').trim();

/** Step 5: the text outside the understood parts ([start, end) ranges, in order). */
function restOf(text: string, taken: [number, number][]): string {
  if (taken.length === 0) return tidy(text);
  const pieces: string[] = [];
  let at = 0;
  for (const [start, end] of [...taken, [text.length, text.length] as [number, number]]) {
    // Separators go only where the piece meets a removed part: the query's own edges keep theirs.
    let from = at;
    let to = start;
    if (at > 0) while (from < to && SEPARATOR.test(text[from]!)) from++;
    if (start < text.length) while (to > from && SEPARATOR.test(text[to - 1]!)) to--;
    const piece = text.slice(from, to);
    if (!PUNCTUATION_ONLY.test(piece)) pieces.push(tidy(piece));
    at = end;
  }
  return pieces.join(' ');
}
