/**
 * The OCR text of photos in the catalog (migration 0016_ocr_text.sql): one `ocr_results` row per photo OCR has
 * read (also when it found nothing: that is the marker that keeps a photo without text from being read again),
 * its lines in `ocr_lines`, and the trigram full-text index over them (kept in sync by triggers).
 */
import type { AccessScope } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
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
        if (!this.db.prepare('SELECT 1 FROM assets WHERE asset_id = ?').get(assetId)) return false;
        this.db.prepare('DELETE FROM ocr_lines WHERE asset_id = ?').run(assetId);
        const insert = this.db.prepare(
          'INSERT INTO ocr_lines (asset_id, line_no, text, box, confidence, model_id) VALUES (?, ?, ?, ?, ?, ?)',
        );
        result.lines.forEach((line, i) => {
          insert.run(assetId, i, line.text, JSON.stringify(normaliseBox(line.box, result.width, result.height)), line.confidence, run.modelId);
        });
        this.db
          .prepare(
            `INSERT INTO ocr_results (asset_id, model_id, source, image_width, image_height, processing_time_ms, created_at, updated_at)
             VALUES (@asset_id, @model_id, @source, @w, @h, @ms, @now, @now)
             ON CONFLICT (asset_id) DO UPDATE SET model_id = excluded.model_id, source = excluded.source, image_width = excluded.image_width,
               image_height = excluded.image_height, processing_time_ms = excluded.processing_time_ms, updated_at = excluded.updated_at`,
          )
          .run({ asset_id: assetId, model_id: run.modelId, source: run.source, w: result.width, h: result.height, ms: run.processingMs, now });
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
   * as browse lists it under the search's filter: the access check of every channel), decided before the
   * ranking, so the strict match is the strict match among what may be shown. Each hit carries its
   * asset's rowid and its best line (most terms, then first in reading order): the line the result quotes.
   *
   * Cheaper than searchOcrText at 100k photos: the lines' assets are cut to `owners` (an SQL list naming
   * `@me`) and the Trash state through the covering index assets_id_list (asset_id, owner_id, is_deleted),
   * never reading an asset's row; the rowid and the quoted line come with the matching lines (no second
   * pass over the assets or the lines).
   */
  searchAllowed(
    query: string,
    where: { ownersSql: string; me: number; isDeleted: boolean },
    allowed: (rowid: number) => boolean,
    limit: number,
  ): (OcrSearchHit & { rowid: number; line: string })[] {
    const terms = queryTerms(query);
    if (terms.length === 0 || limit <= 0) return [];
    const params = { me: where.me, del: where.isDeleted ? 1 : 0, cap: TERM_LINE_CAP };
    const cut = `a.owner_id IN ${where.ownersSql} AND a.is_deleted = @del`;
    type Row = LineHit & { rowid: number; line_no: number };
    const perTerm: Row[][] = terms.map((term) =>
      (
        ([...term].length >= 3
          ? this.db
              .prepare(
                `SELECT l.asset_id, l.text, l.confidence, l.line_no, a.rowid FROM ocr_lines_fts CROSS JOIN ocr_lines l ON l.line_id = ocr_lines_fts.rowid
                   CROSS JOIN assets a INDEXED BY assets_id_list ON a.asset_id = l.asset_id
                 WHERE ocr_lines_fts MATCH @match AND ${cut} LIMIT @cap`,
              )
              .all({ ...params, match: `"${term.replaceAll('"', '""')}"` })
          : this.db
              .prepare(
                `SELECT l.asset_id, l.text, l.confidence, l.line_no, a.rowid FROM ocr_lines l CROSS JOIN assets a INDEXED BY assets_id_list ON a.asset_id = l.asset_id
                 WHERE l.text LIKE @like ESCAPE '\\' AND ${cut} LIMIT @cap`,
              )
              .all({ ...params, like: `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` })) as Row[]
      ).filter((r) => allowed(r.rowid)),
    );
    const rowidOf = new Map<string, number>();
    const best = new Map<string, { text: string; n: number; lineNo: number }>();
    const seen = new Set<string>();
    for (const rows of perTerm) {
      for (const r of rows) {
        rowidOf.set(r.asset_id, r.rowid);
        const key = `${r.asset_id}\u0000${r.line_no}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const lower = r.text.toLowerCase();
        const n = terms.filter((t) => lower.includes(t)).length;
        const b = best.get(r.asset_id);
        if (n > 0 && (!b || n > b.n || (n === b.n && r.line_no < b.lineNo))) best.set(r.asset_id, { text: r.text, n, lineNo: r.line_no });
      }
    }
    return rankAssets(terms, perTerm, limit).map((h) => ({ ...h, rowid: rowidOf.get(h.asset_id)!, line: best.get(h.asset_id)?.text ?? '' }));
  }
}
