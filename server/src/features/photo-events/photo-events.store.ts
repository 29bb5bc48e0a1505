/** SQL of photo events (migration 0021_events.sql). No rules here: see photo-events.service.ts and rebuild.ts. */
import { nextTurn } from '../../platform/cache/slices.ts';
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { depBits } from '../../platform/cache/change-journal.ts';
import type { Candidate } from './segmentation.ts';

export interface EventRow {
  event_id: string;
  owner_id: number;
  status: 'active' | 'redirected' | 'retired';
  algorithm_version: string;
  start_at: number;
  end_at: number;
  timezone: string | null;
  centroid_lat: number | null;
  centroid_lon: number | null;
  generated_title: string;
  title_override: string | null;
  is_hidden: number;
  cover_media_item_id: string | null;
  redirect_to: string | null;
  created_at: number;
  updated_at: number;
}

export interface OwnerStateRow {
  owner_id: number;
  algorithm_version: string;
  initialized: number;
  paused: number;
  revision: number;
  source_revision: number;
  published_revision: number;
  running_run_id: string | null;
  lease_expires_at: number | null;
  last_success_run_id: string | null;
  last_failure_run_id: string | null;
  last_error_code: string | null;
}

export interface MemberRow {
  media_item_id: string;
  position: number;
  origin: 'segment' | 'added';
}

/** A media item as the rebuild reads it: its candidate, and what a member listing shows. */
export interface ItemFacts extends Candidate {
  offsetMinutes: number | null;
  timeSource: 'taken' | 'upload' | 'created';
}

/** Which file of an item gives its place when the primary has none (the reference's relation priority). */
const RELATION_PRIORITY = ['live_photo_still', 'jpeg_original', 'raw_original', 'original', 'edited_version', 'alternative', 'component', 'live_photo_video'];

const EVENTS_DEP = depBits(['events']);

/**
 * One page of an owner's active events' members, in (event, position) order after the keyset. The members'
 * (event_id, position) index is walked from the keyset on (CROSS JOIN keeps it the outer loop; each row's event
 * is then looked up by its key to filter on the owner): joined the other way round, SQLite read every member of
 * the owner and sorted them all in a temporary B-tree for every page, so each page cost the whole set and held
 * the event loop 100+ ms at 100k members (the events rebuild's longest step in issue 25's round two).
 */
export const MEMBERS_PAGE_SQL = `SELECT m.event_id, m.media_item_id, m.position, m.origin
  FROM photo_event_members m INDEXED BY photo_event_members_position CROSS JOIN photo_events e ON e.event_id = m.event_id
  WHERE (m.event_id, m.position) > (@event, @position) AND e.owner_id = @owner AND e.status = 'active'
  ORDER BY m.event_id, m.position LIMIT @limit`;

export class PhotoEventsStore {
  constructor(private readonly db: Db) {}

  /**
   * A statement kept for this connection (platform/db/prepared.ts), for the SQL a rebuild's publish runs once or
   * more per event: preparing it anew each time was a third of the CPU of a publish transaction (issue 25
   * point 4). Default modes only (no raw, no pluck): kept statements are shared.
   */
  private kept(sql: string) {
    return prepared(this.db, sql);
  }

  // ------------------------------------------------------------------ events

  byId(eventId: string): EventRow | undefined {
    return this.kept('SELECT * FROM photo_events WHERE event_id = ?').get(eventId) as EventRow | undefined;
  }

  activeOf(ownerId: number): EventRow[] {
    return this.db.prepare("SELECT * FROM photo_events WHERE owner_id = ? AND status = 'active'").all(ownerId) as EventRow[];
  }

  /** A page of active events, newest first, after the keyset (start_at, event_id). */
  page(ownerId: number, o: { includeHidden: boolean; limit: number; after: { start: number; id: string } | null; repositoryId?: string | undefined }): EventRow[] {
    const terms = ["e.owner_id = @owner", "e.status = 'active'"];
    if (!o.includeHidden) terms.push('e.is_hidden = 0');
    if (o.after) terms.push('(e.start_at < @start OR (e.start_at = @start AND e.event_id < @id))');
    if (o.repositoryId !== undefined) {
      terms.push('EXISTS (SELECT 1 FROM photo_event_members m JOIN assets a ON a.media_item_id = m.media_item_id WHERE m.event_id = e.event_id AND a.repository_id = @repo AND a.is_deleted = 0)');
    }
    return this.db
      .prepare(`SELECT e.* FROM photo_events e WHERE ${terms.join(' AND ')} ORDER BY e.start_at DESC, e.event_id DESC LIMIT @limit`)
      .all({ owner: ownerId, start: o.after?.start ?? 0, id: o.after?.id ?? '', repo: o.repositoryId ?? null, limit: o.limit }) as EventRow[];
  }

