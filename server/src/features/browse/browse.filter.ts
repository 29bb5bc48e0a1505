/**
 * The asset filter turned into SQL on the representative asset `a` (see browse.store.ts), plus the
 * parts the list applies itself (stack membership). Validation that zod cannot express (time zone,
 * dates, date order) throws Invalid naming the field.
 *
 * Decisions (also in the route description):
 * - Every filter applies to the asset that stands for a media item (its primary, or the first of
 *   its files in the listed trash state), except `media_item.composition` and `stack`, which look at
 *   the whole item.
 * - Whose photos: the caller's own, and those of every member who shares their library with the
 *   caller (partner sharing, features/sharing) and whom the caller chose to show in their timeline,
 *   each from the share's date on; never anyone's Trash but the caller's own. `owner_id` narrows to
 *   one person: the caller, or a member sharing with them (shown in the timeline or not); anyone
 *   else matches nothing (administrators included). `liked`, `rating` and `rating_min` are the caller's own marks:
 *   with any of them, only the caller's own photos are listed (marks on others' photos are kept apart,
 *   features/assets/marks.ts).
 * - `event_id` matches the media items of the caller's photo event (features/photo-events); a retired event's id
 *   matches its successor's items (as getEvent answers with the successor); another member's event nothing.
 * - `person_id` and `person_ids` (extension) keep the photos where every person named has a face. People are
 *   their owner's: another member's person (or an unknown id) matches nothing, like an album that is not yours.
 * - `place_id` (extension, features/places place-id.ts) keeps the photos whose geohash-7 cell the offline gazetteer
 *   named inside that place (a city, region or country), the places list's rule; a place with none of
 *   the caller's photos matches nothing. A malformed id is 422 (the schema).
 * - `album_id` of an album that is not the caller's matches nothing (no 404: the list is a search).
 * - `camera_make`, `camera_model` and `lens` are exact (the values getFilterOptions offers); `tag_name` and
 *   `tag_names` ignore case; `tag_names` needs every name; `tag_source` restricts the tags matched
 *   by name, or alone asks for any tag from that source.
 * - `filename` and `query` ignore ASCII case. `matches` is a whole-name pattern where `*` is any run
 *   of characters and `?` one character (every other character is literal).
 * - `date` bounds are inclusive. A day (`YYYY-MM-DD`) is read in `viewer_timezone` (IANA name;
 *   UTC when absent): `to: 2024-07-31` takes the whole of that day. An RFC 3339 instant is exact.
 *   The date compared is the capture time, else the upload time (the gallery's `best_ts_ms`).
 * - `location`: south ≤ north; `west > east` is a box across the antimeridian.
 * - `media_item.composition`: `contains_raw` the item has a RAW file; `jpeg_raw` a RAW with a
 *   viewable partner (JPEG/HEIC/edit); `raw_unpaired` a RAW shown on its own; `no_raw` no RAW;
 *   `live_photo` an Apple live photo. Files in the other trash state do not count.
 * - `stack.membership` `stacked` / `unstacked`, restricted to stacks of `stack.kinds` when given
 *   (kinds alone means stacked in one of those kinds).
 */
import { Invalid } from '../../platform/http/errors.ts';
import type { AssetFilter } from './browse.routes.ts';
import type { Dep } from '../../platform/cache/change-journal.ts';
import { decodePlaceId, placeCellTerm } from '../places/index.ts';

export type AssetType = 'PHOTO' | 'VIDEO' | 'AUDIO';

/** The filter as SQL terms over `assets a`, with named parameters. */
export interface SqlFilter {
  /** Matches nothing whatever the catalog holds (another owner, events, people, disjoint types). */
  none: boolean;
  isDeleted: boolean;
  /** For a whole list: sets (album, tag, RAW, live photo) as `IN (subquery)`, built once. */
  terms: string[];
  /** The same for a few given rows (browse.lists.ts re-checks changed rows): sets as correlated EXISTS. */
  rowTerms: string[];
  params: Record<string, unknown>;
  /** Applied by the list from the stack membership it already knows. */
  stack?: { membership: 'stacked' | 'unstacked'; kinds: string[] | null } | undefined;
  /** Which index is the best way in (see BrowseStore.matching). */
  drive: Drive;
  /** What the list reads, beyond the files and the catalog shape (the change journal's dependencies). */
  deps: Dep[];
  /** Rows of more than one owner (partners): the list is sorted by its whole order, not walked in index order. */
  multiOwner: boolean;
}

