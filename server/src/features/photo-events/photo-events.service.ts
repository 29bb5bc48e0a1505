/**
 * Photo events (events-v1): a person's media items grouped into events by time and place, with ids
 * that stay across rebuilds and the person's corrections kept through every rebuild (see
 * segmentation.ts, reconcile.ts, rebuild.ts for the rules).
 *
 * Decisions where the contract is silent:
 * - Events are private to their owner: another member's event (administrators included) is 404.
 * - Corrections apply at once to what the person sees (no waiting for a rebuild) and are recorded as
 *   intent that every rebuild applies again: title, cover, hidden on the event; added and removed
 *   items as labels; a split as a cannot-link between the two items either side of the cut.
 *   `pending_rebuild` says a rebuild is due for the owner (changes not yet rebuilt).
 * - splitEvent takes `at_media_item_id` (that item and everything after it form the new event) or
 *   `at_time` (ms: items at or after it). The point must fall inside the event with items on both
 *   sides: else 422 naming the field (`split_point_outside_event`). The earlier part keeps the id.
 * - A removed item belongs to no event afterwards (taken out on purpose); adding an item moves it
 *   from whichever event it was in.
 * - resetEvent drops the corrections made on the event (title, cover, hidden, its added and removed
 *   items, the splits made on it or that made it) and queues a rebuild at once: the answer is the
 *   event as it is, with `pending_rebuild: true`.
 * - Rebuilds: after asset changes (the catalog's triggers write dirty ranges, asset events queue a
 *   debounced job; a sweep each minute catches any other writer). Pausing stops automatic rebuilds;
 *   `rebuild: true` asks for one now, also while paused; while a run holds the lease it is 409
 *   `event_rebuild_running` (not a second run).
 * - Counts: `canonical_media_count` media items; `media_count` their files outside the Trash;
 *   `displayable_count` items with a file ready to show; `projected_media_count` the items the event
 *   holds once pending corrections are rebuilt, which (corrections applying at once) is the same as
 *   `canonical_media_count`.
 * - Titles: `title` is the person's title, else the generated one (place · month, else the dates).
 */
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Invalid, NotFound } from '../../platform/http/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { SnoozeError } from '../../platform/jobs/registry.ts';
import { AssetsStore } from '../assets/index.ts';
import { PhotoEventsStore, type EventRow } from './photo-events.store.ts';
import { rebuildOwnerEventsJob } from './photo-events.jobs.ts';
import { nextTurn } from '../../platform/cache/slices.ts';
import { describe, planRebuild, publishSteps, SLICE_MS } from './rebuild.ts';
import { eventRelations, type PeopleOfItems, type Relation } from './relations.ts';
import { ALGORITHM_VERSION, byTimeThenId } from './segmentation.ts';
import type { PlaceNameAt } from './titles.ts';

export interface EventView {
  event_id: string;
  title: string;
  title_override: string | null;
  start_at: number;
  end_at: number;
  timezone: string | null;
  is_hidden: boolean;
  media_count: number;
  canonical_media_count: number;
  displayable_count: number;
  projected_media_count: number;
  cover_asset_id: string | null;
  cover_media_item_id: string | null;
  centroid: { lat: number; lon: number } | null;
  redirected_from: string | null;
}
export interface EventDetail extends EventView {
  algorithm_version: string;
  pending_rebuild: boolean;
}
export interface RebuildState {
  algorithm_version: string;
  initialized: boolean;
  last_error_code: string | null;
  last_failure_run_id: string | null;
  last_success_run_id: string | null;
  paused: boolean;
  pending: boolean;
  pending_ranges: { start_at: number; end_at: number }[];
  published_revision: number;
  queued_run_id: string | null;
  revision: number;
  running_run_id: string | null;
  source_revision: number;
}