  insert(e: EventRow): void {
    this.kept(
      `INSERT INTO photo_events (event_id, owner_id, status, algorithm_version, start_at, end_at, timezone, centroid_lat, centroid_lon, generated_title,
         title_override, is_hidden, cover_media_item_id, redirect_to, created_at, updated_at)
       VALUES (@event_id, @owner_id, @status, @algorithm_version, @start_at, @end_at, @timezone, @centroid_lat, @centroid_lon, @generated_title,
         @title_override, @is_hidden, @cover_media_item_id, @redirect_to, @created_at, @updated_at)`,
    ).run(e);
  }

  /** The computed fields (the person's own stay). */
  updateComputed(e: Pick<EventRow, 'event_id' | 'start_at' | 'end_at' | 'timezone' | 'centroid_lat' | 'centroid_lon' | 'generated_title' | 'algorithm_version' | 'updated_at'>): void {
    this.kept(
      `UPDATE photo_events SET status = 'active', redirect_to = NULL, start_at = @start_at, end_at = @end_at, timezone = @timezone, centroid_lat = @centroid_lat,
         centroid_lon = @centroid_lon, generated_title = @generated_title, algorithm_version = @algorithm_version, updated_at = @updated_at
       WHERE event_id = @event_id`,
    ).run(e);
  }

  setUserFields(eventId: string, f: { title_override?: string | null; is_hidden?: number; cover_media_item_id?: string | null }, now: number): void {
    const sets = Object.keys(f).map((k) => `${k} = @${k}`);
    this.db.prepare(`UPDATE photo_events SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE event_id = @id`).run({ ...f, id: eventId, now });
  }

  /** Retires an event: redirected to `successor` (one hop: events redirected to it follow along), or retired for good. */
  retire(eventId: string, successor: string | null, now: number): void {
    this.kept('DELETE FROM photo_event_members WHERE event_id = ?').run(eventId);
    this.kept("UPDATE photo_events SET status = @status, redirect_to = @to, updated_at = @now WHERE event_id = @id").run({ id: eventId, status: successor ? 'redirected' : 'retired', to: successor, now });
    this.kept("UPDATE photo_events SET status = @status, redirect_to = @to, updated_at = @now WHERE redirect_to = @id").run({ id: eventId, status: successor ? 'redirected' : 'retired', to: successor, now });
  }

  // ------------------------------------------------------------------ members

  members(eventId: string): MemberRow[] {
    return this.db.prepare('SELECT media_item_id, position, origin FROM photo_event_members WHERE event_id = ? ORDER BY position').all(eventId) as MemberRow[];
  }

  /** Members of every active event of an owner, per event. */
  membersOf(ownerId: number): Map<string, MemberRow[]> {
    const rows = this.db
      .prepare(
        `SELECT m.event_id, m.media_item_id, m.position, m.origin FROM photo_event_members m JOIN photo_events e ON e.event_id = m.event_id
         WHERE e.owner_id = ? AND e.status = 'active' ORDER BY m.event_id, m.position`,
      )
      .all(ownerId) as (MemberRow & { event_id: string })[];
    const out = new Map<string, MemberRow[]>();
    for (const r of rows) {
      let list = out.get(r.event_id);
      if (!list) out.set(r.event_id, (list = []));
      list.push({ media_item_id: r.media_item_id, position: r.position, origin: r.origin });
    }
    return out;
  }

  /**
   * `membersOf`, read a page at a time with a turn of the event loop between pages (100k members in one
   * statement hold the loop for a quarter of a second). The pages are separate reads: a rebuild checks at
   * publish time that nothing changed meanwhile (the owner's revision).
   */
  async membersOfInSlices(ownerId: number, pageRows = 1024): Promise<Map<string, MemberRow[]>> {
    const page = this.db.prepare(MEMBERS_PAGE_SQL);
    const out = new Map<string, MemberRow[]>();
    for (let after = { event: '', position: -1 }; ; ) {
      const rows = page.all({ owner: ownerId, ...after, limit: pageRows }) as (MemberRow & { event_id: string })[];
      for (const r of rows) {
        let list = out.get(r.event_id);
        if (!list) out.set(r.event_id, (list = []));
        list.push({ media_item_id: r.media_item_id, position: r.position, origin: r.origin });
      }
      if (rows.length < pageRows) return out;
      after = { event: rows[rows.length - 1]!.event_id, position: rows[rows.length - 1]!.position };
      await nextTurn();
    }
  }