/** Someone sharing their library with the caller (features/sharing `ReceivedShare`). */
export interface Partner {
  owner_id: number;
  shared_from: number | null;
  show_in_timeline: boolean;
}

export type Drive = 'sort' | 'album' | 'tag' | 'camera' | 'make' | 'lens' | 'date' | 'gps' | 'folder' | 'liked' | 'rating' | 'filename';

/**
 * The expressions behind the 0006 generated columns best_time and camera_model, written
 * out: SQLite answers an indexed expression from the index (0007 indexes them), while a reference
 * to a VIRTUAL generated column always reads the table row. Keep them exactly as in the indexes.
 */
export const BEST_TIME = 'coalesce(a.taken_time, a.upload_time)';
export const CAMERA_MODEL = "CAST(json_extract(a.specific_metadata, '$.camera_model') AS TEXT)";
/** The same for the camera make (0009, indexed by assets_list_make). */
export const CAMERA_MAKE = "CAST(json_extract(a.specific_metadata, '$.camera_make') AS TEXT)";

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/** `*`/`?` glob → LIKE pattern (whole name). */
export function globToLike(glob: string): string {
  let out = '';
  for (const ch of glob) out += ch === '*' ? '%' : ch === '?' ? '_' : escapeLike(ch);
  return out;
}

/** `/a/b/` → `a/b`; backslashes as slashes. */
export function normaliseFolder(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+/g, '/').replace(/^\/|\/$/g, '');
}

// ------------------------------------------------------------------ dates in a time zone

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether an IANA time zone name is known to this runtime. */
export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** Minutes the zone is ahead of UTC at instant `t`. */
function offsetMinutes(t: number, tz: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(t)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((local - Math.floor(t / 1000) * 1000) / 60_000);
}

/** The first instant of a calendar day in a zone: its local midnight, or the end of a DST gap there. */
export function startOfDay(y: number, m: number, d: number, tz: string): number {
  const wall = Date.UTC(y, m - 1, d);
  const a = wall - offsetMinutes(wall, tz) * 60_000;
  const b = wall - offsetMinutes(a, tz) * 60_000;
  if (a === b) return a;
  const c = wall - offsetMinutes(b, tz) * 60_000;
  if (c === b) return b;
  return Math.max(b, c); // no local midnight that day: it begins when the gap ends
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export const isDateValue = (s: string) => {
  const m = DAY_RE.exec(s);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const dt = new Date(Date.UTC(y, mo - 1, d));
    return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
  }
  return INSTANT_RE.test(s) && !Number.isNaN(Date.parse(s.toUpperCase()));
};

/** The inclusive bound in epoch ms: a day's first (from) or last (to) millisecond in `tz`, or the instant. */
export function dateBound(value: string, edge: 'from' | 'to', tz: string): number {
  const m = DAY_RE.exec(value);
  if (!m) return Date.parse(value.toUpperCase());
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (edge === 'from') return startOfDay(y, mo, d, tz);
  const next = new Date(Date.UTC(y, mo - 1, d + 1));
  return startOfDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), tz) - 1;
}

// ------------------------------------------------------------------ the filter

export interface FilterInput {
  filter?: AssetFilter | undefined;
  /** The top-level `query` with search_type `filename`: the file name contains it. */
  filenameQuery?: string | undefined;
  viewerTimezone?: string | undefined;
}

/**
 * RAW files of the listed owners in the listed trash state (partial index assets_owner_raw, 0007).
 * The json_extract expression must stay exactly as in the index definition, or SQLite cannot use it.
 * `owners` is `= @owner` (the caller alone) or `IN (…)` (with partners).
 */
