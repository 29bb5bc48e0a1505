/**
 * The `ocr` channel: photos whose recognised text has the query's words (OcrStore.searchAllowed: strict,
 * then relaxed, ranked as searchOcrText ranks), within the allowed set (the caller's library as listed,
 * and the filter), which is applied to the matching lines before the ranking. Why: the line of text
 * that matched best, quoted.
 *
 * The allowed bitmap alone decides which lines count: it holds the caller's and their partners' photos in
 * the Trash state searched (in the Trash a search finds the text of trashed photos), so no SQL cut by owner or
 * Trash state is needed (each line carries its asset's rowid, 0023_ocr_line_asset_rowid.sql).
 */
import type { OcrStore } from '../../ocr/index.ts';
import { CHANNEL_CAP, isAllowed, quoted, type ChannelHit } from './channel.ts';
import { gradeIn, queryTerms, wordsFirst, type QueryTerm } from './words.ts';

/**
 * The recogniser runs words of a line together now and then (the WHO sign of the corpus reads
 * "Cleanhandswithsoap": 7 spaces lost), so in OCR text a term of RUN_TOGETHER_MIN characters or more
 * counts as a word wherever it occurs; shorter terms keep the word rule ("tel" is no word of "TITELSONG").
 */
const RUN_TOGETHER_MIN = 4;

function ocrGrade(line: string, term: QueryTerm): 0 | 1 | 2 {
  const g = gradeIn(line, term);
  return g !== 2 && [...term.text].length >= RUN_TOGETHER_MIN && line.includes(term.text) ? 2 : g;
}

/** Terms as words.ts reads them (little words dropped, words matched as words); strong: every term a word of the photo's text. */
export function ocrChannel(ocr: OcrStore, words: string[], allowed: Uint8Array): ChannelHit[] {
  const terms = queryTerms(words);
  const hits = ocr
    .searchAllowed(
      terms.map((t) => t.text),
      (line, i) => ocrGrade(line, terms[i]!),
      (rowid) => isAllowed(allowed, rowid),
      CHANNEL_CAP,
    )
    .map((h) => ({ rowid: h.rowid, rawScore: h.score, why: h.line ? `text ${quoted(h.line)}` : 'text in the photo', strong: h.whole_terms === terms.length }));
  return wordsFirst(terms, hits);
}
