/**
 * The shape of one language's words for the query parser. A language is a plain table
 * (grammar.en.ts is the English one): copy it, translate the words, keep the keys and the
 * language-neutral values (month numbers, filter values, tag names), and pass it to parseQuery.
 *
 * Every entry is a phrase of one or more words, written as a person types it; case, width
 * (NFKC) and curly apostrophes do not matter. Word ORDER is the matching code's business
 * (match.ts, dates.ts): it accepts both "may 2021" and "2021 may", "5 march" and "march 5".
 */
import type { AssetFilter } from './filter.ts';

export type Season = 'spring' | 'summer' | 'autumn' | 'winter';
export type Unit = 'day' | 'week' | 'month' | 'year';

/** A holiday as a span of days around an anchor day of the year it is named by. */
export type HolidayRule =
  | { anchor: 'fixed'; month: number; day: number }
  /** Easter Sunday (anonymous Gregorian algorithm). */
  | { anchor: 'easter' }
  /** The n-th given weekday (0 Sunday … 6 Saturday) of a month; n = -1 is the last one. */
  | { anchor: 'weekday'; month: number; weekday: number; n: number };

export interface Holiday {
  names: readonly string[];
  rule: HolidayRule;
  /** Days before / after the anchor that belong to it (Christmas: the 24th to the 26th). */
  before: number;
  after: number;
}

export interface Grammar {
  language: string;
  /**
   * Little words dropped only when they lead an understood part ("from 2023", "with my canon") or
   * dangle after one at the end of the query ("videos from"); elsewhere they stay in the rest.
   */
  stopWords: readonly string[];
  /** Words that make an ambiguous month word a month ("in may", "during march"); range words do so anyway. */
  monthIntroducers: readonly string[];
  /** January … December, each with its other spellings. */
  months: readonly (readonly string[])[];
  /** Month words that are also ordinary words ("may", "march", "jan"): a month only with an introducer, a year, a day or a range. */
  ambiguousMonthWords: readonly string[];
  /** Ordinal endings after a day number ("5th", "1st"). */
  ordinalSuffixes: readonly string[];
  seasons: Readonly<Record<Season, readonly string[]>>;
  holidays: readonly Holiday[];
  /** "this summer", "this week". */
  thisWords: readonly string[];
  /** "last summer", "last week", "past 3 days". */
  lastWords: readonly string[];
  today: readonly string[];
  yesterday: readonly string[];
  weekend: readonly string[];
  units: Readonly<Record<Unit, readonly string[]>>;
  /** "3 days ago". */
  agoWords: readonly string[];
  /** Decades: the ending after the year ("1990s"). */
  decadeSuffixes: readonly string[];
  /** "between … and …". */
  betweenWords: readonly string[];
  andWords: readonly string[];
  /** "from … to …" (the leading word is optional, and also a stop word). */
  fromWords: readonly string[];
  toWords: readonly string[];
  /** Open ranges: from the start of the point on / up to its end / after its end / before its start. */
  sinceWords: readonly string[];
  untilWords: readonly string[];
  afterWords: readonly string[];
  beforeWords: readonly string[];
  /** "of" between a season or day and a year ("summer of 2022", "5th of may"). */
  ofWords: readonly string[];
  /** Media types, and the filter part each stands for. */
  media: readonly { words: readonly string[]; kind: 'media_type' | 'live_photo' | 'screenshot'; filter: AssetFilter }[];
  favourites: readonly string[];
  /** Rating: "5 stars", "4+ stars", "at least 3 stars", "3 stars or more", "unrated". */
  starWords: readonly string[];
  atLeastWords: readonly string[];
  orMoreWords: readonly string[];
  ratedWords: readonly string[];
  unratedWords: readonly string[];
  /** Numbers written as words (ratings, "last three days"). */
  numberWords: Readonly<Record<string, number>>;
  /** Words for "one" before a unit only ("a week ago"). */
  articles: readonly string[];
  fileTypes: readonly { words: readonly string[]; filter: AssetFilter }[];
  /** Single words that are camera makes or models but mostly mean something else ("apple"): a camera only after one of `cameraIntroducers`. */
  ordinaryCameraWords: readonly string[];
  cameraIntroducers: readonly string[];
  /** Words before a place name that make it a location filter ("in Lisbon"); a place name alone is a word for the search. */
  placeIntroducers: readonly string[];
}
