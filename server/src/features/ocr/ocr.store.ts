/**
 * The OCR text of photos in the catalog (migration 0016_ocr_text.sql): one `ocr_results` row per photo OCR has
 * read (also when it found nothing: that is the marker that keeps a photo without text from being read again),
 * its lines in `ocr_lines`, and the trigram full-text index over them (kept in sync by triggers).
 */
import type { AccessScope } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { normaliseBox, quadArea, type NormalisedQuad } from './ocr-boxes.ts';
import { queryTerms, rankAssets, type LineHit, type OcrSearchHit } from './ocr-search.ts';
import type { OcrResult } from './types.ts';

export interface StoredOcrRun {
  modelId: string;
  source: 'medium' | 'original';
  processingMs: number;
}

export interface OcrResultRow {
  asset_id: string;
  model_id: string;
  source: 'medium' | 'original';
  image_width: number;
  image_height: number;
  processing_time_ms: number;
  created_at: number;
  updated_at: number;
}

export interface OcrLineRow {
  line_id: number;
  line_no: number;
  text: string;
  box: NormalisedQuad;
  confidence: number;
  model_id: string;
}

/** How many matching lines one query term may bring (the reference caps each search channel at 10,000). */
const TERM_LINE_CAP = 10_000;

export class OcrStore {
  constructor(private readonly db: Db) {}

  /**
   * Replaces the asset's OCR text with `result` in one transaction (re-reading an asset never duplicates its
   * lines). False when the asset is gone meanwhile (deleted for good while OCR ran): nothing is written.
   */
  replace(assetId: string, result: OcrResult, run: StoredOcrRun, now = Date.now()): boolean {
    return this.db
      .transaction(() => {
        const assetRowid = prepared(this.db, 'SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(assetId) as number | undefined;
        if (assetRowid === undefined) return false;
        prepared(this.db, 'DELETE FROM ocr_lines WHERE asset_id = ?').run(assetId);
        // Each line carries its asset's rowid, the search's key (0023_ocr_line_asset_rowid.sql).
        const insert = prepared(
          this.db,
          'INSERT INTO ocr_lines (asset_id, asset_rowid, line_no, text, box, confidence, model_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        result.lines.forEach((line, i) => {
          insert.run(assetId, assetRowid, i, line.text, JSON.stringify(normaliseBox(line.box, result.width, result.height)), line.confidence, run.modelId);
        });
        prepared(
          this.db,
          `INSERT INTO ocr_results (asset_id, model_id, source, image_width, image_height, processing_time_ms, created_at, updated_at)
           VALUES (@asset_id, @model_id, @source, @w, @h, @ms, @now, @now)
           ON CONFLICT (asset_id) DO UPDATE SET model_id = excluded.model_id, source = excluded.source, image_width = excluded.image_width,
             image_height = excluded.image_height, processing_time_ms = excluded.processing_time_ms, updated_at = excluded.updated_at`,
        ).run({ asset_id: assetId, model_id: run.modelId, source: run.source, w: result.width, h: result.height, ms: run.processingMs, now });
        return true;
      })
      .immediate();
  }

  /** The asset's OCR run and its lines in reading order; undefined when OCR has not read it. */
  resultOf(assetId: string): { run: OcrResultRow; lines: OcrLineRow[] } | undefined {
    const run = this.db.prepare('SELECT * FROM ocr_results WHERE asset_id = ?').get(assetId) as OcrResultRow | undefined;
    if (!run) return undefined;
    const lines = (
      this.db
        .prepare('SELECT line_id, line_no, text, box, confidence, model_id FROM ocr_lines WHERE asset_id = ? ORDER BY line_no')
        .all(assetId) as (Omit<OcrLineRow, 'box'> & { box: string })[]
    ).map((l) => ({ ...l, box: JSON.parse(l.box) as NormalisedQuad }));
    return { run, lines };
  }

  /** The area of a normalised box in pixels of a `width`×`height` image. */
  static areaPixels(box: NormalisedQuad, width: number, height: number): number {
    return Math.round(quadArea(box) * width * height);
  }