  /**
   * The event's members become `members`, in order: each is taken from whichever event holds it now (an item
   * belongs to one event at most), and the event's other members leave it.
   */
  takeMembers(eventId: string, members: readonly { media_item_id: string; origin: 'segment' | 'added' }[]): void {
    this.kept('DELETE FROM photo_event_members WHERE event_id = ?').run(eventId);
    const free = this.kept('DELETE FROM photo_event_members WHERE media_item_id = ?');
    const ins = this.kept('INSERT INTO photo_event_members (event_id, media_item_id, position, origin) VALUES (?, ?, ?, ?)');
    members.forEach((m, i) => {
      free.run(m.media_item_id);
      ins.run(eventId, m.media_item_id, i, m.origin);
    });
  }

  eventOfItem(mediaItemId: string): string | undefined {
    return this.db.prepare('SELECT event_id FROM photo_event_members WHERE media_item_id = ?').pluck().get(mediaItemId) as string | undefined;
  }

  replaceMembers(eventId: string, members: readonly { media_item_id: string; origin: 'segment' | 'added' }[]): void {
    this.db.prepare('DELETE FROM photo_event_members WHERE event_id = ?').run(eventId);
    const ins = this.db.prepare('INSERT INTO photo_event_members (event_id, media_item_id, position, origin) VALUES (?, ?, ?, ?)');
    members.forEach((m, i) => ins.run(eventId, m.media_item_id, i, m.origin));
  }

  removeMember(mediaItemId: string): void {
    this.db.prepare('DELETE FROM photo_event_members WHERE media_item_id = ?').run(mediaItemId);
  }

  /** One journal entry: lists filtering on an event start over (features/browse). */
  journal(): void {
    this.kept("INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, ?)").run(EVENTS_DEP);
  }

  // ------------------------------------------------------------------ what events are made of

  /**
   * Every media item of an owner with a file outside the Trash, as a segmentation candidate: time =
   * earliest capture time of its files, else earliest upload time, else the item's creation; place =
   * the primary file's GPS, else the first file with GPS by relation priority. `onlyItems`: just those.
   */
  candidates(ownerId: number, onlyItems?: readonly string[]): ItemFacts[] {
    const only = onlyItems ? 'AND a.media_item_id IN (SELECT value FROM json_each(@only))' : '';
    const rows = this.db
      .prepare(`${candidateSelect()} WHERE a.owner_id = @owner AND a.is_deleted = 0 AND a.media_item_id IS NOT NULL ${only} ORDER BY a.media_item_id`)
      .raw()
      .all({ owner: ownerId, ...(onlyItems ? { only: JSON.stringify(onlyItems) } : {}) }) as CandidateRow[];
    return toFacts(rows);
  }

  /**
   * The same a page at a time, in media item id order after `after` (''): a rebuild reads 100k items in
   * short reads with the event loop free in between. `last` is where the next page starts (null: done).
   */
  candidatesPage(ownerId: number, after: string, limitRows: number): { items: ItemFacts[]; last: string | null } {
    const rows = this.db
      .prepare(
        `${candidateSelect('INDEXED BY assets_media_item')} WHERE a.media_item_id > @after AND a.owner_id = @owner AND a.is_deleted = 0
         ORDER BY a.media_item_id LIMIT @limit`,
      )
      .raw()
      .all({ owner: ownerId, after, limit: limitRows }) as CandidateRow[];
    if (rows.length < limitRows) return { items: toFacts(rows), last: null };
    // The last item's files may go on past the page: it is read whole with the next page.
    const lastItem = rows[rows.length - 1]![0];
    const whole = rows.filter((r) => r[0] !== lastItem);
    if (whole.length === 0) return { items: this.candidates(ownerId, [lastItem]), last: lastItem };
    return { items: toFacts(whole), last: whole[whole.length - 1]![0] };
  }

  links(ownerId: number): { must: [string, string][]; cannot: [string, string][] } {
    const rows = this.db.prepare('SELECT a_media_item_id, b_media_item_id, kind FROM photo_event_links WHERE owner_id = ?').raw().all(ownerId) as [string, string, string][];
    return { must: rows.filter((r) => r[2] === 'must_link').map((r) => [r[0], r[1]]), cannot: rows.filter((r) => r[2] === 'cannot_link').map((r) => [r[0], r[1]]) };
  }

