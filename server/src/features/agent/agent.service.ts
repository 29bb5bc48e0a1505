/**
 * The assistant's operations that are not streams: refs, pins, tools and effect status. Every id is checked
 * through the access layer first (threads, pins and effects are their owner's; a foreign id is 404 exactly
 * like a missing one), and every asset that leaves through a ref or a pin is checked again as the asset rule
 * says (own, or shared with the reader), so sharing that ended since takes the photos out.
 *
 * Pins (decisions where the contract is silent):
 * - `mode` `live` is asked for, or given when the ref came from a producer (a filter or a search: its plan can
 *   be replayed); a ref made by a transformer (combine, rank, top…) or from mentions is `frozen` whatever was
 *   asked (`fallback_reason: not_replayable`). A live pin replays its plan when its assets are read; when the
 *   replay fails it serves its snapshot (`hydration_source: snapshot`, `fallback_reason: replay_failed`).
 * - Layout is a 12-column grid: w 1–12, h 1–24, x + w ≤ 12; a new pin is 4×4 below the others.
 * - Pins are the member's own: an administrator sees only theirs.
 */
import crypto from 'node:crypto';
import type { Access, PermittedAssetId } from '../../platform/access/index.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import type { SettingsStore } from '../../config/settings.ts';
import { AssetsStore, loadAssetExtras, toAsset, withReaderMarks, type Asset, type MarksStore } from '../assets/index.ts';
import type { AssetQuery, GalleryList } from '../browse/index.ts';
import type { SearchRequest, SearchResponse } from '../search/index.ts';
import type { AgentStore, PinRow, Widget } from './agent.store.ts';
import type { AgentEngine } from './engine.ts';
import { ThreadHistory } from './thread-history.ts';
import { facetsOf, type Facets } from './facets.ts';
import type { LibraryStore } from './library.store.ts';
import type { AgentLibrary } from './ports.ts';
import { PRODUCERS, RefBook, type Plan } from './refs.ts';
import { markedFacts } from './tools/marked.ts';
import { ALL_TOOLS, descriptorOf, modeOf, parametersOf, toolNamed, toolsFor, type ToolDescriptor } from './tools/registry.ts';

export interface PinView {
  pin_id: string;
  title: string;
  widget: Widget;
  mode: 'live' | 'frozen';
  hydration_source: 'live_replay' | 'snapshot';
  fallback_reason: string | null;
  last_successful_refresh_at: string | null;
  summary: string;
  count: number;
  truncated: boolean;
  created_at: string;
  layout: { x: number; y: number; w: number; h: number };
  facets: Facets;
  thread_id: string | null;
  ref_id: string | null;
}