  /**
   * Assets whose OCR text matches `query`, best first, among the assets `scope` permits (made by
   * `Access.scope(actor, 'asset', 'read', 'a')`: the alias must be `a`): the caller's own photos and those a
   * partner or a shared album shows them, exactly what getAsset lets them read; never photos in the Trash. Every term of
   * the query must be found in the asset's lines (in any line); when no asset has them all, assets with some of
   * them answer, most terms first (the reference's strict-then-relaxed OCR match). The hybrid search fuses the
   * ranks (ocr-search.ts says how they are scored).
   *
   * Terms of three characters or more use the trigram index; shorter ones (two-character CJK words, "No")
   * cannot, and are read with LIKE over the lines of the permitted assets: a scan of the OCR lines, which only
   * photos with text have (a short query costs in proportion to the library's amount of text).
   */
  searchOcrText(scope: AccessScope<'asset'>, query: string, limit: number): OcrSearchHit[] {
    const terms = queryTerms(query);
    if (terms.length === 0 || limit <= 0) return [];
    const where = `a.is_deleted = 0 AND ${scope.sql}`;
    const perTerm: LineHit[][] = terms.map((term) =>
      [...term].length >= 3
        ? (this.db
            .prepare(
              `SELECT l.asset_id, l.text, l.confidence FROM ocr_lines_fts CROSS JOIN ocr_lines l ON l.line_id = ocr_lines_fts.rowid
                 CROSS JOIN assets a ON a.asset_id = l.asset_id
               WHERE ocr_lines_fts MATCH @match AND ${where} LIMIT @cap`,
            )
            .all({ ...scope.params, match: `"${term.replaceAll('"', '""')}"`, cap: TERM_LINE_CAP }) as LineHit[])
        : (this.db
            .prepare(
              `SELECT l.asset_id, l.text, l.confidence FROM ocr_lines l CROSS JOIN assets a ON a.asset_id = l.asset_id
               WHERE l.text LIKE @like ESCAPE '\\' AND ${where} LIMIT @cap`,
            )
            .all({ ...scope.params, like: `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, cap: TERM_LINE_CAP }) as LineHit[]),
    );
    return rankAssets(terms, perTerm, limit);
  }

  /**
   * For the hybrid search's `ocr` channel (features/search/channels/ocr.ts): the assets whose text matches
   * `query`, ranked as searchOcrText ranks them, but among the assets `allowed` keeps (the caller's library
   * as browse lists it under the search's filter: the access check of every channel, owners and Trash state
   * included), decided before the ranking, so the strict match is the strict match among what may be shown.
   * Each hit carries its asset's rowid and its best line (most terms, then first in reading order): the line
   * the result quotes.
   *
   * Cheaper than searchOcrText at 100k photos: each line carries its asset's rowid (migration
   * 0023_ocr_line_asset_rowid.sql), so the matching lines are checked against `allowed` as they come, without
   * reading any asset's row (a common word matches lines in thousands of photos). Per term, at most
   * TERM_LINE_CAP allowed lines count (read from at most four times as many matching lines of anyone's).
   *
   * `terms` are the search's own (lower case, NFKC) and `grade` says how term `i` occurs in a line in lower
   * case: 2 as a word, 1 inside a word, 0 not (the search's word rule, features/search/channels/words.ts).
   * A line where the index found a term that `grade` rejects ("on" inside "London") does not count.
   * `whole_terms`: how many terms the asset has as words.
   */
  searchAllowed(
    terms: readonly string[],
    grade: (lowerLine: string, term: number) => 0 | 1 | 2,
    allowed: (rowid: number) => boolean,
    limit: number,
  ): (OcrSearchHit & { rowid: number; line: string; whole_terms: number })[] {
    if (terms.length === 0 || limit <= 0) return [];
    const byFts = prepared(
      this.db,
      `SELECT l.line_id, l.asset_rowid, l.asset_id, l.text, l.confidence, l.line_no FROM ocr_lines_fts CROSS JOIN ocr_lines l ON l.line_id = ocr_lines_fts.rowid
        WHERE ocr_lines_fts MATCH @match LIMIT @cap`,
    );
    const byLike = prepared(
      this.db,
      `SELECT l.line_id, l.asset_rowid, l.asset_id, l.text, l.confidence, l.line_no FROM ocr_lines l WHERE l.text LIKE @like ESCAPE '\\' LIMIT @cap`,
    );
    type Row = [lineId: number, rowid: number | null, assetId: string, text: string, confidence: number, lineNo: number];
    const cap = TERM_LINE_CAP * 4;
    /** Per line read: its text in lower case and its length in characters, once however many terms match it. */
    const lineOf = new Map<number, { lower: string; chars: number }>();
    const found = new Map<number, Found>();
    for (const [ti, term] of terms.entries()) {
      const termChars = charCount(term);
      const rows = (
        termChars >= 3
          ? byFts.raw(true).all({ match: `"${term.replaceAll('"', '""')}"`, cap })
          : byLike.raw(true).all({ like: `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, cap })
      ) as Row[];
      // The best line of this term per asset (rankAssets' rule: coverage × confidence).
      const bestOfTerm = new Map<number, { s: number; g: number }>();
      let kept = 0;
      for (const [lineId, rowid, assetId, text, confidence, lineNo] of rows) {
        if (rowid === null || !allowed(rowid)) continue;
        if (++kept > TERM_LINE_CAP) break;
        let line = lineOf.get(lineId);
        if (line === undefined) {
          line = { lower: text.toLowerCase(), chars: charCount(text) };
          lineOf.set(lineId, line);
          // The line quoted: most of the query's terms, then first in reading order.
          let n = 0;
          for (let k = 0; k < terms.length; k++) if (grade(line.lower, k) > 0) n++;
          let f = found.get(rowid);
          if (!f) found.set(rowid, (f = { rowid, assetId, score: 0, matched: 0, whole: 0, line: '', lineN: 0, lineNo: Infinity }));
          if (n > 0 && (n > f.lineN || (n === f.lineN && lineNo < f.lineNo))) {
            f.line = text;
            f.lineN = n;
            f.lineNo = lineNo;
          }
        }
        // The index matched the term case-insensitively; confirm on the text as stored (trigram and LIKE agree).
        const g = grade(line.lower, ti);
        if (g === 0) continue;
        // A match inside a word counts half (words.ts: a lone term's weak match).
        const s = (line.chars === 0 ? 0 : Math.min(1, termChars / line.chars)) * confidence * (g / 2);
        const best = bestOfTerm.get(rowid);
        if (!best || g > best.g || (g === best.g && s > best.s)) bestOfTerm.set(rowid, { s, g });
      }
      for (const [rowid, { s, g }] of bestOfTerm) {
        const f = found.get(rowid)!;
        f.score += s;
        f.matched += 1;
        if (g === 2) f.whole += 1;
      }
    }
    let rows = [...found.values()].filter((f) => f.matched > 0);
    const strict = rows.filter((r) => r.matched === terms.length);
    if (strict.length) rows = strict;
    rows.sort((a, b) => b.matched - a.matched || b.whole - a.whole || b.score - a.score || (a.assetId < b.assetId ? -1 : a.assetId > b.assetId ? 1 : 0));
    return rows.slice(0, limit).map((r, i) => ({
      asset_id: r.assetId,
      rowid: r.rowid,
      rank: i + 1,
      score: Math.round(r.score * 1e6) / 1e6,
      matched_terms: r.matched,
      whole_terms: r.whole,
      line: r.line,
    }));
  }
}

/** An asset the ocr channel found: its terms' summed score, and the line it quotes (`lineN` terms, at `lineNo`). */
interface Found {
  rowid: number;
  assetId: string;
  score: number;
  matched: number;
  /** Terms found as words. */
  whole: number;
  line: string;
  lineN: number;
  lineNo: number;
}

/** Characters (code points) in `s`, as `[...s].length` counts them, without making the array when there is no surrogate pair. */
function charCount(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return s.length - pairs;
}