  addLink(l: { owner_id: number; a: string; b: string; kind: 'must_link' | 'cannot_link'; event_id: string; created_event_id: string | null; at: number }): void {
    this.db
      .prepare(
        `INSERT INTO photo_event_links (owner_id, a_media_item_id, b_media_item_id, kind, event_id, created_event_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET event_id = excluded.event_id, created_event_id = excluded.created_event_id`,
      )
      .run(l.owner_id, l.a, l.b, l.kind, l.event_id, l.created_event_id, l.at);
  }

  labels(ownerId: number): { media_item_id: string; event_id: string; label: 'include' | 'exclude' }[] {
    return this.db.prepare('SELECT media_item_id, event_id, label FROM photo_event_item_labels WHERE owner_id = ? ORDER BY created_at, media_item_id').all(ownerId) as never;
  }

  /** The item's label for that event (replacing its other labels of the same kind elsewhere for include). */
  setLabel(ownerId: number, mediaItemId: string, eventId: string, label: 'include' | 'exclude', at: number): void {
    if (label === 'include') this.db.prepare("DELETE FROM photo_event_item_labels WHERE media_item_id = ? AND label = 'include'").run(mediaItemId);
    this.db
      .prepare('INSERT INTO photo_event_item_labels (media_item_id, event_id, owner_id, label, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET label = excluded.label, created_at = excluded.created_at')
      .run(mediaItemId, eventId, ownerId, label, at);
  }

  /** Points the include labels of these items at another event (after a split moved them). */
  repointIncludes(items: readonly string[], from: string, to: string): void {
    const st = this.db.prepare("UPDATE photo_event_item_labels SET event_id = ? WHERE media_item_id = ? AND event_id = ? AND label = 'include'");
    for (const i of items) st.run(to, i, from);
  }

  /** Drops every correction made on the event (its labels, the splits made on it or that made it) and its own fields. */
  dropCorrections(eventId: string, now: number): void {
    this.db.prepare('DELETE FROM photo_event_item_labels WHERE event_id = ?').run(eventId);
    this.db.prepare('DELETE FROM photo_event_links WHERE event_id = ? OR created_event_id = ?').run(eventId, eventId);
    this.setUserFields(eventId, { title_override: null, is_hidden: 0, cover_media_item_id: null }, now);
  }

  // ------------------------------------------------------------------ rebuild state

  state(ownerId: number): OwnerStateRow {
    this.kept('INSERT INTO photo_event_owner_state (owner_id, updated_at) VALUES (?, 0) ON CONFLICT DO NOTHING').run(ownerId);
    return this.kept('SELECT * FROM photo_event_owner_state WHERE owner_id = ?').get(ownerId) as OwnerStateRow;
  }

  bumpRevision(ownerId: number, now: number): void {
    this.state(ownerId);
    this.db.prepare('UPDATE photo_event_owner_state SET revision = revision + 1, updated_at = ? WHERE owner_id = ?').run(now, ownerId);
  }

  setPaused(ownerId: number, paused: boolean, now: number): void {
    this.state(ownerId);
    this.db.prepare('UPDATE photo_event_owner_state SET paused = ?, updated_at = ? WHERE owner_id = ?').run(paused ? 1 : 0, now, ownerId);
  }

  /** Takes the run lease (false: another run holds it) and claims the unclaimed dirty ranges. */
  claim(ownerId: number, runId: string, now: number, leaseMs: number): boolean {
    const s = this.state(ownerId);
    if (s.running_run_id && s.running_run_id !== runId && (s.lease_expires_at ?? 0) > now) return false;
    this.db.prepare('UPDATE photo_event_owner_state SET running_run_id = ?, lease_expires_at = ?, updated_at = ? WHERE owner_id = ?').run(runId, now + leaseMs, now, ownerId);
    // Ranges of a run whose lease ran out are taken over.
    this.db
      .prepare('UPDATE photo_event_dirty_ranges SET claimed_by = ? WHERE owner_id = ? AND (claimed_by IS NULL OR claimed_by IS NOT ?)')
      .run(runId, ownerId, runId);
    return true;
  }

  /** Keeps the lease of a run that is still working (false: it was lost to another run). */
  renew(ownerId: number, runId: string, now: number, leaseMs: number): boolean {
    return this.kept('UPDATE photo_event_owner_state SET lease_expires_at = ? WHERE owner_id = ? AND running_run_id = ?').run(now + leaseMs, ownerId, runId).changes > 0;
  }