export interface AgentServiceDeps {
  store: AgentStore;
  access: Access;
  settings: SettingsStore;
  engine: AgentEngine;
  lib: AgentLibrary;
  library: LibraryStore;
  marks: MarksStore;
  assets: AssetsStore;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export class AgentService {
  /** The member's conversations (extension operations: thread-history.ts). */
  readonly threads: ThreadHistory;

  constructor(private readonly deps: AgentServiceDeps) {
    this.threads = new ThreadHistory({ store: deps.store, access: deps.access });
  }

  get engine(): AgentEngine {
    return this.deps.engine;
  }

  /** The whole Agent group answers 404 while an administrator has not turned the assistant on. */
  requireEnabled(): void {
    if (!this.deps.settings.section('llm').agent_enabled) throw new NotFound('The assistant is off on this server: an administrator turns it on in the settings (llm.agent_enabled).', 'agent_disabled');
  }

  tools(mode: string | undefined): ToolDescriptor[] {
    return toolsFor(modeOf(mode)).map(descriptorOf);
  }

  toolSchemas(): { name: string; kind: string; confirmation: boolean; modes: string[]; parameters: Record<string, unknown> }[] {
    return ALL_TOOLS.map((t) => ({
      name: t.name,
      kind: t.kind,
      confirmation: t.kind === 'effect',
      modes: (['free', 'review', 'organize', 'analyze', 'curate'] as const).filter((m) => toolNamed(m, t.name)),
      parameters: parametersOf(t),
    }));
  }

  // ------------------------------------------------------------------ refs

  private refBook(actor: Actor, threadId: string): RefBook {
    this.deps.access.require(actor, 'agent_thread', threadId, 'read', 'query.thread_id');
    return new RefBook(this.deps.store, this.deps.access, actor.userId, threadId);
  }

  ref(actor: Actor, refId: string, threadId: string) {
    const ref = this.refBook(actor, threadId).get(refId);
    return { ref_id: ref.ref_id, op: ref.op, count: ref.count, truncated: ref.truncated, created_at: iso(ref.created_at)!, facets: this.facets(actor, ref.ids) };
  }

  refAssets(actor: Actor, refId: string, threadId: string, page: { limit: number; offset: number }) {
    const ref = this.refBook(actor, threadId).get(refId);
    return this.assetPage(actor, ref.ids, page);
  }

  // ------------------------------------------------------------------ pins

  pins(actor: Actor): PinView[] {
    return this.deps.store.pins(actor.userId).map((p) => this.view(actor, p, this.idsOfPin(actor, p)));
  }

  pin(actor: Actor, pinId: string): PinView {
    const p = this.ownPin(actor, pinId);
    return this.view(actor, p, this.idsOfPin(actor, p));
  }

  async create(actor: Actor, body: { thread_id: string; ref_id: string; title?: string | undefined; widget?: Widget | undefined; mode?: 'live' | 'frozen' | undefined; layout?: { x: number; y: number; w: number; h: number } | undefined }): Promise<PinView> {
    const ref = this.refBook(actor, body.thread_id).get(body.ref_id);
    const replayable = PRODUCERS.has(ref.op);
    const mode = body.mode === 'frozen' || !replayable ? 'frozen' : 'live';
    const layout = body.layout ?? { x: 0, y: this.deps.store.boardBottom(actor.userId), w: 4, h: 4 };
    checkLayout(layout, 'body.layout');
    const row: Omit<PinRow, 'seq'> = {
      pin_id: crypto.randomUUID(),
      owner_id: actor.userId,
      thread_id: body.thread_id,
      ref_id: ref.ref_id,
      title: body.title ?? `${ref.count} ${ref.count === 1 ? 'item' : 'items'}`,
      widget: body.widget ?? 'cover_card',
      mode,
      op: ref.op,
      plan: JSON.stringify(ref.plan),
      asset_ids: JSON.stringify(ref.ids),
      count: ref.count,
      truncated: ref.truncated ? 1 : 0,
      layout_x: layout.x,
      layout_y: layout.y,
      layout_w: layout.w,
      layout_h: layout.h,
      last_successful_refresh_at: Date.now(),
      created_at: Date.now(),
    };
    this.deps.store.insertPin(row);
    const pin = this.deps.store.pin(row.pin_id, actor.userId)!;
    const view = this.view(actor, pin, await this.hydrate(actor, pin));
    return body.mode === 'live' && !replayable ? { ...view, fallback_reason: 'not_replayable' } : view;
  }

  update(actor: Actor, pinId: string, body: { title?: string | undefined; widget?: Widget | undefined }): { message: string } {
    this.ownPin(actor, pinId);
    this.deps.store.updatePin(pinId, body);
    return { message: 'Pin updated.' };
  }

  remove(actor: Actor, pinId: string): { message: string } {
    this.ownPin(actor, pinId);
    this.deps.store.deletePin(pinId);
    return { message: 'Pin deleted.' };
  }

  layout(actor: Actor, items: { pin_id: string; layout: { x: number; y: number; w: number; h: number } }[]): { message: string } {
    this.deps.access.requireAll(actor, 'agent_pin', items.map((i) => i.pin_id), 'change', (i) => `body.pins.${i}.pin_id`);
    items.forEach((i, n) => checkLayout(i.layout, `body.pins.${n}.layout`));
    this.deps.store.db.transaction(() => {
      for (const i of items) this.deps.store.layoutPin(i.pin_id, i.layout);
    })();
    return { message: `Laid out ${items.length} ${items.length === 1 ? 'pin' : 'pins'}.` };
  }

  async pinAssets(actor: Actor, pinId: string, page: { limit: number; offset: number }) {
    const p = this.ownPin(actor, pinId);
    return this.assetPage(actor, await this.hydrate(actor, p), page);
  }

  /** queryAssets within the pin: the member's list under the query's filter, kept to the pin's photos, in the list's order. */
  async queryPinAssets(actor: Actor, pinId: string, q: AssetQuery): Promise<GalleryList> {
    const p = this.ownPin(actor, pinId);
    const ids = await this.hydrate(actor, p);
    const limit = q.pagination?.limit ?? 50;
    const offset = q.pagination?.offset ?? 0;
    const inPin = this.deps.library.rowsOf(ids);
    let filter = q.filter;
    if (q.query) filter = { ...(filter ?? {}), filename: { operator: 'contains', value: q.query } };
    const rows = Array.from(await this.deps.lib.rows(actor, filter, q.viewer_timezone ?? 'UTC')).filter((r) => inPin.has(r));
    const page = rows.slice(offset, offset + limit);
    const items = await this.deps.lib.galleryItems(actor, page);
    return {
      items: page.flatMap((r) => (items.get(r) ? [items.get(r)!] : [])),
      limit,
      offset,
      stack_mode: 'expanded',
      total_files: await this.deps.lib.filesOf(rows),
      total_media_items: rows.length,
      total_visible: rows.length,
    };
  }

  /**
   * searchAssets within the pin: the search's candidate pool (up to 1,000) kept to the pin's photos, then paged.
   * Decision: a pin is a set of at most 10,000 photos; searching its 1,000 best candidates is what a member sees.
   */
  async searchPinAssets(actor: Actor, pinId: string, req: SearchRequest): Promise<SearchResponse> {
    const p = this.ownPin(actor, pinId);
    const inPin = new Set<string>(await this.hydrate(actor, p));
    const limit = req.pagination?.limit ?? 50;
    const offset = req.pagination?.offset ?? 0;
    const res = await this.deps.lib.search(actor, { ...req, pagination: { limit: 1000, offset: 0 } });
    const keep = (i: { media_item: { primary_asset: { asset_id: string } } }) => inPin.has(i.media_item.primary_asset.asset_id);
    const all = res.result_items.filter(keep);
    return { ...res, limit, offset, result_items: all.slice(offset, offset + limit), top_items: res.top_items.filter(keep), results_total_media_items: all.length, results_total_visible: all.length };
  }

  effectStatus(actor: Actor, effectId: string, threadId: string) {
    this.deps.access.require(actor, 'agent_thread', threadId, 'read', 'query.thread_id');
    this.deps.access.require(actor, 'agent_effect', effectId, 'read');
    const e = this.deps.store.effect(effectId, actor.userId);
    if (!e || e.thread_id !== threadId) throw new NotFound('No such assistant effect in this conversation.', 'agent_effect_not_found');
    const receipt = e.receipt ? (JSON.parse(e.receipt) as Record<string, unknown>) : null;
    const payload = JSON.parse(e.payload) as { confirmation?: Record<string, unknown> };
    return { effect_id: e.effect_id, status: e.status, tool_name: e.tool_name, run_id: e.run_id, confirmation: payload.confirmation ?? {}, receipt };
  }

  // ------------------------------------------------------------------ parts

  private ownPin(actor: Actor, pinId: string): PinRow {
    this.deps.access.require(actor, 'agent_pin', pinId, 'change');
    return this.deps.store.pin(pinId, actor.userId)!;
  }

  private idsOfPin(actor: Actor, p: PinRow): PermittedAssetId[] {
    return this.deps.access.permitted(actor, 'asset', JSON.parse(p.asset_ids) as string[], 'read');
  }

  /** A live pin's plan replayed (its snapshot when the replay fails); a frozen pin's snapshot. Always re-permitted. */
  private async hydrate(actor: Actor, p: PinRow): Promise<PermittedAssetId[]> {
    if (p.mode === 'frozen') return this.idsOfPin(actor, p);
    try {
      const plan = JSON.parse(p.plan) as Plan;
      const tool = toolNamed('free', plan.op);
      if (!tool || !p.thread_id) return this.idsOfPin(actor, p);
      // Replayed in a thread of its own kept by the pin's owner: the ref it makes is that thread's.
      const book = this.replayBook(actor, p);
      const out = await tool.run(tool.schema.parse(plan.payload), { ...this.deps.engine.toolContext(actor, book.threadId, 'UTC', new AbortController().signal), refs: book });
      if (!out.ref_id) return this.idsOfPin(actor, p);
      this.deps.store.refreshedPin(p.pin_id, Date.now());
      return book.get(out.ref_id).ids;
    } catch {
      return this.idsOfPin(actor, p);
    }
  }

  private replayBook(actor: Actor, p: PinRow): RefBook {
    return new RefBook(this.deps.store, this.deps.access, actor.userId, p.thread_id!);
  }

  private facets(actor: Actor, ids: PermittedAssetId[]): Facets {
    return facetsOf(markedFacts({ actor, library: this.deps.library, marks: this.deps.marks }, ids), this.deps.library.peopleIn(actor.userId, ids));
  }

  private view(actor: Actor, p: PinRow, ids: PermittedAssetId[]): PinView {
    const facets = this.facets(actor, ids);
    return {
      pin_id: p.pin_id,
      title: p.title,
      widget: p.widget,
      mode: p.mode,
      hydration_source: p.mode === 'live' ? 'live_replay' : 'snapshot',
      fallback_reason: null,
      last_successful_refresh_at: iso(p.last_successful_refresh_at),
      summary: `${facets.count} ${facets.count === 1 ? 'item' : 'items'}${facets.date_range.from ? `, ${facets.date_range.from} to ${facets.date_range.to}` : ''}`,
      count: facets.count,
      truncated: p.truncated === 1,
      created_at: iso(p.created_at)!,
      layout: { x: p.layout_x, y: p.layout_y, w: p.layout_w, h: p.layout_h },
      facets,
      thread_id: p.thread_id,
      ref_id: p.ref_id,
    };
  }

  private assetPage(actor: Actor, ids: PermittedAssetId[], page: { limit: number; offset: number }): { assets: Asset[]; pagination: { limit: number; offset: number }; total: number } {
    const slice = ids.slice(page.offset, page.offset + page.limit);
    const rows = new Map(this.deps.assets.byIds(slice).map((r) => [r.asset_id, r]));
    const ordered = slice.flatMap((id) => (rows.has(id) ? [rows.get(id)!] : []));
    const extras = loadAssetExtras(this.deps.assets, ordered.map((r) => r.asset_id));
    const assets = withReaderMarks(this.deps.marks, actor.userId, ordered.map((r) => toAsset(r, extras.get(r.asset_id))));
    return { assets, pagination: page, total: ids.length };
  }
}

function checkLayout(l: { x: number; y: number; w: number; h: number }, field: string): void {
  if (l.x + l.w > 12) throw new Invalid(`${field}: x + w must be at most 12 (a 12-column board).`, [{ field, message: 'x + w must be at most 12' }]);
}
