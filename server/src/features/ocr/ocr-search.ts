/**
 * How the OCR text channel reads a query and ranks assets (the store finds the lines, ocr.store.ts).
 *
 * Terms: the query NFKC-normalised like the stored text (full-width "ＥＸＩＴ" finds "EXIT") and split on white
 * space; quotes are ordinary characters. Matching is case-insensitive for Latin letters.
 *
 * Score of an asset: for each term, its best line's `coverage × confidence`, where coverage is the share of
 * the line's characters the term makes up (a sign that says just "禁止" outranks a paragraph that mentions it
 * once), summed over the terms found. Assets having every term come first (strict match); when none has them
 * all, assets with some answer (relaxed), those with more terms first. Ties: the asset id, so the order is stable.
 * The rank is what the hybrid search fuses (reciprocal rank), the score is shown in its debug answer.
 */

export interface LineHit {
  asset_id: string;
  text: string;
  confidence: number;
}

export interface OcrSearchHit {
  asset_id: string;
  /** 1 for the best match. */
  rank: number;
  score: number;
  /** How many of the query's terms the asset's text has. */
  matched_terms: number;
}

/** At most this many terms are searched (a pasted paragraph is not a query; the rest is ignored). */
export const MAX_TERMS = 16;
/** A term is cut to this many characters (no line of a photo is longer; a 10,000-character "word" is not text to find). */
export const MAX_TERM_CHARS = 256;

export function queryTerms(query: string): string[] {
  const terms = query
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/u)
    .filter(Boolean)
    .map((t) => [...t].slice(0, MAX_TERM_CHARS).join(''));
  return [...new Set(terms)].slice(0, MAX_TERMS);
}

function coverage(term: string, text: string): number {
  const chars = [...text].length;
  return chars === 0 ? 0 : Math.min(1, [...term].length / chars);
}

export function rankAssets(terms: readonly string[], perTerm: readonly LineHit[][], limit: number): OcrSearchHit[] {
  const byAsset = new Map<string, { score: number; matched: number }>();
  perTerm.forEach((hits, i) => {
    const best = new Map<string, number>();
    for (const h of hits) {
      // The index matched the term case-insensitively; confirm on the text as stored (trigram and LIKE agree).
      if (!h.text.toLowerCase().includes(terms[i]!)) continue;
      const s = coverage(terms[i]!, h.text) * h.confidence;
      if (s > (best.get(h.asset_id) ?? -1)) best.set(h.asset_id, s);
    }
    for (const [asset, s] of best) {
      const entry = byAsset.get(asset) ?? { score: 0, matched: 0 };
      entry.score += s;
      entry.matched += 1;
      byAsset.set(asset, entry);
    }
  });
  let rows = [...byAsset].map(([asset_id, e]) => ({ asset_id, score: e.score, matched: e.matched }));
  const strict = rows.filter((r) => r.matched === terms.length);
  if (strict.length) rows = strict;
  rows.sort((a, b) => b.matched - a.matched || b.score - a.score || (a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : 0));
  return rows.slice(0, limit).map((r, i) => ({ asset_id: r.asset_id, rank: i + 1, score: Math.round(r.score * 1e6) / 1e6, matched_terms: r.matched }));
}
