/**
 * Hybrid search (searchAssets, searchAssetsByImage, queryAssets `search_type: semantic`) and the
 * zero-shot classifier preview.
 *
 * How a search runs:
 * 1. The query is understood (understand-query.ts): the parsed filter goes under the request's own,
 *    the rest of the text goes to the channels.
 * 2. The caller's browse list under that filter (browse `searchable`: own + partner-shared library,
 *    one row per media item) becomes the `allowed` bitmap: every channel answers within it, so
 *    ownership and every filter hold in every channel, whatever the channel's own SQL looks at.
 * 3. The channels run on the rest: `embedding` (CLIP text tower, or a photo's vectors), `place`
 *    (the place names of the photos' positions), `ocr`, `filename`, `text` (channels/). A channel that fails answers nothing and says why in `sources`.
 *    Each lists at most 10,000 assets; the embedding channel asks the vector index for the candidate
 *    pool's size only (an asset further down cannot enter the answer on its likeness alone).
 * 4. Weighted reciprocal-rank fusion (fusion.ts); the candidate pool is max(50, (limit+offset)·4),
 *    capped at 1000. `top_items` ("Best results"): the pool's first `top_results_limit` by fused score
 *    among its STRONG matches only (channel.ts `strong`: every query term found as a word of a file
 *    name, a photo's text or a person's words; a place named by the whole query; a likeness at the
 *    strict cosine floor); `result_items`: the pool under `sort_by` (`relevance`, the default: the fused
 *    order), paged. `top_results_meta.matched_well` (an extension) is false when channels ran and none
 *    found a strong match: `top_items` is then empty and the page says nothing matched well.
 *
 * Readings (issue 24): words the parser turned into a filter (a camera, a date, a place, a person, a
 * file type…) may be meant as words ("DJI_FLIR" is a file name, not the camera FLIR). With
 * `enhancement_mode: auto` and at least one chip, `reading: auto` (the default) first searches the
 * whole query as words, without the parsed filter (the "words" reading); when that finds a strong
 * match from the words channels (filename, ocr, text, place: the words themselves are in the library;
 * a likeness alone never decides, CLIP likes "videos from 2023" as much as anything), it is the answer.
 * Otherwise the filter reading is (the parsed filter, the rest searched). `parsed.reading` says which
 * reading was used and `parsed.other_reading` the one offered instead ("Search instead for …");
 * `reading: filters` or `reading: words` asks for one. Under the words reading `parsed.chips` is empty
 * (no filter was applied) and the chips are in `parsed.other_reading`.
 *
 * Decisions where the contract is silent:
 * - Results are media items with stacks expanded: a search finds each matching photo, not a stack.
 * - A query the parser understood entirely ("videos from 2023") runs no channel: the filtered list
 *   is the answer, newest first (`relevance` then means `recently_added`), `top_items` is empty.
 * - Without CLIP (not installed, switched off, failing) a search that needs the embedding channel
 *   answers `degraded: true, reason: 'semantic_unavailable'` and the other channels answer.
 *   `similar_to_asset_id` needs no model (the stored vectors are the query). Search by image and the
 *   classifier preview cannot run at all without CLIP: 503 `semantic_unavailable`.
 * - `similar_to_asset_id`: the caller must be able to read the photo (404 otherwise); its vectors (a
 *   video's frames: each one, an asset counting by its best match) are the query; it is never in its
 *   own answer. A photo not indexed yet answers no embedding hits (the source says so).
 */
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import { Unavailable } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import type { SettingsStore } from '../../config/settings.ts';
import { ClipEncoder, type MlRuntime } from '../../adapters/ml/index.ts';
import type { AssetFilter, BrowseService, GalleryItem, GalleryList } from '../browse/index.ts';
import { OcrStore } from '../ocr/index.ts';
import { queryWords, runChannel, type ChannelResult, type SourceType } from './channels/channel.ts';
import { cosineFloors, embeddingChannel, type EmbeddingQuery } from './channels/embedding.ts';
import { filenameChannel } from './channels/filename.ts';
import { BACKGROUND_PROMPTS, marginOf, prototypeOf } from '../semantic/index.ts';
import { ExactVectorScan, vectorsOfAsset, type NearestVectors } from './channels/nearest-vectors.ts';
import { ocrChannel } from './channels/ocr.ts';
import { textChannel } from './channels/text.ts';
import { knownPlaces, placeChannel } from './channels/place.ts';
import { en } from './query-language/index.ts';
import { fuse, type FusedHit } from './fusion.ts';
import { understandQuery, type CatalogNames, type Chip, type EnhancementMode } from './understand-query.ts';

