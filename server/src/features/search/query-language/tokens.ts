/**
 * Words of a query with their place in the text. A word is a run of letters, digits and marks,
 * held together by one inner `.`, `'`, `-`, `–`, `/` or `&` ("f/1.8", "24-70mm", "2019-2021",
 * "new year's"), with an optional trailing `+` ("4+"); a lone `&` is a word too ("march & june").
 * Everything else (spaces, commas, quotes, brackets, emoji) separates words and stays in the rest
 * only as part of the text around words that were not understood.
 *
 * Matching compares normalised words: NFKC (full-width digits and letters become plain), lower
 * case without the locale, curly apostrophes straight. The pattern has no nested repetition that
 * could backtrack: each inner joiner must be followed by a letter or digit.
 */
export interface Token {
  /** Normalised word. */
  norm: string;
  /** UTF-16 offsets in the original text, end exclusive. */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}\p{M}]+(?:[.'’\-–/&][\p{L}\p{N}\p{M}]+)*\+?|&/gu;

export function normalise(word: string): string {
  return word.normalize('NFKC').toLowerCase().replace(/[’‘`´]/g, "'").replace(/–/g, '-');
}

export function tokenise(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) out.push({ norm: normalise(m[0]), start: m.index, end: m.index + m[0].length });
  return out;
}

/** A phrase of the grammar or the catalog as the normalised words a query must hold. */
export function phraseWords(phrase: string): string[] {
  return tokenise(phrase).map((t) => t.norm);
}