const rawRows = (owners: string) =>
  `SELECT r.rowid FROM assets r INDEXED BY assets_owner_raw WHERE r.owner_id ${owners} AND r.is_deleted = @del AND json_extract(r.specific_metadata, '$.is_raw') = 1`;
const rawItems = (owners: string) =>
  `SELECT r.media_item_id FROM assets r INDEXED BY assets_owner_raw WHERE r.owner_id ${owners} AND r.is_deleted = @del AND json_extract(r.specific_metadata, '$.is_raw') = 1 AND r.media_item_id IS NOT NULL`;

/** The same tests for one row `a` (owner and trash state are terms of the filter already). */
const IS_RAW = "coalesce(json_extract(a.specific_metadata, '$.is_raw') = 1, 0)";
const rawSibling = (owners: string) => `SELECT 1 FROM assets r INDEXED BY assets_owner_raw WHERE r.owner_id ${owners} AND r.is_deleted = @del
  AND r.media_item_id = a.media_item_id AND json_extract(r.specific_metadata, '$.is_raw') = 1`;

/**
 * Whose rows the list holds: the caller's, plus the partners shown (or the one asked for by
 * `owner_id`), each partner from their share's date on. Null: nobody (an owner_id no one shares).
 */
function listedOwners(ownerId: number, f: AssetFilter, isDeleted: boolean, partners: readonly Partner[]): { self: boolean; partners: Partner[] } | null {
  // Marks and the Trash are the caller's own: partners' rows never join those lists.
  const ownOnly = isDeleted || f.liked !== undefined || f.rating !== undefined || f.rating_min !== undefined;
  if (f.owner_id !== undefined && f.owner_id !== ownerId) {
    const p = partners.find((x) => x.owner_id === f.owner_id);
    return p && !ownOnly ? { self: false, partners: [p] } : null;
  }
  if (f.owner_id !== undefined || ownOnly) return { self: true, partners: [] };
  return { self: true, partners: partners.filter((p) => p.show_in_timeline) };
}