export type SearchSort = 'relevance' | 'recently_added' | 'date_captured';

export interface SearchRequest {
  debug?: boolean | undefined;
  enhancement_mode?: EnhancementMode | undefined;
  filter?: AssetFilter | undefined;
  pagination?: { limit?: number | undefined; offset?: number | undefined } | undefined;
  query?: string | undefined;
  similar_to_asset_id?: string | undefined;
  sort_by?: SearchSort | undefined;
  top_results_limit?: number | undefined;
  viewer_timezone?: string | undefined;
  ignore_parsed?: string[] | undefined;
  reading?: Reading | undefined;
}

/** How the query was read: its understood words as filters, or every word searched as words. */
export type Reading = 'auto' | 'filters' | 'words';
export type UsedReading = Exclude<Reading, 'auto'>;

export interface Match {
  score: number;
  why: string[];
  sources: string[];
  frame_ts_ms: number | null;
}
export type SearchItem = GalleryItem & { match: Match };

export interface SearchResponse {
  limit: number;
  offset: number;
  result_items: SearchItem[];
  results_total_media_items: number;
  results_total_visible: number;
  top_items: SearchItem[];
  top_results_meta: {
    candidate_count: number;
    candidate_pool_size: number;
    debug?: { asset_id: string; contributions: FusedHit['contributions']; score: number }[];
    degraded: boolean;
    enabled: boolean;
    reason: string | null;
    source_types: string[];
    sources: { candidate_count: number; duration_ms: number; error: string | null; type: string; weight: number }[];
    matched_well: boolean;
  };
  parsed: Parsed;
}

export interface Parsed {
  rest: string;
  filter: AssetFilter;
  chips: Chip[];
  reading: UsedReading;
  other_reading: { reading: UsedReading; rest: string; chips: Chip[]; results_total: number | null } | null;
}

export interface ClassifierPreview {
  count: number;
  matches: { asset_id: string; score: number }[];
}

/** Default size of the "best results" row. */
export const DEFAULT_TOP_RESULTS = 20;
const POOL_MIN = 50;
const POOL_MAX = 1000;
/** The preview lists at most this many matches (`count` counts them all). */
const PREVIEW_MATCHES = 200;
/** A word of the grammar that makes a place name a location filter ("in Lisbon"). */
const PLACE_INTRO = new RegExp(`(^|[^\\p{L}])(${en.placeIntroducers.map((w) => w.split(' ').at(-1)).join('|')})([^\\p{L}]|$)`, 'iu');

export interface SearchDeps {
  db: Db;
  access: Access;
  browse: BrowseService;
  settings: SettingsStore;
  ml: MlRuntime;
  /** The caller's camera and lens names (getFilterOptions), for the parser. */
  catalogNames: (actor: Actor) => Promise<CatalogNames>;
  /** The nearest-vector lookup for a model (default: the exact scan of semantic_vectors). */
  vectors?: (modelId: string) => NearestVectors;
}

interface RunInput {
  actor: Actor;
  text: string;
  /** The embedding query instead of the text's (a photo's vectors). */
  image?: { vectors: Float32Array[]; excludeAssetId?: string | undefined; error?: string | undefined } | undefined;
  filter: AssetFilter | undefined;
  timeZone: string | undefined;
  sort: SearchSort;
  limit: number;
  offset: number;
  topN: number;
  debug: boolean;
  parsed: Parsed;
}

