/**
 * The `filename` channel: files whose original name has the query's terms (case ignored; words.ts: as
 * words, little words dropped, a lone term also inside a word), ranked by how well the name has them (a
 * term as a word counts 1, inside a word ½; the whole query as typed, one more), then newest capture
 * first, as the reference orders filename matches. Strong: every term is a word of the name.
 *
 * Words of three characters or more are looked up in the trigram index over file names (migration
 * 0019_search_words_fts.sql): the cost follows the names that match, not the size of the library. Shorter
 * words cannot use trigrams and are read with LIKE over the owner's file-name index (a scan, bounded by
 * the cap; a one- or two-letter word is rarely what a person searches a file name for).
 */
import type { Db } from '../../../platform/db/connection.ts';
import { CHANNEL_CAP, TRIGRAM, containsLike, isAllowed, matchAny, type ChannelHit } from './channel.ts';
import { SEARCHED_OWNERS } from './owners.ts';
import { gradeIn, queryTerms, wordsFirst, type QueryTerm } from './words.ts';
import { prepared } from '../../../platform/db/prepared.ts';

type Row = [rowid: number, name: string, t: number];

/**
 * A term in a file name: as a word of the name without its extension ("jpg" is a word of every JPEG's
 * name, and says nothing about this one: the file type filter is for that), or the name typed with its
 * extension ("DSCN0012.jpg"); a term found only in the extension counts as inside a word.
 */
function nameGrade(lower: string, term: QueryTerm): 0 | 1 | 2 {
  const dot = lower.lastIndexOf('.');
  const stem = dot > 0 ? lower.slice(0, dot) : lower;
  const g = gradeIn(stem, term);
  if (g === 2 || stem === lower) return g;
  const full = gradeIn(lower, term);
  if (full === 2 && term.text.includes('.')) return 2;
  return g === 1 || (full > 0 && term.loose) ? 1 : 0;
}

export function filenameChannel(db: Db, userId: number, isDeleted: boolean, text: string, queryWords: string[], allowed: Uint8Array): ChannelHit[] {
  if (queryWords.length === 0) return [];
  const terms = queryTerms(queryWords);
  const words = terms.map((t) => t.text);
  const base = { me: userId, del: isDeleted ? 1 : 0, cap: CHANNEL_CAP * 4 };
  const long = words.filter((w) => [...w].length >= TRIGRAM);
  const short = words.filter((w) => [...w].length < TRIGRAM);
  const rows = new Map<number, Row>();
  if (long.length) {
    // CROSS JOIN keeps this order: the index's matches first, then their asset rows by rowid.
    const found = prepared(
      db,
      `SELECT a.rowid, a.original_filename, coalesce(a.taken_time, a.upload_time) FROM assets_words_fts f CROSS JOIN assets a ON a.rowid = f.rowid
          WHERE assets_words_fts MATCH @match AND a.owner_id IN ${SEARCHED_OWNERS} AND a.is_deleted = @del LIMIT @cap`,
    )
      .raw()
      .all({ ...base, match: matchAny('original_filename', long) }) as Row[];
    for (const r of found) rows.set(r[0], r);
  }
  if (short.length) {
    const params: Record<string, unknown> = { ...base };
    short.forEach((w, i) => (params[`w${i}`] = containsLike(w)));
    const found = prepared(
      db,
      `SELECT a.rowid, a.original_filename, coalesce(a.taken_time, a.upload_time) FROM assets a
          WHERE a.owner_id IN ${SEARCHED_OWNERS} AND a.is_deleted = @del AND (${short.map((_, i) => `a.original_filename LIKE @w${i} ESCAPE '\\'`).join(' OR ')})
          LIMIT @cap`,
    )
      .raw()
      .all(params) as Row[];
    for (const r of found) rows.set(r[0], r);
  }
  const phrase = text.trim().toLowerCase();
  const hits: { rowid: number; rawScore: number; t: number; strong: boolean }[] = [];
  for (const [rowid, name, t] of rows.values()) {
    if (!isAllowed(allowed, rowid)) continue;
    const lower = name.normalize('NFKC').toLowerCase();
    const grades = terms.map((term) => nameGrade(lower, term));
    const n = grades.reduce<number>((sum, g) => sum + g / 2, 0);
    if (n === 0) continue;
    const strong = grades.every((g) => g === 2);
    hits.push({ rowid, rawScore: n + (strong && queryWords.length > 1 && lower.includes(phrase) ? 1 : 0), t, strong });
  }
  hits.sort((x, y) => y.rawScore - x.rawScore || y.t - x.t || x.rowid - y.rowid);
  return wordsFirst(terms, hits).map(({ rowid, rawScore, strong }) => ({ rowid, rawScore, why: 'filename', strong }));
}
