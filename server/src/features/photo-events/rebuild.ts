/**
 * One rebuild of an owner's events: read what events are made of, segment (segmentation.ts), keep ids
 * (reconcile.ts), apply the person's corrections, publish.
 *
 * Why the whole timeline and not just the dirty ranges: the segmentation is one linear pass over a
 * sorted list (100k items in well under a second, scripts/bench/events.ts), and an edit can move a
 * boundary anywhere its neighbours reach (the 36 h cap looks across a whole event). The dirty ranges
 * say that and when a rebuild is due (and are shown in the rebuild state); reading everything keeps
 * the result exactly what a rebuild from nothing gives, which is what makes ids stable.
 *
 * The person's corrections, applied after reconciliation on every rebuild:
 * - splits are cannot-links, seen by the segmentation itself;
 * - `exclude` (removed from event E): the item leaves E and belongs to no event (it was taken out on
 *   purpose; putting it into a neighbouring event would surprise);
 * - `include` (added to event E): the item moves to E, wherever the segmentation put it;
 * - title, hidden and cover live on the event row, which keeps its id; an event that is retired passes
 *   its title and hidden flag to its successor when that one has none of its own.
 * An event left with no item is retired.
 */
import { uuidv7 } from '../../platform/ids.ts';
import { nextTurn, Pace } from '../../platform/cache/slices.ts';
import { sphericalMean } from './geo.ts';
import { reconcileInSlices, type PreviousEvent } from './reconcile.ts';
import { ALGORITHM_VERSION, segmentInSlices } from './segmentation.ts';
import { eventTitle, offsetName, type PlaceNameAt } from './titles.ts';
import type { PhotoEventsStore, ItemFacts, MemberRow } from './photo-events.store.ts';

/**
 * The longest stretch of work between two turns of the event loop (ms; a rebuild must never hold it 50 ms). The
 * same turn of the loop also serves a request that came meanwhile (a page of the timeline: 5–10 ms of CPU) and the
 * slice's commit: with 12 ms the main thread used up to 34 ms of CPU between two timer firings, and two cores
 * shared with the browser and V8's helpers stretched that to 43–50 ms (bench:events). 8 ms keeps a turn near 25.
 */
export const SLICE_MS = 8;

/** Rows per read of the candidates (a few ms each; 1024 took 10–30 ms on a loaded 2-core machine). */
const READ_PAGE_ROWS = 512;

export interface PlannedEvent {
  id: string;
  isNew: boolean;
  members: { media_item_id: string; origin: 'segment' | 'added' }[];
  start: number;
  end: number;
  centroid: { lat: number; lon: number } | null;
  timezone: string | null;
  title: string;
}

export interface Plan {
  events: PlannedEvent[];
  retired: { id: string; successor: string | null }[];
}

/** Time, place and title of a set of items (sorted by time). */
export function describe(items: readonly ItemFacts[], placeNameAt: PlaceNameAt | null): Omit<PlannedEvent, 'id' | 'isNew' | 'members'> {
  const start = items[0]!.time;
  const end = items[items.length - 1]!.time;
  const centroid = sphericalMean(items.filter((c) => c.lat !== null && c.lon !== null).map((c) => ({ lat: c.lat!, lon: c.lon! })));
  // The most common capture offset stands for the event's time zone (a trip abroad has the local one).
  const offsets = new Map<number, number>();
  for (const c of items) if (c.offsetMinutes !== null) offsets.set(c.offsetMinutes, (offsets.get(c.offsetMinutes) ?? 0) + 1);
  let offset: number | null = null;
  for (const [o, k] of offsets) if (offset === null || k > offsets.get(offset)!) offset = o;
  const place = centroid && placeNameAt ? placeNameAt(centroid.lat, centroid.lon) : null;
  return { start, end, centroid, timezone: offsetName(offset), title: eventTitle({ start, end, offsetMinutes: offset ?? 0, place }) };
}

/**
 * The rebuild's result from what the catalog holds (no writes). Yields to the event loop between phases.
 * `prevMembers`: the members of the owner's active events (store.membersOfInSlices), read by the caller, which
 * gives the same map to publishSteps (one read of 100k members per rebuild, not two: photo-events.service.ts).
 */