export class SearchService {
  private readonly clip: ClipEncoder;
  private readonly ocr: OcrStore;
  private readonly vectors: (modelId: string) => NearestVectors;

  constructor(private readonly deps: SearchDeps) {
    this.clip = new ClipEncoder(deps.ml);
    this.ocr = new OcrStore(deps.db);
    this.vectors = deps.vectors ?? ((modelId) => new ExactVectorScan(deps.db, modelId));
  }

  /** The model whose vectors the search compares (stored with each vector). */
  get modelId(): string {
    return this.clip.modelVersion;
  }

  async search(actor: Actor, req: SearchRequest): Promise<SearchResponse> {
    const query = req.query ?? '';
    const u = understandQuery(query, {
      mode: req.enhancement_mode ?? 'auto',
      filter: req.filter,
      ignore: req.ignore_parsed ?? [],
      timeZone: req.viewer_timezone ?? 'UTC',
      now: Date.now(),
      // The caller's places are read only when a word could introduce one ("in", "near"…): it walks their cells.
      catalog: { ...(await this.deps.catalogNames(actor)), places: PLACE_INTRO.test(query) ? knownPlaces(this.deps.db, actor.userId) : [] },
    });
    let image: RunInput['image'];
    if (req.similar_to_asset_id !== undefined) {
      const id = this.deps.access.require({ userId: actor.userId }, 'asset', req.similar_to_asset_id, 'read', 'body.similar_to_asset_id');
      const own = vectorsOfAsset(this.deps.db, id, this.modelId);
      image = { vectors: own.map((v) => v.vector), excludeAssetId: id, error: own.length ? undefined : 'this photo has no search vectors yet (indexing has not reached it)' };
    }
    const base = {
      actor,
      image,
      timeZone: req.viewer_timezone,
      sort: req.sort_by ?? 'relevance',
      limit: req.pagination?.limit ?? 50,
      offset: req.pagination?.offset ?? 0,
      topN: req.top_results_limit ?? DEFAULT_TOP_RESULTS,
      debug: req.debug ?? false,
    } satisfies Partial<RunInput>;
    const asFilters: Parsed = { rest: u.rest, filter: u.parsedFilter, chips: u.chips, reading: 'filters', other_reading: null };
    const filtersRun = async (other: Parsed['other_reading']) => (await this.run({ ...base, text: u.rest, filter: u.filter, parsed: { ...asFilters, other_reading: other } })).res;
    // No filter was understood (or the parser was not asked): the words are all there is.
    const mode = req.enhancement_mode ?? 'auto';
    if (u.chips.length === 0 || mode !== 'auto') {
      return (await this.run({ ...base, text: u.rest, filter: u.filter, parsed: { ...asFilters, reading: mode === 'only' ? 'filters' : 'words' } })).res;
    }
    const reading = req.reading ?? 'auto';
    if (reading === 'filters') return filtersRun({ reading: 'words', rest: u.words, chips: [], results_total: null });
    const asWords = (total: number | null): Parsed => ({ rest: u.words, filter: {}, chips: [], reading: 'words', other_reading: { reading: 'filters', rest: u.rest, chips: u.chips, results_total: total } });
    const words = await this.run({ ...base, text: u.words, filter: req.filter, parsed: asWords(null) });
    if (reading === 'words' || words.literal) return words.res;
    return filtersRun({ reading: 'words', rest: u.words, chips: [], results_total: words.res.results_total_visible });
  }

  /** Search by a photo given in the request: `vector` is the query image's embedding (never stored). */
  async searchByImage(
    actor: Actor,
    image: Buffer,
    req: { filter?: AssetFilter | undefined; limit?: number | undefined; offset?: number | undefined; top_results_limit?: number | undefined; viewer_timezone?: string | undefined },
  ): Promise<SearchResponse> {
    this.requireSemantic();
    let vector: Float32Array;
    try {
      [vector] = (await this.clip.embedImages([image], 'interactive')) as [Float32Array];
    } catch (e) {
      throw new Unavailable(`The photo could not be compared: ${e instanceof Error ? e.message : String(e)}`, 'semantic_unavailable');
    }
    const { res } = await this.run({
      actor,
      text: '',
      image: { vectors: [vector] },
      filter: req.filter,
      timeZone: req.viewer_timezone,
      sort: 'relevance',
      limit: req.limit ?? 50,
      offset: req.offset ?? 0,
      topN: req.top_results_limit ?? DEFAULT_TOP_RESULTS,
      debug: false,
      parsed: { rest: '', filter: {}, chips: [], reading: 'words', other_reading: null },
    });
    return res;
  }

