/**
 * The `ocr` channel: photos whose recognised text has the query's words (OcrStore.searchAllowed: strict,
 * then relaxed, ranked as searchOcrText ranks), within the allowed set (the caller's library as listed,
 * and the filter), which is applied to the matching lines before the ranking. Why: the line of text
 * that matched best, quoted.
 *
 * Owners and the Trash are cut as in the filename and text channels (SEARCHED_OWNERS, `isDeleted`: in the
 * Trash a search finds the text of trashed photos); the allowed bitmap decides what is returned.
 */
import type { OcrStore } from '../../ocr/index.ts';
import { CHANNEL_CAP, isAllowed, quoted, type ChannelHit } from './channel.ts';
import { SEARCHED_OWNERS } from './owners.ts';

export function ocrChannel(ocr: OcrStore, userId: number, isDeleted: boolean, text: string, allowed: Uint8Array): ChannelHit[] {
  return ocr
    .searchAllowed(text, { ownersSql: SEARCHED_OWNERS, me: userId, isDeleted }, (rowid) => isAllowed(allowed, rowid), CHANNEL_CAP)
    .map((h) => ({ rowid: h.rowid, rawScore: h.score, why: h.line ? `text ${quoted(h.line)}` : 'text in the photo' }));
}