export async function planRebuild(
  store: PhotoEventsStore,
  ownerId: number,
  prevMembers: ReadonlyMap<string, readonly MemberRow[]>,
  placeNameAt: PlaceNameAt | null,
  now: number,
  keepLease: () => void = () => {},
): Promise<Plan> {
  // Read a page at a time (the event loop stays free); the publish checks that nothing changed meanwhile.
  const items: ItemFacts[] = [];
  for (let after: string | null = ''; after !== null; ) {
    const page = store.candidatesPage(ownerId, after, READ_PAGE_ROWS);
    for (const c of page.items) items.push(c);
    after = page.last;
    await nextTurn();
  }
  // Each of the rebuild's passes over 100k items (maps of members, segments, groups) held the loop for tens of ms
  // on its own; together they were the 155–160 ms stalls measured in round one (issue 25): a turn every SLICE_MS.
  const pace = new Pace(SLICE_MS);
  // Only the items the person's labels name are looked up by id: a set of those, not a map of every item (a
  // 100k-entry map lived through the whole rebuild in the heap its major GCs marked).
  const labels = store.labels(ownerId);
  const placed = new Set(labels.map((l) => l.media_item_id));
  const present = new Set<string>();
  for (const c of items) {
    if (placed.has(c.id)) present.add(c.id);
    if (pace.due()) await pace.turn();
  }
  const links = store.links(ownerId);
  await nextTurn();
  keepLease();
  const { sorted, segments } = await segmentInSlices(items, { mustLink: links.must, cannotLink: links.cannot }, SLICE_MS);
  await nextTurn();
  keepLease();

  // Reconciliation compares what the segmentation decides on both sides: items the person placed
  // (added somewhere, or taken out) are left out of the comparison, so moving a photo out of an event
  // does not cost the event its id.
  const prevRows = store.activeOf(ownerId);
  await pace.turn();
  const previous: PreviousEvent[] = [];
  for (const e of prevRows) {
    previous.push({
      id: e.event_id,
      members: new Set((prevMembers.get(e.event_id) ?? []).filter((m) => m.origin === 'segment' && !placed.has(m.media_item_id)).map((m) => m.media_item_id)),
      start: e.start_at,
      end: e.end_at,
      centroid: e.centroid_lat !== null && e.centroid_lon !== null ? { lat: e.centroid_lat, lon: e.centroid_lon } : null,
      hasUserState: e.title_override !== null || e.is_hidden === 1 || e.cover_media_item_id !== null,
      coverItem: e.cover_media_item_id,
      createdAt: e.created_at,
    });
    if (pace.due()) await pace.turn();
  }
  await pace.turn();
  const segs: { all: string[]; members: string[]; start: number; end: number; centroid: ReturnType<typeof sphericalMean> }[] = [];
  for (const [s, t] of segments) {
    const all = sorted.slice(s, t);
    const own = all.filter((x) => !placed.has(x.id));
    const part = own.length ? own : all;
    const c = sphericalMean(part.filter((x) => x.lat !== null && x.lon !== null).map((x) => ({ lat: x.lat!, lon: x.lon! })));
    segs.push({ all: all.map((x) => x.id), members: own.map((x) => x.id), start: part[0]!.time, end: part[part.length - 1]!.time, centroid: c });
    if (pace.due()) await pace.turn();
  }
  await pace.turn();
  const rec = await pace.drive(reconcileInSlices(previous, segs));
  await pace.turn();
  keepLease();

  // Event id per segment; then the person's labels move items.
  // A new id draws random bytes (about 2 µs each; 5k new events on a first rebuild held the loop 12–50 ms in one go).
  const ids: string[] = [];
  for (const id of rec.assigned) {
    ids.push(id ?? uuidv7(now));
    if (pace.due()) await pace.turn();
  }
  const memberOf = new Map<string, string>(); // item → event id
  /** Items a label added to their event (origin 'added'); every other member's origin is 'segment'. */
  const added = new Set<string>();
  for (let i = 0; i < segs.length; i++) {
    for (const m of segs[i]!.all) memberOf.set(m, ids[i]!);
    if (pace.due()) await pace.turn();
  }
  const successor = new Map<string, string | null>(rec.retired.map((r) => [r.id, r.successor === null ? null : ids[r.successor]!]));
  const live = new Set(ids);
  const resolve = (eventId: string): string | null => {
    if (live.has(eventId)) return eventId;
    if (successor.has(eventId)) return successor.get(eventId)!;
    const row = store.byId(eventId);
    return row?.status === 'redirected' && row.redirect_to && live.has(row.redirect_to) ? row.redirect_to : null;
  };
  for (const l of labels) {
    if (pace.due()) await pace.turn();
    if (!present.has(l.media_item_id)) continue;
    const target = resolve(l.event_id);
    if (target === null) continue;
    if (l.label === 'exclude' && memberOf.get(l.media_item_id) === target) memberOf.delete(l.media_item_id);
    if (l.label === 'include') {
      memberOf.set(l.media_item_id, target);
      added.add(l.media_item_id);
    }
  }

  await pace.turn();
  const grouped = new Map<string, ItemFacts[]>();
  for (const c of sorted) {
    if (pace.due()) await pace.turn();
    const e = memberOf.get(c.id);
    if (e === undefined) continue;
    let list = grouped.get(e);
    if (!list) grouped.set(e, (list = []));
    list.push(c as ItemFacts); // the segmentation sorts the items it was given
  }
  const assignedIds = new Set(rec.assigned.filter((x): x is string => x !== null));
  const events: PlannedEvent[] = [];
  for (const [id, list] of grouped) {
    events.push({ id, isNew: !assignedIds.has(id), members: list.map((c) => ({ media_item_id: c.id, origin: added.has(c.id) ? ('added' as const) : ('segment' as const) })), ...describe(list, placeNameAt) });
    if (pace.due()) await pace.turn();
  }
  const retired = rec.retired.map((r) => ({ id: r.id, successor: r.successor === null ? null : ids[r.successor]! }));
  // An event emptied by the person's labels is retired too.
  for (const id of assignedIds) if (!grouped.has(id)) retired.push({ id, successor: null });
  for (const r of retired) if (r.successor !== null && !grouped.has(r.successor)) r.successor = null;
  return { events, retired };
}