  /** Gives the lease and the claimed ranges back (the run did not publish). */
  release(ownerId: number, runId: string, failure: { code: string } | null, now: number): void {
    this.db.prepare('UPDATE photo_event_dirty_ranges SET claimed_by = NULL WHERE owner_id = ? AND claimed_by = ?').run(ownerId, runId);
    this.db
      .prepare(
        `UPDATE photo_event_owner_state SET running_run_id = NULL, lease_expires_at = NULL, updated_at = @now,
           last_failure_run_id = CASE WHEN @code IS NULL THEN last_failure_run_id ELSE @run END, last_error_code = coalesce(@code, last_error_code)
         WHERE owner_id = @owner AND running_run_id = @run`,
      )
      .run({ owner: ownerId, run: runId, code: failure?.code ?? null, now });
  }

  /** A published run: its ranges are done (only its own), the state moves on. */
  published(ownerId: number, runId: string, sourceRevision: number, now: number): void {
    this.db.prepare('DELETE FROM photo_event_dirty_ranges WHERE owner_id = ? AND claimed_by = ?').run(ownerId, runId);
    this.db
      .prepare(
        `UPDATE photo_event_owner_state SET running_run_id = NULL, lease_expires_at = NULL, initialized = 1, source_revision = @rev,
           published_revision = published_revision + 1, last_success_run_id = @run, last_error_code = NULL, updated_at = @now
         WHERE owner_id = @owner`,
      )
      .run({ owner: ownerId, run: runId, rev: sourceRevision, now });
  }

  pendingRanges(ownerId: number): { from: number; to: number }[] {
    return this.db.prepare('SELECT from_at AS "from", to_at AS "to" FROM photo_event_dirty_ranges WHERE owner_id = ? ORDER BY from_at').all(ownerId) as never;
  }

  /** Owners with changes waiting and automatic rebuilds on. */
  ownersWaiting(): number[] {
    return this.db
      .prepare(
        `SELECT s.owner_id FROM photo_event_owner_state s WHERE s.paused = 0 AND (s.revision > s.source_revision
           OR EXISTS (SELECT 1 FROM photo_event_dirty_ranges r WHERE r.owner_id = s.owner_id))`,
      )
      .pluck()
      .all() as number[];
  }
}

type CandidateRow = [string, string, number | null, number, number | null, number | null, number | null, string | null, string, number, string | null];

const candidateSelect = (hint = '') => `SELECT a.media_item_id AS item, a.asset_id, a.taken_time, a.upload_time, a.capture_offset_minutes AS off, a.gps_latitude AS lat,
    a.gps_longitude AS lon, c.relation, m.primary_asset_id AS primary_id, m.created_at AS item_created, sm.stack_id
  FROM assets a ${hint} JOIN media_items m ON m.media_item_id = a.media_item_id
  LEFT JOIN media_item_components c ON c.asset_id = a.asset_id
  LEFT JOIN stack_members sm ON sm.media_item_id = a.media_item_id`;

/** Rows ordered by media item, one candidate per item. */
function toFacts(rows: readonly CandidateRow[]): ItemFacts[] {
  const out: ItemFacts[] = [];
  let i = 0;
  while (i < rows.length) {
    const item = rows[i]![0];
    let taken: number | null = null;
    let takenOff: number | null = null;
    let upload = Infinity;
    let place: { lat: number; lon: number; rank: number } | null = null;
    const created = rows[i]![9];
    const stack = rows[i]![10];
    for (; i < rows.length && rows[i]![0] === item; i++) {
      const [, assetId, t, u, off, lat, lon, relation, primary] = rows[i]!;
      if (t !== null && (taken === null || t < taken)) {
        taken = t;
        takenOff = off;
      }
      if (u < upload) upload = u;
      if (lat !== null && lon !== null) {
        const r = RELATION_PRIORITY.indexOf(relation ?? 'original');
        const rank = assetId === primary ? -1 : r < 0 ? RELATION_PRIORITY.length : r;
        if (!place || rank < place.rank) place = { lat, lon, rank };
      }
    }
    out.push({
      id: item,
      time: taken ?? (Number.isFinite(upload) ? upload : created),
      lat: place?.lat ?? null,
      lon: place?.lon ?? null,
      stackId: stack,
      offsetMinutes: taken !== null ? takenOff : null,
      timeSource: taken !== null ? 'taken' : Number.isFinite(upload) ? 'upload' : 'created',
    });
  }
  return out;
}
