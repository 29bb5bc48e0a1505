/**
 * The `text` channel: the words a person wrote about their photos, the description, the tags and the
 * names of the albums the caller can see (their own and those shared with them). Every query word is
 * looked up: a tag equal to the word counts 1, a tag containing it 0.7, a description containing it
 * 0.8, an album whose name contains it 0.6 (a photo is in an album for many reasons); the sum ranks,
 * ties by rowid. Why: "tag 'beach'", "album 'Summer'", "description".
 *
 * Tags written by a model (`zeroshot`, `bioclip`) are not a person's words, but they name what is in
 * the photo, so they count too; the hit says which tag.
 */
import type { Db } from '../../../platform/db/connection.ts';
import { CHANNEL_CAP, TRIGRAM, containsLike, isAllowed, matchAny, quoted, type ChannelHit } from './channel.ts';
import { SEARCHED_OWNERS } from './owners.ts';
import { prepared } from '../../../platform/db/prepared.ts';

interface Found {
  score: number;
  why: string[];
}

export function textChannel(db: Db, userId: number, isDeleted: boolean, words: string[], allowed: Uint8Array): ChannelHit[] {
  if (words.length === 0) return [];
  const found = new Map<number, Found>();
  const add = (rowid: number, score: number, why: string) => {
    if (!isAllowed(allowed, rowid)) return;
    let f = found.get(rowid);
    if (!f) found.set(rowid, (f = { score: 0, why: [] }));
    f.score += score;
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
    const lower = text.toLowerCase();
    for (const w of words) if (lower.includes(w)) add(rowid, 0.8, 'description');
  }
  for (const w of words) {
    const p = { like: containsLike(w), del, me: userId, cap: CHANNEL_CAP * 4 };
    for (const [rowid, tag] of tagRows.raw().all(p) as [number, string][]) add(rowid, tag.toLowerCase() === w ? 1 : 0.7, `tag ${quoted(tag)}`);
    for (const [rowid, name] of albumRows.raw().all(p) as [number, string][]) add(rowid, 0.6, `album ${quoted(name)}`);
  }
  return [...found]
    .sort(([ra, a], [rb, b]) => b.score - a.score || ra - rb)
    .map(([rowid, f]) => ({ rowid, rawScore: Math.round(f.score * 1000) / 1000, why: f.why }));
}
