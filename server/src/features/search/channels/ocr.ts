/**
 * The `ocr` channel: photos whose recognised text has the query's words (OcrStore.searchOcrText:
 * strict, then relaxed), within what the caller may read, then within the allowed set (their library
 * as listed and the filter). Why: the line of text that matched, quoted.
 */
import type { Access } from '../../../platform/access/index.ts';
import type { Db } from '../../../platform/db/connection.ts';
import type { Actor } from '../../../platform/http/context.ts';
import type { OcrStore } from '../../ocr/index.ts';
import { CHANNEL_CAP, isAllowed, quoted, type ChannelHit } from './channel.ts';

export function ocrChannel(db: Db, ocr: OcrStore, access: Access, actor: Actor, text: string, allowed: Uint8Array, explainFirst: number): ChannelHit[] {
  const found = ocr.searchOcrText(access.scope({ userId: actor.userId }, 'asset', 'read', 'a'), text, CHANNEL_CAP);
  if (found.length === 0) return [];
  const rowids = new Map(
    (db.prepare('SELECT a.asset_id, a.rowid FROM json_each(?) j JOIN assets a ON a.asset_id = j.value').raw().all(JSON.stringify(found.map((f) => f.asset_id))) as [string, number][]),
  );
  const hits: (ChannelHit & { assetId: string })[] = [];
  for (const f of found) {
    const rowid = rowids.get(f.asset_id);
    if (rowid !== undefined && isAllowed(allowed, rowid)) hits.push({ rowid, rawScore: f.score, assetId: f.asset_id });
  }
  // The matching line, for the hits that can be shown (the candidate pool): the line with most words.
  const shown = hits.slice(0, explainFirst);
  const words = text.normalize('NFKC').toLowerCase().split(/\s+/u).filter(Boolean);
  const lines = db
    .prepare('SELECT asset_id, text FROM ocr_lines WHERE asset_id IN (SELECT value FROM json_each(?)) ORDER BY asset_id, line_no')
    .raw()
    .all(JSON.stringify(shown.map((h) => h.assetId))) as [string, string][];
  const bestLine = new Map<string, { text: string; n: number }>();
  for (const [assetId, line] of lines) {
    const l = line.normalize('NFKC').toLowerCase();
    const n = words.filter((w) => l.includes(w)).length;
    if (n > (bestLine.get(assetId)?.n ?? 0)) bestLine.set(assetId, { text: line, n });
  }
  return hits.map(({ assetId, ...h }) => {
    const line = bestLine.get(assetId);
    return { ...h, why: line ? `text ${quoted(line.text)}` : 'text in the photo' };
  });
}
