/**
 * The `filename` channel: files whose original name contains the query's words (ASCII case ignored,
 * as queryAssets' filename search). Ranked by how many words the name has (the whole query as typed
 * counts as one more), then newest capture first, as the reference orders filename matches.
 */
import type { Db } from '../../../platform/db/connection.ts';
import { CHANNEL_CAP, containsLike, isAllowed, type ChannelHit } from './channel.ts';
import { SEARCHED_OWNERS } from './owners.ts';

export function filenameChannel(db: Db, userId: number, isDeleted: boolean, text: string, words: string[], allowed: Uint8Array): ChannelHit[] {
  if (words.length === 0) return [];
  const params: Record<string, unknown> = { me: userId, del: isDeleted ? 1 : 0, cap: CHANNEL_CAP * 4 };
  words.forEach((w, i) => (params[`w${i}`] = containsLike(w)));
  const rows = db
    .prepare(
      `SELECT a.rowid, a.original_filename, coalesce(a.taken_time, a.upload_time) FROM assets a
        WHERE a.owner_id IN ${SEARCHED_OWNERS} AND a.is_deleted = @del AND (${words.map((_, i) => `a.original_filename LIKE @w${i} ESCAPE '\\'`).join(' OR ')})
        LIMIT @cap`,
    )
    .raw()
    .all(params) as [number, string, number][];
  const phrase = text.trim().toLowerCase();
  const hits: { rowid: number; rawScore: number; t: number }[] = [];
  for (const [rowid, name, t] of rows) {
    if (!isAllowed(allowed, rowid)) continue;
    const lower = name.toLowerCase();
    const n = words.filter((w) => lower.includes(w)).length + (words.length > 1 && lower.includes(phrase) ? 1 : 0);
    if (n > 0) hits.push({ rowid, rawScore: n, t });
  }
  hits.sort((x, y) => y.rawScore - x.rawScore || y.t - x.t || x.rowid - y.rowid);
  return hits.map(({ rowid, rawScore }) => ({ rowid, rawScore, why: 'filename' }));
}