  /**
   * queryAssets with `search_type: semantic`: the embedding channel alone, as a gallery list. Order:
   * closest first, unless `sort_by` is given (then that order). Stacks are expanded (each matching
   * photo is a row), whatever `stack_mode` asked. Without CLIP: 503 `semantic_search_unavailable`.
   */
  async semanticList(
    actor: Actor,
    q: { filter?: AssetFilter | undefined; pagination?: { limit?: number | undefined; offset?: number | undefined } | undefined; query?: string | undefined; sort_by?: 'recently_added' | 'date_captured' | undefined; viewer_timezone?: string | undefined },
  ): Promise<GalleryList> {
    const limit = q.pagination?.limit ?? 50;
    const offset = q.pagination?.offset ?? 0;
    const text = await this.embedText((q.query ?? '').trim());
    if ('error' in text) {
      throw new Unavailable(`Semantic search needs the CLIP model, which cannot run on this server now (${text.error}). Search by file name instead (search_type "filename").`, 'semantic_search_unavailable');
    }
    const { listed, isDeleted } = await this.deps.browse.searchable(actor, q.filter, q.viewer_timezone, q.sort_by ?? 'recently_added');
    const allowed = bitmapOf(listed);
    const hits = embeddingChannel(this.vectors(this.modelId), { vectors: [text.vector], floor: cosineFloors(this.modelId).text.normal, why: 'looks like your query' }, allowed).map((h) => h.rowid);
    const ordered = q.sort_by ? inListOrder(listed, hits) : hits;
    const page = ordered.slice(offset, offset + limit);
    const items = await this.deps.browse.galleryItems(actor, page, isDeleted);
    return {
      items: page.map((r) => items.get(r)).filter((i): i is GalleryItem => i !== undefined),
      limit,
      offset,
      stack_mode: 'expanded',
      total_files: await this.deps.browse.filesOf(ordered),
      total_media_items: ordered.length,
      total_visible: ordered.length,
    };
  }

  /**
   * The zero-shot margin over the caller's visible photos and videos (their library as listed):
   * every asset whose best vector's margin reaches `threshold`, best first.
   */
  async previewClassifier(actor: Actor, body: { positive: string[]; negative?: string[] | undefined; threshold: number }): Promise<ClassifierPreview> {
    this.requireSemantic();
    const negatives = body.negative?.length ? body.negative : [...BACKGROUND_PROMPTS];
    let vecs: Float32Array[];
    try {
      vecs = await this.clip.embedTexts([...body.positive, ...negatives]);
    } catch (e) {
      throw new Unavailable(`The classifier needs CLIP's text tower, which cannot run now: ${e instanceof Error ? e.message : String(e)}`, 'semantic_unavailable');
    }
    // The margin rule the zero-shot tagger uses (features/semantic/zero-shot/margin.ts): a preview shows what
    // tagging with these prompts would do.
    const prototypes = { positive: prototypeOf(vecs.slice(0, body.positive.length)), negative: prototypeOf(vecs.slice(body.positive.length)) };
    const { listed } = await this.deps.browse.searchable(actor, undefined, undefined, 'recently_added');
    const allowed = bitmapOf(listed);
    const best = new Map<string, number>();
    const rows = this.deps.db
      .prepare('SELECT a.rowid, a.asset_id, v.embedding FROM semantic_vectors v JOIN assets a ON a.asset_id = v.asset_id WHERE v.model_id = ?')
      .raw()
      .iterate(this.modelId) as IterableIterator<[number, string, Buffer]>;
    for (const [rowid, assetId, blob] of rows) {
      if (rowid >= allowed.length || allowed[rowid] !== 1) continue;
      const v = new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
      const s = marginOf(v, prototypes);
      if (s > (best.get(assetId) ?? -Infinity)) best.set(assetId, s);
    }
    const matches = [...best]
      .filter(([, s]) => s >= body.threshold)
      .sort(([ia, a], [ib, b]) => b - a || (ia < ib ? -1 : 1))
      .map(([asset_id, s]) => ({ asset_id, score: Math.round(s * 1e6) / 1e6 }));
    return { count: matches.length, matches: matches.slice(0, PREVIEW_MATCHES) };
  }