export function buildFilter(ownerId: number, input: FilterInput, partners: readonly Partner[] = []): SqlFilter {
  const f = input.filter ?? {};
  const isDeleted = f.is_deleted ?? false;
  const params: Record<string, unknown> = { owner: ownerId, del: isDeleted ? 1 : 0 };
  const listed = listedOwners(ownerId, f, isDeleted, partners) ?? { self: true, partners: [] };
  const multiOwner = !listed.self || listed.partners.length > 0;
  // The caller alone: exactly the SQL of before sharing (the index plans of query-plans.test.ts).
  let owners = '= @owner';
  const terms = ['a.owner_id = @owner', 'a.is_deleted = @del'];
  if (multiOwner) {
    const ids = [...(listed.self ? [ownerId] : []), ...listed.partners.map((p) => p.owner_id)];
    params.owners = JSON.stringify(ids);
    owners = 'IN (SELECT value FROM json_each(@owners))';
    terms[0] = `a.owner_id ${owners}`;
    // A partner's rows from their share's date on (the caller's own: all of them).
    const dated = listed.partners.filter((p) => p.shared_from !== null);
    if (dated.length) {
      const alts = [...(listed.self ? ['a.owner_id = @owner'] : []), ...listed.partners.map((p, i) => {
        params[`partner${i}`] = p.owner_id;
        if (p.shared_from === null) return `a.owner_id = @partner${i}`;
        params[`partnerFrom${i}`] = p.shared_from;
        return `(a.owner_id = @partner${i} AND ${BEST_TIME} >= @partnerFrom${i})`;
      })];
      terms.push(`(${alts.join(' OR ')})`);
    }
  }
  const deps = new Set<Dep>(['rows', 'trash', 'shape', 'time']);
  const rowTerms: string[] = [];
  const out: SqlFilter = { none: false, isDeleted, terms, rowTerms, params, drive: 'sort', deps: [], multiOwner };
  /** A set test, written one way for a whole list and another for a few rows. */
  const set = (scan: string, row: string) => {
    terms.push(scan);
    setTerms.set(scan, row);
  };
  const setTerms = new Map<string, string>();
  const drives = new Set<Drive>();

  if (input.viewerTimezone !== undefined && !isTimeZone(input.viewerTimezone)) {
    throw new Invalid(`Check body.viewer_timezone (unknown time zone "${input.viewerTimezone}"; use an IANA name such as Europe/Amsterdam).`, [
      { field: 'body.viewer_timezone', message: 'unknown time zone', code: 'invalid_timezone' },
    ]);
  }
  if (listedOwners(ownerId, f, isDeleted, partners) === null) out.none = true;
  const personIds = [...new Set([...(f.person_id !== undefined ? [f.person_id] : []), ...(f.person_ids ?? [])])];
  if (personIds.length) deps.add('people');
  personIds.forEach((id, i) => {
    set(
      `a.asset_id IN (SELECT fc.asset_id FROM faces fc JOIN people pp ON pp.person_id = fc.person_id WHERE fc.person_id = @person${i} AND pp.owner_id = @owner)`,
      `EXISTS (SELECT 1 FROM faces fc JOIN people pp ON pp.person_id = fc.person_id WHERE fc.asset_id = a.asset_id AND fc.person_id = @person${i} AND pp.owner_id = @owner)`,
    );
    params[`person${i}`] = id;
  });

  if (f.repository_id !== undefined) {
    deps.add('path');
    terms.push('a.repository_id = @repo');
    params.repo = f.repository_id;
  }
  let types: AssetType[] | null = null;
  for (const set of [f.type ? [f.type] : null, f.types ?? null]) if (set) types = types ? types.filter((t) => set.includes(t)) : [...new Set(set)];
  if (types) {
    deps.add('type');
    if (types.length === 0) out.none = true;
    else {
      // One type as `=`: the list index then stays in order (IN would make SQLite sort).
      terms.push(types.length === 1 ? 'a.type = @type0' : `a.type IN (${types.map((_, i) => `@type${i}`).join(', ')})`);
      types.forEach((t, i) => (params[`type${i}`] = t));
    }
  }
  if (f.liked !== undefined) {
    deps.add('liked');
    // Literals, not parameters: the partial index assets_list_liked (liked = 1) is only usable then.
    terms.push(f.liked ? 'a.liked = 1' : 'a.liked = 0');
    if (f.liked) drives.add('liked');
  }
  if (f.rating !== undefined) {
    deps.add('rating');
    terms.push('a.rating = @rating');
    if (f.rating > 0) terms.push('a.rating > 0'); // states the condition of the partial index assets_list_rated
    params.rating = f.rating;
    if (f.rating > 0) drives.add('rating');
  }
  if (f.rating_min !== undefined) {
    deps.add('rating');
    // Not a drive: the rated index is ordered by rating first, so a range of ratings would come out
    // of it in another order than the list's; the list index is walked and these rows kept.
    terms.push('a.rating >= @ratingMin');
    params.ratingMin = f.rating_min;
  }
  if (f.camera_make !== undefined || f.camera_model !== undefined || f.lens !== undefined || f.media_item?.composition !== undefined) deps.add('meta');
  if (f.camera_make !== undefined) {
    terms.push(`${CAMERA_MAKE} = @make`);
    params.make = f.camera_make;
    drives.add('make');
  }
  if (f.camera_model !== undefined) {
    terms.push(`${CAMERA_MODEL} = @camera`);
    params.camera = f.camera_model;
    drives.add('camera');
  }
  if (f.lens !== undefined) {
    // The 0006 generated column and its index: lens sets are small, their rows are read.
    terms.push('a.lens_model IS NOT NULL', 'a.lens_model = @lens');
    params.lens = f.lens;
    drives.add('lens');
  }
  if (f.date) {
    const tz = input.viewerTimezone ?? 'UTC';
    const from = f.date.from !== undefined ? dateBound(f.date.from, 'from', tz) : null;
    const to = f.date.to !== undefined ? dateBound(f.date.to, 'to', tz) : null;
    if (from !== null && to !== null && from > to) {
      throw new Invalid('Check body.filter.date (from is after to).', [{ field: 'body.filter.date.from', message: 'must not be after to', code: 'invalid_range' }]);
    }
    if (from !== null) {
      terms.push(`${BEST_TIME} >= @from`);
      params.from = from;
    }
    if (to !== null) {
      terms.push(`${BEST_TIME} <= @to`);
      params.to = to;
    }
    drives.add('date');
  }
  if (f.location) {
    deps.add('gps');
    const { south, north, west, east } = f.location;
    terms.push('a.gps_latitude IS NOT NULL', 'a.gps_latitude BETWEEN @south AND @north');
    terms.push(west <= east ? 'a.gps_longitude BETWEEN @west AND @east' : '(a.gps_longitude >= @west OR a.gps_longitude <= @east)');
    Object.assign(params, { south, north, west, east });
    drives.add('gps');
  }
  const names: [string, string][] = [];
  if (f.filename) {
    const op = f.filename.operator ?? f.filename.mode ?? 'contains';
    const v = f.filename.value;
    names.push([op, v]);
  }
  if (input.filenameQuery !== undefined && input.filenameQuery.trim() !== '') names.push(['contains', input.filenameQuery.trim()]);
  if (names.length) deps.add('name');
  names.forEach(([op, v], i) => {
    const pattern = op === 'matches' ? globToLike(v) : op === 'starts_with' ? `${escapeLike(v)}%` : op === 'ends_with' ? `%${escapeLike(v)}` : `%${escapeLike(v)}%`;
    terms.push(`a.original_filename LIKE @name${i} ESCAPE '\\'`);
    params[`name${i}`] = pattern;
    drives.add('filename');
  });
  if (f.folder_path !== undefined) {
    deps.add('path');
    // On storage_path (indexed with the owner, 0007): the files of folder `f` and below sort
    // between `f/` and `f0` ('0' follows '/'); directly in `f`, no further '/' follows.
    const folder = normaliseFolder(f.folder_path);
    const recursive = f.folder_recursive ?? true;
    if (folder !== '') {
      terms.push('a.storage_path >= @pathLo', 'a.storage_path < @pathHi');
      params.pathLo = `${folder}/`;
      params.pathHi = `${folder}0`;
    }
    if (!recursive) {
      terms.push(folder === '' ? "instr(a.storage_path, '/') = 0" : "instr(substr(a.storage_path, @pathCut), '/') = 0");
      if (folder !== '') params.pathCut = folder.length + 2;
    }
    if (folder !== '' || !recursive) drives.add('folder');
  }
  if (f.album_id !== undefined) {
    deps.add('albums').add('album_owners');
    set(
      `a.asset_id IN (SELECT aa.asset_id FROM album_assets aa JOIN albums al ON al.album_id = aa.album_id WHERE aa.album_id = @album AND al.owner_id = @owner)`,
      `EXISTS (SELECT 1 FROM album_assets aa JOIN albums al ON al.album_id = aa.album_id WHERE aa.asset_id = a.asset_id AND aa.album_id = @album AND al.owner_id = @owner)`,
    );
    params.album = f.album_id;
    drives.add('album');
  }
  // tags.tag_name is COLLATE NOCASE: the comparison ignores case; duplicates are dropped the same way.
  const tagNames = [...new Map([...(f.tag_name !== undefined ? [f.tag_name] : []), ...(f.tag_names ?? [])].map((t) => [t.trim().toLowerCase(), t.trim()])).values()];
  if (f.tag_source !== undefined) params.tagSource = f.tag_source;
  if (tagNames.length || f.tag_source !== undefined) deps.add('tags').add('tag_names');
  const sourceTerm = f.tag_source !== undefined ? ' AND at.source = @tagSource' : '';
  tagNames.forEach((name, i) => {
    set(
      `a.asset_id IN (SELECT at.asset_id FROM tags t JOIN asset_tags at ON at.tag_id = t.tag_id WHERE t.tag_name = @tag${i}${sourceTerm})`,
      `EXISTS (SELECT 1 FROM asset_tags at JOIN tags t ON t.tag_id = at.tag_id WHERE at.asset_id = a.asset_id AND t.tag_name = @tag${i}${sourceTerm})`,
    );
    params[`tag${i}`] = name;
    drives.add('tag');
  });
  if (tagNames.length === 0 && f.tag_source !== undefined) {
    set(
      'a.asset_id IN (SELECT at.asset_id FROM asset_tags at WHERE at.source = @tagSource)',
      'EXISTS (SELECT 1 FROM asset_tags at WHERE at.asset_id = a.asset_id AND at.source = @tagSource)',
    );
    drives.add('tag');
  }
  if (f.event_id !== undefined) {
    deps.add('events');
    // The event itself, or the successor a retired event redirects to (one hop, kept so by features/photo-events).
    const event = `(SELECT coalesce(CASE WHEN e.status = 'redirected' THEN e.redirect_to END, e.event_id) FROM photo_events e WHERE e.event_id = @event AND e.owner_id = @owner)`;
    set(
      `a.media_item_id IN (SELECT pm.media_item_id FROM photo_event_members pm WHERE pm.event_id = ${event})`,
      `EXISTS (SELECT 1 FROM photo_event_members pm WHERE pm.media_item_id = a.media_item_id AND pm.event_id = ${event})`,
    );
    params.event = f.event_id;
  }
  const place = f.place_id !== undefined ? decodePlaceId(f.place_id) : null;
  if (place) {
    // Positions and their geohashes move with 'gps'; a cell's names never change once given.
    deps.add('gps');
    const term = placeCellTerm(place);
    set(
      `a.geohash7 IN (SELECT c.geohash7 FROM place_cells c WHERE ${term.sql})`,
      `EXISTS (SELECT 1 FROM place_cells c WHERE c.geohash7 = a.geohash7 AND ${term.sql})`,
    );
    Object.assign(params, term.params);
  }
  const comp = f.media_item?.composition;
  if (comp !== undefined) deps.add('media');
  if (comp === 'live_photo') {
    set(
      `a.media_item_id IN (SELECT m.media_item_id FROM media_items m INDEXED BY media_items_live WHERE m.owner_id ${owners} AND m.media_kind = 'live_photo')`,
      `EXISTS (SELECT 1 FROM media_items m WHERE m.media_item_id = a.media_item_id AND m.owner_id ${owners} AND m.media_kind = 'live_photo')`,
    );
  } else if (comp === 'contains_raw') {
    set(`(a.rowid IN (${rawRows(owners)}) OR a.media_item_id IN (${rawItems(owners)}))`, `(${IS_RAW} OR EXISTS (${rawSibling(owners)}))`);
  } else if (comp === 'raw_unpaired') {
    set(`a.rowid IN (${rawRows(owners)})`, IS_RAW);
  } else if (comp === 'jpeg_raw') {
    set(`a.media_item_id IN (${rawItems(owners)}) AND a.rowid NOT IN (${rawRows(owners)})`, `NOT ${IS_RAW} AND EXISTS (${rawSibling(owners)})`);
  } else if (comp === 'no_raw') {
    set(`a.rowid NOT IN (${rawRows(owners)}) AND (a.media_item_id IS NULL OR a.media_item_id NOT IN (${rawItems(owners)}))`, `NOT ${IS_RAW} AND NOT EXISTS (${rawSibling(owners)})`);
  }
  if (f.stack && (f.stack.membership !== undefined || f.stack.kinds !== undefined)) {
    out.stack = { membership: f.stack.membership ?? 'stacked', kinds: f.stack.kinds ? [...new Set(f.stack.kinds)] : null };
  }

  out.deps = [...deps].sort();
  rowTerms.push(...terms.map((t) => setTerms.get(t) ?? t));
  // The most selective index first; the sort index when nothing narrows the list.
  for (const d of ['album', 'tag', 'folder', 'camera', 'make', 'lens', 'rating', 'liked', 'gps', 'date', 'filename'] as const) {
    if (drives.has(d)) {
      out.drive = d;
      break;
    }
  }
  return out;
}