/**
 * The writes of a plan, in an order where every prefix leaves the catalog consistent, so that they can be run
 * in several short transactions (the event loop stays free while 100k items are published; photo-events.service.ts
 * says what happens when the library changes between two of them):
 * 1. each planned event: its row inserted or its computed fields updated, then, when its members changed, it
 *    takes them (from whichever event holds them now: an item is in one event at most) and lets go of the rest;
 * 2. each retired event: retired (its remaining members leave), and the person's title and hidden flag follow
 *    their photos to the successor when it has none of its own;
 * Only events whose members or fields changed are rewritten. `current`: the members of every active event now.
 * The result equals the single transaction's of before.
 */
export function publishSteps(store: PhotoEventsStore, ownerId: number, plan: Plan, now: number, current: ReadonlyMap<string, readonly MemberRow[]>): (() => void)[] {
  const steps: (() => void)[] = [];
  for (const e of plan.events) {
    const fields = {
      event_id: e.id,
      start_at: e.start,
      end_at: e.end,
      timezone: e.timezone,
      centroid_lat: e.centroid?.lat ?? null,
      centroid_lon: e.centroid?.lon ?? null,
      generated_title: e.title,
      algorithm_version: ALGORITHM_VERSION,
      updated_at: now,
    };
    steps.push(() => {
      // Compared here, inside the step's slice (`current` was read before the first step), not for every
      // event before the first write: that pass over 100k members held the event loop on its own.
      const before = current.get(e.id);
      const same = before !== undefined && before.length === e.members.length && before.every((m, i) => m.media_item_id === e.members[i]!.media_item_id && m.origin === e.members[i]!.origin);
      if (e.isNew) store.insert({ ...fields, owner_id: ownerId, status: 'active', title_override: null, is_hidden: 0, cover_media_item_id: null, redirect_to: null, created_at: now });
      else store.updateComputed(fields);
      if (!same) store.takeMembers(e.id, e.members);
    });
  }
  for (const r of plan.retired) {
    steps.push(() => {
      const old = store.byId(r.id);
      store.retire(r.id, r.successor, now);
      // The person's title and hidden flag follow their photos to the successor (when it has none of its own).
      if (!old || r.successor === null || (old.title_override === null && old.is_hidden === 0)) return;
      const next = store.byId(r.successor)!;
      if (next.title_override === null && next.is_hidden === 0) store.setUserFields(r.successor, { title_override: old.title_override, is_hidden: old.is_hidden }, now);
    });
  }
  return steps;
}
