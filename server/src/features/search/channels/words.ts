/**
 * How the words channels (filename, ocr, text) match a query's words, one rule for all of them
 * (issue 24: "dog on a beach" found every line with "on" and "a" in it; "Tel Aviv" found "TITELSONG").
 *
 * - Little words (the English stop words below: the UI speaks English) are dropped when the query has
 *   other words: "dog on a beach" searches "dog" and "beach". A query of little words only keeps them.
 * - A term matches as a WORD: where it starts and ends, the text has no letter or digit (or turns from
 *   letters to digits: "DSCN0012" holds the words "dscn" and "0012"; "_" and "." are boundaries, so
 *   "DJI_FLIR" is a word of "DJI_FLIR_0001.jpg"). An English plural ending ("s", "es") may follow.
 * - Only a query of one term of three characters or more that is not a little word is also found inside
 *   longer words ("0012", "flir"): a file name or a sign is often searched by a piece of it. Such a
 *   match is weak: it is a result, never a "best result", and a channel lists it only when it found the
 *   term as a word nowhere (`wordsFirst`: "exif" lists no_exif.jpg, not every exiforg_*.jpg). Terms of
 *   two characters or fewer and the words of a phrase never match inside other words.
 * - Scripts written without spaces (Chinese, Japanese, Korean, Thai…) have no word boundaries to look
 *   for: a term in them matches wherever it occurs ("禁止" in "ポイ捨て禁止!"), as a word.
 *
 * A match's grade: 2 as a word, 1 inside a word (only for a loose term), 0 none. A hit whose asset has
 * every term as a word is a strong match (channel.ts `strong`).
 */

/** Words too common to search for on their own, in the UI's language. */
export const LITTLE_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'on', 'in', 'at', 'to', 'for', 'with', 'by', 'from', 'into', 'onto',
  'is', 'are', 'was', 'be', 'it', 'its', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'me', 'us',
  'some', 'any', 'all', 'near', 'under', 'over', 'as', 'but', 'not', 'no',
]);

export interface QueryTerm {
  /** NFKC, lower case. */
  text: string;
  /** May also be found inside a longer word (a weak match). */
  loose: boolean;
}

/** Shortest term that may be found inside longer words. */
const LOOSE_MIN_CHARS = 3;

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/** The terms the words channels look for, from the query's words (channel.ts queryWords). */
export function queryTerms(words: readonly string[]): QueryTerm[] {
  const kept = words.filter((w) => !LITTLE_WORDS.has(w));
  const terms = kept.length ? kept : [...words];
  const alone = terms.length === 1;
  return terms.map((text) => ({ text, loose: alone && [...text].length >= LOOSE_MIN_CHARS && !LITTLE_WORDS.has(text) }));
}

/** A lone loose term's matches inside words are dropped when the channel found it as a word somewhere. */
export function wordsFirst<H extends { strong?: boolean | undefined }>(terms: readonly QueryTerm[], hits: H[]): H[] {
  return terms.length === 1 && terms[0]!.loose && hits.some((h) => h.strong) ? hits.filter((h) => h.strong) : hits;
}

const kindOf = (c: string | undefined): 'letter' | 'digit' | 'other' => (c === undefined ? 'other' : LETTER.test(c) ? 'letter' : DIGIT.test(c) ? 'digit' : 'other');

/** Whether the text turns from one word to another between `a` (before) and `b` (after). */
function boundary(a: string | undefined, b: string | undefined): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  return ka === 'other' || kb === 'other' || ka !== kb;
}

/** How `term` occurs in `lower` (text in lower case, NFKC): 2 as a word, 1 inside a word (loose terms only), 0 not. */
export function gradeIn(lower: string, term: QueryTerm): 0 | 1 | 2 {
  const t = term.text;
  if (t === '') return 0;
  let at = lower.indexOf(t);
  if (at < 0) return 0;
  if (UNSPACED.test(t)) return 2;
  const chars = (s: string) => [...s];
  const first = chars(t)[0];
  const last = chars(t).at(-1);
  while (at >= 0) {
    const before = chars(lower.slice(Math.max(0, at - 2), at)).at(-1);
    const end = at + t.length;
    if (boundary(before, first)) {
      const after = chars(lower.slice(end, end + 3));
      if (boundary(last, after[0])) return 2;
      // A plural ending: "beach" in "beaches", "dog" in "dogs".
      const plural = after[0] === 's' ? 1 : after[0] === 'e' && after[1] === 's' ? 2 : 0;
      if (plural && boundary('s', after[plural])) return 2;
    }
    at = lower.indexOf(t, at + 1);
  }
  return term.loose ? 1 : 0;
}