  private requireSemantic(): void {
    if (!this.deps.settings.section('ml').semantic_enabled) {
      throw new Unavailable('Semantic search is switched off in the ML settings (semantic_enabled).', 'semantic_unavailable');
    }
  }

  /** The query text's CLIP vector, or why there is none. */
  private async embedText(text: string): Promise<{ vector: Float32Array } | { error: string }> {
    if (!this.deps.settings.section('ml').semantic_enabled) return { error: 'switched off in the ML settings (semantic_enabled)' };
    try {
      const [vector] = await this.clip.embedTexts([text]);
      return { vector: vector! };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** One reading's answer; `literal`: a words channel (not the likeness) found a strong match. */
  private async run(r: RunInput): Promise<{ res: SearchResponse; literal: boolean }> {
    const textPromise = r.text !== '' && !r.image ? this.embedText(r.text) : null;
    const { listed, isDeleted } = await this.deps.browse.searchable(r.actor, r.filter, r.timeZone, r.sort === 'date_captured' ? 'date_captured' : 'recently_added');
    const allowed = bitmapOf(listed);
    if (r.image?.excludeAssetId) {
      const own = this.deps.db.prepare('SELECT rowid FROM assets WHERE asset_id = ?').pluck().get(r.image.excludeAssetId) as number | undefined;
      if (own !== undefined && own < allowed.length) allowed[own] = 0;
    }
    const words = queryWords(r.text);
    const pool = Math.min(POOL_MAX, Math.max(POOL_MIN, (r.limit + r.offset) * 4, r.topN));
    const enabled = this.deps.settings.section('ml').semantic_enabled;

    const results: ChannelResult[] = [];
    // The SQL channels run while the text tower works on its worker thread; their answers are listed after it.
    if (words.length) {
      const { db } = this.deps;
      results.push(await runChannel('place', () => placeChannel(db, r.actor.userId, isDeleted, r.text, words, allowed)));
      results.push(await runChannel('ocr', () => ocrChannel(this.ocr, words, allowed)));
      results.push(await runChannel('filename', () => filenameChannel(db, r.actor.userId, isDeleted, r.text, words, allowed)));
      results.push(await runChannel('text', () => textChannel(db, r.actor.userId, isDeleted, words, allowed)));
    }
    let degraded = false;
    if (r.image || textPromise) {
      let q: EmbeddingQuery | { error: string };
      if (r.image) q = r.image.error ? { error: r.image.error } : { vectors: r.image.vectors, floor: cosineFloors(this.modelId).image, why: 'looks like this photo' };
      else {
        const t = await textPromise!;
        q = 'error' in t ? t : { vectors: [t.vector], floor: cosineFloors(this.modelId).text.normal, strongFloor: cosineFloors(this.modelId).text.strict, why: 'looks like your query' };
        if ('error' in t) degraded = true;
      }
      results.unshift(
        await runChannel('embedding', () => {
          if ('error' in q) throw new Error(q.error);
          return embeddingChannel(this.vectors(this.modelId), q, allowed, pool);
        }),
      );
    }

    const meta: SearchResponse['top_results_meta'] = {
      candidate_count: 0,
      candidate_pool_size: pool,
      degraded,
      enabled,
      reason: degraded ? 'semantic_unavailable' : null,
      source_types: results.map((x) => x.type),
      sources: results.map((x) => ({ type: x.type, weight: x.weight, candidate_count: x.hits.length, duration_ms: x.durationMs, error: x.error })),
      // A filtered list is what the filter asked for: it matched well when it lists anything.
      matched_well: results.length === 0 ? listed.length > 0 : false,
    };

    // Nothing left to search: the filtered list is the answer.
    if (results.length === 0) {
      const page = Array.from(listed.subarray(Math.min(r.offset, listed.length), Math.min(r.offset + r.limit, listed.length)));
      const items = await this.deps.browse.galleryItems(r.actor, page, isDeleted);
      const none: Match = { score: 0, why: [], sources: [], frame_ts_ms: null };
      meta.candidate_count = listed.length;
      const res: SearchResponse = {
        limit: r.limit,
        offset: r.offset,
        result_items: page.flatMap((rowid) => withMatch(items.get(rowid), none)),
        results_total_media_items: listed.length,
        results_total_visible: listed.length,
        top_items: [],
        top_results_meta: r.debug ? { ...meta, debug: [] } : meta,
        parsed: r.parsed,
      };
      return { res, literal: false };
    }

    const fused = fuse(results);
    meta.candidate_count = fused.length;
    const candidates = fused.slice(0, pool);
    const byRow = new Map(candidates.map((h) => [h.rowid, h]));
    // "Best results" are strong matches only (the module's doc), in the fused order.
    const top = candidates.filter((h) => h.strong).slice(0, r.topN);
    meta.matched_well = top.length > 0;
    const ordered = r.sort === 'relevance' ? candidates.map((h) => h.rowid) : inListOrder(listed, candidates.map((h) => h.rowid));
    const page = ordered.slice(r.offset, r.offset + r.limit);
    const items = await this.deps.browse.galleryItems(r.actor, [...new Set([...top.map((h) => h.rowid), ...page])], isDeleted);
    const shown = (rowid: number) => withMatch(items.get(rowid), matchOf(byRow.get(rowid)!));
    const topItems = top.flatMap((h) => shown(h.rowid));
    const resultItems = page.flatMap(shown);
    if (r.debug) {
      meta.debug = [...new Set([...top.map((h) => h.rowid), ...page])].flatMap((rowid) => {
        const item = items.get(rowid);
        const h = byRow.get(rowid)!;
        return item ? [{ asset_id: item.media_item.primary_asset.asset_id, contributions: h.contributions, score: round(h.score) }] : [];
      });
    }
    const res: SearchResponse = {
      limit: r.limit,
      offset: r.offset,
      result_items: resultItems,
      results_total_media_items: candidates.length,
      results_total_visible: candidates.length,
      top_items: topItems,
      top_results_meta: meta,
      parsed: r.parsed,
    };
    const literal = results.some((x) => x.type !== 'embedding' && x.hits.some((h) => h.strong));
    return { res, literal };
  }
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function matchOf(h: FusedHit): Match {
  const sources = Object.keys(h.contributions) as SourceType[];
  return { score: round(h.score), why: [...new Set(h.why)], sources, frame_ts_ms: h.frameTsMs };
}

function withMatch(item: GalleryItem | undefined, match: Match): SearchItem[] {
  return item ? [{ ...item, match }] : [];
}

/** 1 at each listed rowid. */
export function bitmapOf(listed: Int32Array): Uint8Array {
  let max = -1;
  for (let i = 0; i < listed.length; i++) if (listed[i]! > max) max = listed[i]!;
  const bits = new Uint8Array(max + 1);
  for (let i = 0; i < listed.length; i++) bits[listed[i]!] = 1;
  return bits;
}

/** `rowids` in the order of the list (rows the list does not hold are dropped). */
function inListOrder(listed: Int32Array, rowids: readonly number[]): number[] {
  const wanted = new Set(rowids);
  const out: number[] = [];
  for (let i = 0; i < listed.length && out.length < wanted.size; i++) if (wanted.has(listed[i]!)) out.push(listed[i]!);
  return out;
}
