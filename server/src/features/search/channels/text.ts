/**
 * The `text` channel: the words a person wrote about their photos, the description, the tags and the
 * names of the albums the caller can see (their own and those shared with them). Every query term
 * (words.ts: little words dropped, terms found as words, a lone term also inside a word at half the
 * count) is looked up: a tag equal to the term counts 1, a tag having it 0.7, a description having it
 * 0.8, an album whose name has it 0.6 (a photo is in an album for many reasons); the sum ranks,
 * ties by rowid. Why: "tag 'beach'", "album 'Summer'", "description". Strong: the photo's words (its
 * tags, description and albums together) have every term as a word.
 *
 * Tags written by a model (`zeroshot`, `bioclip`) are not a person's words, but they name what is in
 * the photo, so they count too; the hit says which tag.
 */
import type { Db } from '../../../platform/db/connection.ts';
import { CHANNEL_CAP, TRIGRAM, containsLike, isAllowed, matchAny, quoted, type ChannelHit } from './channel.ts';
import { SEARCHED_OWNERS } from './owners.ts';
import { prepared } from '../../../platform/db/prepared.ts';
import { gradeIn, queryTerms, wordsFirst, type QueryTerm } from './words.ts';

interface Found {
  score: number;
  why: string[];
  /** The terms found as words. */
  whole: Set<number>;
}

export function textChannel(db: Db, userId: number, isDeleted: boolean, queryWords: string[], allowed: Uint8Array): ChannelHit[] {
  if (queryWords.length === 0) return [];
  const terms: QueryTerm[] = queryTerms(queryWords);
  const words = terms.map((t) => t.text);
  const found = new Map<number, Found>();
  /** Term `i` in `text` (a tag, a description, an album's name): its count by the grade, 0 when not there. */
  const add = (rowid: number, i: number, text: string, score: number, why: string) => {
    if (!isAllowed(allowed, rowid)) return;
    const g = gradeIn(text.normalize('NFKC').toLowerCase(), terms[i]!);
    if (g === 0) return;
    let f = found.get(rowid);
    if (!f) found.set(rowid, (f = { score: 0, why: [], whole: new Set() }));
    f.score += (score * g) / 2;
    if (g === 2) f.whole.add(i);
    if (!f.why.includes(why) && f.why.length < 3) f.why.push(why);
  };
  const del = isDeleted ? 1 : 0;
  const tagRows = prepared(
    db,
    // CROSS JOIN keeps this order: the few tags whose name has the word, their assets, then those rows
    // (left to itself SQLite may walk every asset of the owner and probe each one's tags). The assets are
    // probed in the covering index assets_id_list (asset_id, owner_id, is_deleted; its entries carry the
    // rowid): a tag on thousands of photos never reads their rows.
    `SELECT a.rowid, t.tag_name FROM tags t CROSS JOIN asset_tags x INDEXED BY asset_tags_tag ON x.tag_id = t.tag_id CROSS JOIN assets a INDEXED BY assets_id_list ON a.asset_id = x.asset_id
      WHERE t.tag_name LIKE @like ESCAPE '\\' AND a.owner_id IN ${SEARCHED_OWNERS} AND a.is_deleted = @del LIMIT @cap`,
  );
  const albumRows = prepared(
    db,
    `SELECT a.rowid, al.album_name FROM albums al CROSS JOIN album_assets x ON x.album_id = al.album_id CROSS JOIN assets a INDEXED BY assets_id_list ON a.asset_id = x.asset_id
      WHERE (al.owner_id = @me OR al.album_id IN (SELECT album_id FROM album_members WHERE user_id = @me))
        AND al.album_name LIKE @like ESCAPE '\\' AND a.is_deleted = @del LIMIT @cap`,
  );
  // Descriptions: words of three characters or more from the trigram index (0019_search_words_fts.sql), in
  // proportion to the descriptions that match; shorter words with LIKE over the described rows (partial index, 0018).
  const long = words.filter((w) => [...w].length >= TRIGRAM);
  const short = words.filter((w) => [...w].length < TRIGRAM);
  const described = new Map<number, string>();
  if (long.length) {
    const rows = prepared(
      db,
      `SELECT a.rowid, a.description FROM assets_words_fts f CROSS JOIN assets a ON a.rowid = f.rowid
          WHERE assets_words_fts MATCH @match AND a.owner_id IN ${SEARCHED_OWNERS} AND a.is_deleted = @del LIMIT @cap`,
    )
      .raw()
      .all({ match: matchAny('description', long), del, me: userId, cap: CHANNEL_CAP * 4 }) as [number, string][];
    for (const [rowid, text] of rows) described.set(rowid, text);
  }
  if (short.length) {
    const wordParams = Object.fromEntries(short.map((w, i) => [`w${i}`, containsLike(w)]));
    const rows = prepared(
      db,
      `SELECT a.rowid, a.description FROM assets a INDEXED BY assets_described WHERE a.owner_id IN ${SEARCHED_OWNERS} AND a.is_deleted = @del AND a.description IS NOT NULL
           AND (${short.map((_, i) => `a.description LIKE @w${i} ESCAPE '\\'`).join(' OR ')}) LIMIT @cap`,
    )
      .raw()
      .all({ ...wordParams, del, me: userId, cap: CHANNEL_CAP * 4 }) as [number, string][];
    for (const [rowid, text] of rows) described.set(rowid, text);
  }
  for (const [rowid, text] of described) {
    for (let i = 0; i < terms.length; i++) add(rowid, i, text, 0.8, 'description');
  }
  for (const [i, w] of words.entries()) {
    const p = { like: containsLike(w), del, me: userId, cap: CHANNEL_CAP * 4 };
    for (const [rowid, tag] of tagRows.raw().all(p) as [number, string][]) add(rowid, i, tag, tag.toLowerCase() === w ? 1 : 0.7, `tag ${quoted(tag)}`);
    for (const [rowid, name] of albumRows.raw().all(p) as [number, string][]) add(rowid, i, name, 0.6, `album ${quoted(name)}`);
  }
  const hits = [...found]
    .sort(([ra, a], [rb, b]) => b.score - a.score || ra - rb)
    .map(([rowid, f]) => ({ rowid, rawScore: Math.round(f.score * 1000) / 1000, why: f.why, strong: f.whole.size === terms.length }));
  return wordsFirst(terms, hits);
}