export interface EventsOptions {
  /** How long after a change an automatic rebuild waits (changes meanwhile join it). */
  debounceMs?: number;
  /** How often the sweep looks for owners with changes and no rebuild queued. */
  sweepMs?: number;
  now?: () => number;
  /**
   * Place names for titles (features/places): `at` names a position; `ready` loads what the names come from
   * before a rebuild (the gazetteer, read asynchronously; null when loaded), so a rebuild never parses it on the
   * event loop (a title changed by a person may load it at first use). Absent: titles without places.
   */
  placeNames?: { at: PlaceNameAt; ready?: () => Promise<unknown> | null };
  /** The people in a set of items (features/faces), for relations between events. Absent: no people. */
  people?: PeopleOfItems;
}

const LEASE_MS = 30_000;
const RANGES_SHOWN = 100;

export class PhotoEventsService {
  readonly store: PhotoEventsStore;
  private readonly assets: AssetsStore;
  private readonly placeNameAt: PlaceNameAt | null;
  private readonly placeNamesReady: (() => Promise<unknown> | null) | null;
  private readonly people: PeopleOfItems | null;
  private readonly debounceMs: number;
  private readonly now: () => number;
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly jobs: JobQueue,
    opts: EventsOptions = {},
  ) {
    this.store = new PhotoEventsStore(db);
    this.assets = new AssetsStore(db);
    this.debounceMs = opts.debounceMs ?? 60_000;
    this.now = opts.now ?? Date.now;
    this.placeNameAt = opts.placeNames?.at ?? null;
    this.placeNamesReady = opts.placeNames?.ready ?? null;
    this.people = opts.people ?? null;
    const sweepMs = opts.sweepMs ?? 60_000;
    if (sweepMs > 0) {
      this.sweep = setInterval(() => this.enqueueWaiting(), sweepMs);
      this.sweep.unref();
    }
  }

  stop(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
  }

  // ------------------------------------------------------------------ reads

  list(actor: Actor, q: { include_hidden?: boolean | undefined; limit: number; cursor?: string | undefined; repository_id?: string | undefined }): { events: EventView[]; next_cursor: string | null } {
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    const rows = this.store.page(actor.userId, { includeHidden: q.include_hidden ?? false, limit: q.limit + 1, after, repositoryId: q.repository_id });
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      events: page.map((e) => this.view(e, null)),
      next_cursor: rows.length > q.limit && last ? Buffer.from(JSON.stringify([last.start_at, last.event_id])).toString('base64url') : null,
    };
  }

  get(actor: Actor, eventId: string): EventDetail {
    const { row, from } = this.resolveOwn(actor, eventId);
    return this.detail(row, from);
  }

  /** `repository_id`: only items with a file in that repository (getEvent takes it too and ignores it: an event spans repositories). */
  members(actor: Actor, eventId: string, q: { limit: number; cursor?: string | undefined; repository_id?: string | undefined }): { assets: { asset_id: string; media_item_id: string; position: number }[]; next_cursor: string | null; omitted_members: number } {
    const { row } = this.resolveOwn(actor, eventId);
    const after = q.cursor === undefined ? -1 : decodePosition(q.cursor);
    const rows = this.db
      .prepare(
        `SELECT m.media_item_id, m.position, ${PRIMARY_SHOWN} AS asset_id FROM photo_event_members m JOIN media_items mi ON mi.media_item_id = m.media_item_id
         WHERE m.event_id = @id AND m.position > @after AND ${PRIMARY_SHOWN} IS NOT NULL
           AND (@repo IS NULL OR EXISTS (SELECT 1 FROM assets r WHERE r.media_item_id = m.media_item_id AND r.repository_id = @repo AND r.is_deleted = 0))
         ORDER BY m.position LIMIT @limit`,
      )
      .all({ id: row.event_id, after, repo: q.repository_id ?? null, limit: q.limit + 1 }) as { media_item_id: string; position: number; asset_id: string }[];
    const omitted = this.db
      .prepare(`SELECT count(*) FROM photo_event_members m JOIN media_items mi ON mi.media_item_id = m.media_item_id WHERE m.event_id = ? AND ${PRIMARY_SHOWN} IS NULL`)
      .pluck()
      .get(row.event_id) as number;
    const page = rows.slice(0, q.limit);
    return {
      assets: page.map((r) => ({ asset_id: r.asset_id, media_item_id: r.media_item_id, position: r.position })),
      next_cursor: rows.length > q.limit ? `p${page[page.length - 1]!.position}` : null,
      omitted_members: omitted,
    };
  }

  relations(actor: Actor, eventId: string): { complete: boolean; relations: Relation[]; source_version: string } {
    const { row } = this.resolveOwn(actor, eventId);
    const items = this.store.members(row.event_id).map((m) => m.media_item_id);
    const r = eventRelations(this.db, actor.userId, row.event_id, items, this.people);
    const s = this.store.state(actor.userId);
    return { ...r, source_version: `${ALGORITHM_VERSION}:${s.published_revision}` };
  }

  rebuildState(actor: Actor): RebuildState {
    const s = this.store.state(actor.userId);
    const now = this.now();
    const ranges = this.store.pendingRanges(actor.userId);
    const queued = this.queuedJob(actor.userId);
    const running = s.running_run_id && (s.lease_expires_at ?? 0) > now ? s.running_run_id : null;
    return {
      algorithm_version: s.algorithm_version,
      initialized: s.initialized === 1,
      last_error_code: s.last_error_code,
      last_failure_run_id: s.last_failure_run_id,
      last_success_run_id: s.last_success_run_id,
      paused: s.paused === 1,
      pending: s.revision > s.source_revision || ranges.length > 0,
      pending_ranges: mergeRanges(ranges).slice(0, RANGES_SHOWN),
      published_revision: s.published_revision,
      queued_run_id: queued,
      revision: s.revision,
      running_run_id: running,
      source_revision: s.source_revision,
    };
  }

  // ------------------------------------------------------------------ corrections

  update(actor: Actor, eventId: string, body: { title_override?: string | null | undefined; is_hidden?: boolean | undefined; cover_asset_id?: string | null | undefined }): { event: EventDetail; pending_rebuild: boolean } {
    return this.correct(actor, eventId, (row, now) => {
      const f: { title_override?: string | null; is_hidden?: number; cover_media_item_id?: string | null } = {};
      if (body.title_override !== undefined) f.title_override = body.title_override === null || body.title_override.trim() === '' ? null : body.title_override.trim();
      if (body.is_hidden !== undefined) f.is_hidden = body.is_hidden ? 1 : 0;
      if (body.cover_asset_id !== undefined) {
        if (body.cover_asset_id === null) f.cover_media_item_id = null;
        else {
          // Another member's photo (even one shared with the caller) is no photo of the caller's event: 422 as documented.
          const [cover] = this.access.permitted(actor, 'asset', [body.cover_asset_id], 'change');
          const item = cover === undefined ? undefined : (this.db.prepare('SELECT media_item_id FROM assets WHERE asset_id = ? AND is_deleted = 0').pluck().get(cover) as string | null | undefined);
          if (!item || this.store.eventOfItem(item) !== row.event_id) {
            throw new Invalid('The cover must be a photo of this event.', [{ field: 'body.cover_asset_id', message: 'is not a photo of this event', code: 'cover_not_member' }], 'cover_not_member');
          }
          f.cover_media_item_id = item;
        }
      }
      if (Object.keys(f).length) this.store.setUserFields(row.event_id, f, now);
      return row.event_id;
    });
  }

  addAssets(actor: Actor, eventId: string, assetIds: string[]): { event: EventDetail; pending_rebuild: boolean } {
    return this.correct(actor, eventId, (row, now) => {
      // `change` on an asset is its owner's alone (rules.ts): a partner's photo is 403, another's 404.
      const permitted = this.access.requireAll(actor, 'asset', assetIds, 'change', (i) => `body.asset_ids.${i}`);
      const assets = this.assets.byIds(permitted);
      const items: string[] = [];
      for (const a of assets) {
        if (a.is_deleted) throw new Conflict(`Asset ${a.asset_id} is in the Trash; restore it first.`, 'asset_in_trash');
        if (!a.media_item_id) throw new Conflict(`Asset ${a.asset_id} is not processed yet.`, 'asset_not_ready');
        if (!items.includes(a.media_item_id)) items.push(a.media_item_id);
      }
      const touched = new Set<string>([row.event_id]);
      for (const item of items) {
        const was = this.store.eventOfItem(item);
        if (was === row.event_id) continue;
        if (was) touched.add(was);
        this.store.removeMember(item);
        this.store.setLabel(actor.userId, item, row.event_id, 'include', now);
        this.db.prepare("DELETE FROM photo_event_item_labels WHERE media_item_id = ? AND event_id = ? AND label = 'exclude'").run(item, row.event_id);
        this.db.prepare("INSERT INTO photo_event_members (event_id, media_item_id, position, origin) VALUES (?, ?, 0, 'added')").run(row.event_id, item);
      }
      for (const id of touched) this.recompute(id, now);
      return row.event_id;
    });
  }

  removeItem(actor: Actor, eventId: string, mediaItemId: string): { event: EventDetail; pending_rebuild: boolean } {
    return this.correct(actor, eventId, (row, now) => {
      if (this.store.eventOfItem(mediaItemId) !== row.event_id) throw new NotFound('That media item is not in this event.', 'event_member_not_found');
      this.store.removeMember(mediaItemId);
      this.db.prepare("DELETE FROM photo_event_item_labels WHERE media_item_id = ? AND event_id = ? AND label = 'include'").run(mediaItemId, row.event_id);
      this.store.setLabel(actor.userId, mediaItemId, row.event_id, 'exclude', now);
      this.recompute(row.event_id, now);
      return row.event_id;
    });
  }

  split(actor: Actor, eventId: string, at: { at_media_item_id?: string | undefined; at_time?: number | undefined }): { event: EventDetail; pending_rebuild: boolean; created_event_id: string } {
    let created = '';
    const r = this.correct(actor, eventId, (row, now) => {
      const facts = this.itemsOf(row.event_id, actor.userId);
      let cut: number;
      if (at.at_media_item_id !== undefined) {
        cut = facts.findIndex((f) => f.id === at.at_media_item_id);
        if (cut <= 0) {
          throw new Invalid('Split at a photo of this event after its first one.', [
            { field: 'body.at_media_item_id', message: cut < 0 ? 'is not an item of this event' : 'is the first item: nothing would stay before it', code: 'split_point_outside_event' },
          ], 'split_point_outside_event');
        }
      } else {
        cut = facts.findIndex((f) => f.time >= at.at_time!);
        if (cut <= 0) {
          throw new Invalid('Split at a time inside the event, with photos before and after it.', [
            { field: 'body.at_time', message: 'is not inside the event (photos are needed on both sides)', code: 'split_point_outside_event' },
          ], 'split_point_outside_event');
        }
      }
      const before = facts.slice(0, cut);
      const after = facts.slice(cut);
      created = uuidv7(now);
      const d = describe(after, this.placeNameAt);
      this.store.insert({
        event_id: created, owner_id: actor.userId, status: 'active', algorithm_version: ALGORITHM_VERSION, start_at: d.start, end_at: d.end, timezone: d.timezone,
        centroid_lat: d.centroid?.lat ?? null, centroid_lon: d.centroid?.lon ?? null, generated_title: d.title, title_override: null, is_hidden: row.is_hidden,
        cover_media_item_id: null, redirect_to: null, created_at: now, updated_at: now,
      });
      const origins = new Map(this.store.members(row.event_id).map((m) => [m.media_item_id, m.origin]));
      for (const f of after) this.store.removeMember(f.id);
      this.store.replaceMembers(created, after.map((f) => ({ media_item_id: f.id, origin: origins.get(f.id) ?? 'segment' })));
      this.store.repointIncludes(after.map((f) => f.id), row.event_id, created);
      this.store.addLink({ owner_id: actor.userId, a: before[before.length - 1]!.id, b: after[0]!.id, kind: 'cannot_link', event_id: row.event_id, created_event_id: created, at: now });
      if (row.cover_media_item_id && after.some((f) => f.id === row.cover_media_item_id)) this.store.setUserFields(row.event_id, { cover_media_item_id: null }, now);
      this.recompute(row.event_id, now);
      return row.event_id;
    });
    return { ...r, created_event_id: created };
  }

  reset(actor: Actor, eventId: string): { event: EventDetail; pending_rebuild: boolean } {
    return this.correct(actor, eventId, (row, now) => {
      // The splits go at once: parts split off this event come back into it; an event that a split made
      // goes back into the one it was split from (the answer is then that event).
      let target = row.event_id;
      const splits = this.db
        .prepare("SELECT event_id, created_event_id FROM photo_event_links WHERE kind = 'cannot_link' AND (event_id = ? OR created_event_id = ?)")
        .all(row.event_id, row.event_id) as { event_id: string; created_event_id: string | null }[];
      const parent = splits.find((l) => l.created_event_id === row.event_id && this.store.byId(l.event_id)?.status === 'active');
      if (parent) target = parent.event_id;
      const parts = new Set(splits.map((l) => l.created_event_id).filter((id): id is string => id !== null && id !== target));
      if (parent) parts.add(row.event_id);
      this.store.dropCorrections(row.event_id, now);
      for (const part of parts) {
        const p = this.store.byId(part);
        if (p?.status !== 'active') continue;
        const moved = this.store.members(part);
        this.store.retire(part, target, now);
        const current = this.store.members(target);
        this.store.replaceMembers(target, [...current, ...moved].map((m) => ({ media_item_id: m.media_item_id, origin: m.origin })));
      }
      this.recompute(target, now);
      return target;
    }, 0);
  }

  updateRebuildState(actor: Actor, body: { paused?: boolean | undefined; rebuild?: boolean | undefined }): RebuildState {
    const now = this.now();
    this.db
      .transaction(() => {
        const s = this.store.state(actor.userId);
        if (body.rebuild && s.running_run_id && (s.lease_expires_at ?? 0) > now) {
          throw new Conflict('A rebuild of your events is already running; wait for it to finish.', 'event_rebuild_running');
        }
        if (body.paused !== undefined) this.store.setPaused(actor.userId, body.paused, now);
        if (body.rebuild) this.enqueue(actor.userId, 0, true);
        else if (body.paused === false) this.enqueueIfWaiting(actor.userId);
      })
      .immediate();
    return this.rebuildState(actor);
  }

  // ------------------------------------------------------------------ rebuilds

  /** Subscribed to asset events (container.ts): a debounced rebuild for the owner, unless paused. */
  afterAssetChange(ownerId: number): void {
    if (this.store.state(ownerId).paused) return;
    this.enqueue(ownerId, this.debounceMs, false);
  }

  /** The job: one run, published only if nothing changed meanwhile (else it waits and runs again). */
  async runRebuildJob(ownerId: number, manual: boolean, runId: string): Promise<{ published: boolean; events: number } | { skipped: string }> {
    if (!manual && this.store.state(ownerId).paused) return { skipped: 'automatic rebuilds are paused' };
    // Only awaited when there is something to load: a run otherwise starts reading at once.
    const loading = this.placeNameAt && this.placeNamesReady ? this.placeNamesReady() : null;
    // A turn between the load's last step (the gazetteer's decode and its grid index, in the task that resolves
    // it) and the rebuild's first reads: chained in one task, the two held the loop 58 ms (bench:events).
    if (loading) {
      await loading;
      await nextTurn();
    }
    const r = await this.rebuild(ownerId, runId);
    if (r === 'busy') throw new SnoozeError(LEASE_MS / 6, 'another rebuild of this owner is running');
    if (r === 'changed') throw new SnoozeError(Math.min(this.debounceMs, 5_000), 'the library changed during the rebuild: again');
    return { published: true, events: r.events };
  }

  /** One rebuild run; 'busy' when another run holds the lease, 'changed' when the inputs moved meanwhile. */
  async rebuild(ownerId: number, runId: string): Promise<{ events: number } | 'busy' | 'changed'> {
    let revision = 0;
    const claimed = this.db
      .transaction(() => {
        const ok = this.store.claim(ownerId, runId, this.now(), LEASE_MS);
        revision = this.store.state(ownerId).revision;
        return ok;
      })
      .immediate();
    if (!claimed) return 'busy';
    try {
      // The members of the events as they are, read once for both the plan (reconciliation) and the publish
      // (which events changed): 100k member rows read and held twice were a good part of the rebuild's heap
      // (issue 25 point 4: its major GCs). Reading them again before publishing would find them the same:
      // every change to them (a correction, an asset change, another run) moves the revision or the lease,
      // and then nothing is published (below).
      const members = await this.store.membersOfInSlices(ownerId);
      const plan = await planRebuild(this.store, ownerId, members, this.placeNameAt, this.now(), () => this.store.renew(ownerId, runId, this.now(), LEASE_MS));
      // The plan's last slice (describing events, place names included) ends in the task where it resolves: the
      // first publish transaction gets a turn of its own instead of running its slice on top of that one.
      await nextTurn();
      const steps = publishSteps(this.store, ownerId, plan, this.now(), members);
      // Published in short transactions (SLICE_MS each, a turn of the event loop between them), each first
      // checking that the inputs did not move since they were read. When they did, the publishing stops there
      // ('changed': the job runs again shortly): every step leaves the catalog consistent (rebuild.ts
      // publishSteps), so readers meanwhile see each event either as it was or as it will be, never an item in
      // two events, and the next run reconciles from that state (ids, titles and hidden flags are on the rows
      // and stay). The browse lists filtering on events start over after every transaction (the journal entry).
      for (let x = 0; ; ) {
        const out = this.db
          .transaction(() => {
            const s = this.store.state(ownerId);
            if (s.revision !== revision || s.running_run_id !== runId) {
              this.store.release(ownerId, runId, null, this.now());
              return 'changed' as const;
            }
            const start = performance.now();
            while (x < steps.length && performance.now() - start < SLICE_MS) steps[x++]!();
            this.store.journal();
            if (x < steps.length) return null;
            this.store.published(ownerId, runId, revision, this.now());
            return { events: plan.events.length };
          })
          .immediate();
        if (out) return out;
        this.store.renew(ownerId, runId, this.now(), LEASE_MS);
        await nextTurn();
      }
    } catch (e) {
      this.db.transaction(() => this.store.release(ownerId, runId, { code: 'rebuild_failed' }, this.now())).immediate();
      throw e;
    }
  }

  /** The sweep: owners with changes waiting and no rebuild queued get one. */
  enqueueWaiting(): void {
    try {
      this.db.transaction(() => {
        for (const owner of this.store.ownersWaiting()) if (this.queuedJob(owner) === null) this.enqueue(owner, 0, false);
      }).immediate();
    } catch {
      // The catalog is closing or busy: the next sweep tries again.
    }
  }

  // ------------------------------------------------------------------ helpers

  private enqueueIfWaiting(ownerId: number): void {
    if (this.store.ownersWaiting().includes(ownerId)) this.enqueue(ownerId, 0, false);
  }

  private enqueue(ownerId: number, delayMs: number, manual: boolean): void {
    const first = this.jobs.enqueue(rebuildOwnerEventsJob, { owner_id: ownerId, manual }, { delayMs, ownerId });
    if (!first.inserted && first.job.state === 'running') {
      // The running one may have read the catalog already: one follow-up per running job.
      this.jobs.enqueue(rebuildOwnerEventsJob, { owner_id: ownerId, manual }, { delayMs, ownerId, uniqueKey: `owner:${ownerId}:after:${first.job.id}` });
    } else if (!first.inserted && manual && first.job.state !== 'running') {
      this.db.prepare("UPDATE jobs SET run_at = ?, state = 'available', args = json_set(args, '$.manual', json('true')) WHERE id = ? AND state IN ('scheduled', 'available')").run(this.now(), first.job.id);
    }
  }

  private queuedJob(ownerId: number): string | null {
    const id = this.db
      .prepare("SELECT id FROM jobs WHERE kind = ? AND owner_id = ? AND state IN ('available', 'scheduled', 'retryable') ORDER BY id LIMIT 1")
      .pluck()
      .get(rebuildOwnerEventsJob.kind, ownerId) as number | undefined;
    return id === undefined ? null : String(id);
  }

  /** A correction: applied now, in one transaction with the revision bump (a run reading before it does not publish). */
  private correct(actor: Actor, eventId: string, apply: (row: EventRow, now: number) => string, delayMs = this.debounceMs): { event: EventDetail; pending_rebuild: boolean } {
    const now = this.now();
    const id = this.db
      .transaction(() => {
        const { row } = this.resolveOwn(actor, eventId);
        const id = apply(row, now);
        this.store.bumpRevision(actor.userId, now);
        this.store.journal();
        this.enqueue(actor.userId, delayMs, delayMs === 0);
        return id;
      })
      .immediate();
    const event = this.detail(this.store.byId(id)!, null);
    return { event, pending_rebuild: event.pending_rebuild };
  }

  /** The event's computed fields again from its members (after a correction changed them). */
  private recompute(eventId: string, now: number): void {
    const row = this.store.byId(eventId)!;
    const facts = this.itemsOf(eventId, row.owner_id);
    if (facts.length === 0) {
      this.store.retire(eventId, null, now);
      return;
    }
    const origins = new Map(this.store.members(eventId).map((m) => [m.media_item_id, m.origin]));
    this.store.replaceMembers(eventId, facts.map((f) => ({ media_item_id: f.id, origin: origins.get(f.id) ?? 'segment' })));
    const d = describe(facts, this.placeNameAt);
    this.store.updateComputed({
      event_id: eventId, start_at: d.start, end_at: d.end, timezone: d.timezone, centroid_lat: d.centroid?.lat ?? null, centroid_lon: d.centroid?.lon ?? null,
      generated_title: d.title, algorithm_version: ALGORITHM_VERSION, updated_at: now,
    });
  }

  /** The event's items as candidates, in time order. */
  private itemsOf(eventId: string, ownerId: number) {
    const members = this.store.members(eventId).map((m) => m.media_item_id);
    return this.store.candidates(ownerId, members).sort(byTimeThenId);
  }

  /**
   * The caller's event by id (404 `event_not_found` when unknown or another member's: the access layer's
   * rule), following a redirect (one hop) to its successor, which is the same owner's.
   */
  private resolveOwn(actor: Actor, eventId: string): { row: EventRow; from: string | null } {
    const row = this.store.byId(this.access.require(actor, 'photo_event', eventId, 'read'));
    if (!row) throw new NotFound('No such event.', 'event_not_found');
    if (row.status === 'active') return { row, from: null };
    const next = row.redirect_to ? this.store.byId(row.redirect_to) : undefined;
    if (row.status === 'redirected' && next?.status === 'active') return { row: next, from: row.event_id };
    throw new NotFound('This event no longer exists: its photos are gone.', 'event_not_found');
  }

  private detail(row: EventRow, from: string | null): EventDetail {
    const s = this.store.state(row.owner_id);
    const pending = s.revision > s.source_revision || this.store.pendingRanges(row.owner_id).length > 0;
    return { ...this.view(row, from), algorithm_version: row.algorithm_version, pending_rebuild: pending };
  }

  private view(row: EventRow, from: string | null): EventView {
    const c = this.db
      .prepare(
        `SELECT count(*) AS items,
           (SELECT count(*) FROM assets a WHERE a.media_item_id IN (SELECT media_item_id FROM photo_event_members WHERE event_id = @id) AND a.is_deleted = 0) AS files,
           sum(EXISTS (SELECT 1 FROM assets a WHERE a.media_item_id = m.media_item_id AND a.is_deleted = 0 AND a.state = 'ready')) AS shown
         FROM photo_event_members m WHERE m.event_id = @id`,
      )
      .get({ id: row.event_id }) as { items: number; files: number; shown: number | null };
    const first = this.db.prepare('SELECT media_item_id FROM photo_event_members WHERE event_id = ? ORDER BY position LIMIT 1').pluck().get(row.event_id) as string | undefined;
    const coverItem = row.cover_media_item_id ?? first ?? null;
    const coverAsset = coverItem
      ? ((this.db.prepare(`SELECT ${PRIMARY_SHOWN} FROM media_items mi WHERE mi.media_item_id = ?`).pluck().get(coverItem) as string | null | undefined) ?? null)
      : null;
    return {
      event_id: row.event_id,
      title: row.title_override ?? row.generated_title,
      title_override: row.title_override,
      start_at: row.start_at,
      end_at: row.end_at,
      timezone: row.timezone,
      is_hidden: row.is_hidden === 1,
      media_count: c.files,
      canonical_media_count: c.items,
      displayable_count: c.shown ?? 0,
      projected_media_count: c.items,
      cover_asset_id: coverAsset,
      cover_media_item_id: coverItem,
      centroid: row.centroid_lat !== null && row.centroid_lon !== null ? { lat: row.centroid_lat, lon: row.centroid_lon } : null,
      redirected_from: from,
    };
  }
}

/** The file that shows a media item: its primary when outside the Trash, else its first file outside the Trash. */
const PRIMARY_SHOWN = `coalesce(
  (SELECT a.asset_id FROM assets a WHERE a.asset_id = mi.primary_asset_id AND a.is_deleted = 0),
  (SELECT a.asset_id FROM assets a WHERE a.media_item_id = mi.media_item_id AND a.is_deleted = 0 ORDER BY a.asset_id LIMIT 1))`;

function decodeCursor(cursor: string): { start: number; id: string } {
  try {
    const [start, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof start === 'number' && typeof id === 'string') return { start, id };
  } catch {
    // falls through
  }
  throw new Invalid('Check query.cursor (not a cursor this list gave).', [{ field: 'query.cursor', message: 'is not a cursor of this list', code: 'invalid_cursor' }], 'invalid_cursor');
}

function decodePosition(cursor: string): number {
  const m = /^p(\d{1,9})$/.exec(cursor);
  if (!m) throw new Invalid('Check query.cursor (not a cursor this list gave).', [{ field: 'query.cursor', message: 'is not a cursor of this list', code: 'invalid_cursor' }], 'invalid_cursor');
  return Number(m[1]);
}

function mergeRanges(ranges: { from: number; to: number }[]): { start_at: number; end_at: number }[] {
  const out: { start_at: number; end_at: number }[] = [];
  for (const r of [...ranges].sort((a, b) => a.from - b.from)) {
    const last = out[out.length - 1];
    if (last && r.from <= last.end_at) last.end_at = Math.max(last.end_at, r.to);
    else out.push({ start_at: r.from, end_at: r.to });
  }
  return out;
}
