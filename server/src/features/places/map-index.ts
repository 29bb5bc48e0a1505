/**
 * Every geotagged live file of an owner, kept in memory in map order (newest capture first, then
 * asset id) with what a map point shows, so that a map request is one pass over a few typed arrays
 * instead of a walk through the catalog.
 *
 * Why: a map asks for "the points in this viewport, newest first, and how many there are". With
 * half a million geotagged files (a 1M library) no index answers both: counting through the GPS
 * index still has to look up every row for its trash state and media item, and paging newest
 * first through the time index has to look up rows until the page fills (0.1–2 s either way).
 * In memory the same pass costs a few milliseconds; 200k points take about 20 MB.
 *
 * Kept, per owner, in the server's map cache (platform/cache, built once by the container) and
 * current through the catalog's change journal (features/browse/catalog-tracker.ts): the rows
 * changed since the last request (a new file, a deletion, a trash move, a new position, time or
 * name), whichever connection wrote them, are read again and put at their place; the rest stays.
 * Only a gap in the journal, or more changes than worth patching, reads everything again. Whether a file
 * stands for its media item (a RAW+JPEG pair is one point) is asked of the catalog shape at query
 * time, so pairs forming or parting need no re-read here.
 *
 * Reading an owner's points never holds the event loop: they are read by rowid ranges in slices of
 * about 15 ms, each slice in map order, the slices merged a few ten thousand points per turn
 * (platform/cache/slices.ts), and the result brought up to date from the journal position noted
 * before the first slice, like any kept points.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { ChangedKeys } from '../../platform/cache/changed-keys.ts';
import { depBits } from '../../platform/cache/change-journal.ts';
import { SingleFlight } from '../../platform/cache/single-flight.ts';
import type { KeptCache } from '../../platform/cache/kept-cache.ts';
import { inSlices, nextTurn } from '../../platform/cache/slices.ts';
import type { CatalogTracker } from '../browse/index.ts';
import type { PointRow, Viewport } from './places.store.ts';
import { displayFileName } from '../../platform/http/display-names.ts';

/** Files that have a position: (0, 0) exactly is what an empty GPS block decodes to, never a place. */
const HAS_GPS = 'a.gps_latitude IS NOT NULL AND a.gps_longitude IS NOT NULL AND NOT (a.gps_latitude = 0 AND a.gps_longitude = 0)';
const COLUMNS = 'a.rowid, a.gps_latitude, a.gps_longitude, a.best_time, a.asset_id, a.repository_id, a.original_filename, a.taken_time, a.upload_time';
type Row = [rowid: number, lat: number, lon: number, t: number, id: string, repo: string, name: string, taken: number | null, upload: number];

/** Past this many changed rows, reading everything again is cheaper than patching. */
const PATCH_LIMIT = 20_000;
/**
 * The kinds of change a point shows (change-journal.ts `Dep`): a row that came or went or changed
 * owner, its trash state, time, position, name or repository. A like or a rating, a new tag or
 * album does not move a point, so those rows are not read again. Standing for a media item
 * ('shape', 'media') is asked of the shape at query time.
 */
const POINT_DEPS = depBits(['rows', 'trash', 'time', 'gps', 'name', 'path']);
/** The map cache's budget: about 300k points with their written JSON. */
export const MAP_CACHE_BYTES = 96 * 1024 * 1024;

/** Map order: newest first, then asset id descending (what the API documents). */
const before = (t1: number, id1: string, t2: number, id2: string) => (t1 !== t2 ? t1 > t2 : id1 > id2);

/** One owner's points in map order: parallel columns, the first `size` entries used. */
export class Points {
  size = 0;
  /** Characters of the points' JSON made so far (for the cache's size estimate). */
  jsonChars = 0;
  rowid: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  time: Float64Array;
  /** Capture time, NaN when unknown. */
  taken: Float64Array;
  upload: Float64Array;
  /** Index into `repos`. */
  repo: Uint16Array;
  id: string[] = [];
  name: string[] = [];
  repos: string[] = [];
  /** Each point as the answer writes it (pointJson), made the first time it is served. */
  json: (string | undefined)[] = [];

  constructor(
    public epoch: number,
    public seq: number,
    capacity: number,
  ) {
    this.rowid = new Int32Array(capacity);
    this.lat = new Float64Array(capacity);
    this.lon = new Float64Array(capacity);
    this.time = new Float64Array(capacity);
    this.taken = new Float64Array(capacity);
    this.upload = new Float64Array(capacity);
    this.repo = new Uint16Array(capacity);
  }

  private get typed() {
    return [this.rowid, this.lat, this.lon, this.time, this.taken, this.upload, this.repo] as const;
  }

  private repoIndex(repo: string): number {
    const i = this.repos.indexOf(repo);
    return i >= 0 ? i : this.repos.push(repo) - 1;
  }

  private set(i: number, [rowid, lat, lon, t, id, repo, name, taken, upload]: Row): void {
    this.rowid[i] = rowid;
    this.lat[i] = lat;
    this.lon[i] = lon;
    this.time[i] = t;
    this.taken[i] = taken ?? NaN;
    this.upload[i] = upload;
    this.repo[i] = this.repoIndex(repo);
    this.id[i] = id;
    this.name[i] = name;
    this.json[i] = undefined;
  }

  /** Appends a row (rows must come in map order). */
  push(row: Row): void {
    this.set(this.size++, row);
  }

  remove(i: number): void {
    for (const col of this.typed) col.copyWithin(i, i + 1, this.size);
    this.id.splice(i, 1);
    this.name.splice(i, 1);
    this.json.splice(i, 1);
    this.size--;
  }

  /** Puts a row at its place in map order. */
  insert(row: Row): void {
    if (this.size === this.rowid.length) this.grow();
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.time[mid]!, this.id[mid]!, row[3], row[4])) lo = mid + 1;
      else hi = mid;
    }
    for (const col of this.typed) col.copyWithin(lo + 1, lo, this.size);
    this.id.splice(lo, 0, row[4]);
    this.name.splice(lo, 0, row[6]);
    this.json.splice(lo, 0, undefined);
    this.size++;
    this.set(lo, row);
  }

  private grow(): void {
    const n = Math.max(64, Math.ceil(this.rowid.length * 1.25));
    const grown = <T extends Int32Array | Float64Array | Uint16Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.rowid = grown(this.rowid);
    this.lat = grown(this.lat);
    this.lon = grown(this.lon);
    this.time = grown(this.time);
    this.taken = grown(this.taken);
    this.upload = grown(this.upload);
    this.repo = grown(this.repo);
  }

  point(i: number): PointRow {
    const taken = this.taken[i]!;
    return {
      asset_id: this.id[i]!,
      gps_latitude: this.lat[i]!,
      gps_longitude: this.lon[i]!,
      original_filename: this.name[i]!,
      taken_time: Number.isNaN(taken) ? null : taken,
      upload_time: this.upload[i]!,
    };
  }

  pointJson(i: number): string {
    let json = this.json[i];
    if (json === undefined) {
      json = this.json[i] = pointJson(this.point(i));
      this.jsonChars += json.length;
    }
    return json;
  }

  /** Bytes held, roughly: the columns, plus ids, names and written JSON as UTF-16 strings. */
  bytes(): number {
    return this.rowid.length * 46 + this.size * (16 + 2 * 36 + 2 * 24 + 16) + this.jsonChars * 2;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A map point as getMapPoints writes it. Kept with the point once made: writing 5000 points
 * (two dates each) took 8–15 ms of a 16–20 ms answer at 100k; joining kept ones takes about 1.
 */
export function pointJson(p: PointRow): string {
  return JSON.stringify({
    asset_id: p.asset_id,
    gps_latitude: p.gps_latitude,
    gps_longitude: p.gps_longitude,
    original_filename: displayFileName(p.original_filename),
    taken_time: iso(p.taken_time),
    upload_time: iso(p.upload_time),
  });
}

/** Points merged or stored per turn of the event loop while reading an owner's points (a few ms each under load). */
const SLICE_ROWS = 8_192;

/** Sorted runs (map order) merged into one, a slice of points per turn of the event loop. */
async function mergeRuns(runs: Row[][]): Promise<Row[]> {
  let done = 0;
  while (runs.length > 1) {
    const next: Row[][] = [];
    for (let k = 0; k < runs.length; k += 2) {
      const a = runs[k]!;
      const b = runs[k + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      const out = new Array<Row>(a.length + b.length);
      let i = 0;
      let j = 0;
      for (let o = 0; o < out.length; o++) {
        out[o] = j >= b.length || (i < a.length && before(a[i]![3], a[i]![4], b[j]![3], b[j]![4])) ? a[i++]! : b[j++]!;
        if (++done % SLICE_ROWS === 0) await nextTurn();
      }
      next.push(out);
    }
    runs = next;
  }
  return runs[0] ?? [];
}

/** One pass over an owner's points: counts the matching ones and hands the page's to `take`. */
function scan(p: Points, nonHead: Uint8Array, box: Viewport | undefined, repositoryId: string | undefined, limit: number, offset: number, take: (i: number) => void): number {
  const repo = repositoryId === undefined ? -1 : p.repos.indexOf(repositoryId);
  if (repositoryId !== undefined && repo === -1) return 0;
  const across = box !== undefined && box.west > box.east;
  let taken = 0;
  let total = 0;
  for (let i = 0; i < p.size; i++) {
    if (repo >= 0 && p.repo[i] !== repo) continue;
    if (box) {
      const lat = p.lat[i]!;
      const lon = p.lon[i]!;
      if (lat < box.south || lat > box.north) continue;
      if (across ? lon < box.west && lon > box.east : lon < box.west || lon > box.east) continue;
    }
    if (nonHead[p.rowid[i]!] === 1) continue;
    if (total >= offset && taken < limit) {
      take(i);
      taken++;
    }
    total++;
  }
  return total;
}

export interface MapMatch {
  total: number;
  /** The page, in map order. */
  points: PointRow[];
}

/** The map index of one catalog: built once by the container; its points live in the map cache. */
export class MapIndex {
  private readonly all;
  private readonly some;
  private readonly range;
  private readonly maxRowid;
  /** Owners whose points are being read in slices (one read per owner at a time). */
  private readonly reading = new SingleFlight<number, Points>();

  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogTracker,
    private readonly cache: KeptCache<number, Points>,
  ) {
    this.all = db
      // Through the GPS index: only geotagged rows are looked up (a third of the time of walking every live file).
      .prepare(`SELECT ${COLUMNS} FROM assets a INDEXED BY assets_list_gps WHERE a.owner_id = ? AND a.is_deleted = 0 AND ${HAS_GPS} ORDER BY a.best_time DESC, a.asset_id DESC`)
      .raw();
    this.some = db.prepare(`SELECT ${COLUMNS} FROM json_each(@rows) j CROSS JOIN assets a ON a.rowid = j.value WHERE a.owner_id = @owner AND a.is_deleted = 0 AND ${HAS_GPS}`).raw();
    this.range = db
      .prepare(
        `SELECT ${COLUMNS} FROM assets a NOT INDEXED WHERE a.rowid > @from AND a.rowid <= @to AND a.owner_id = @owner AND a.is_deleted = 0 AND ${HAS_GPS}
         ORDER BY a.best_time DESC, a.asset_id DESC`,
      )
      .raw();
    this.maxRowid = db.prepare('SELECT coalesce(max(rowid), 0) FROM assets').pluck();
  }

  /** Whether this owner's points are kept (read, and not dropped since). */
  keeps(ownerId: number): boolean {
    return this.cache.has(ownerId);
  }

  /** The owner's points (one per media item) in the viewport and repository, counted, with one page. */
  match(ownerId: number, box: Viewport | undefined, repositoryId: string | undefined, limit: number, offset: number): Promise<MapMatch> {
    return this.withPoints(ownerId, (p, nonHead) => {
      const points: PointRow[] = [];
      const total = scan(p, nonHead, box, repositoryId, limit, offset, (i) => points.push(p.point(i)));
      return { total, points };
    });
  }

  /** As match, with the page's points as the answer writes them (pointJson). */
  matchJson(ownerId: number, box: Viewport | undefined, repositoryId: string | undefined, limit: number, offset: number): Promise<{ total: number; points: string[] }> {
    return this.withPoints(ownerId, (p, nonHead) => {
      const points: string[] = [];
      const total = scan(p, nonHead, box, repositoryId, limit, offset, (i) => points.push(p.pointJson(i)));
      return { total, points };
    });
  }

  /**
   * Runs `use` over the owner's current points in one read transaction. Points not kept yet are
   * read in slices first (the event loop stays free meanwhile).
   */
  private async withPoints<T>(ownerId: number, use: (p: Points, nonHead: Uint8Array) => T): Promise<T> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.catalog.ready();
      const done = this.db.transaction(() => {
        const { st } = this.catalog.current();
        const p = this.cache.lookup(ownerId, (hit) => this.refresh(hit, ownerId, st.rows));
        return p ? { value: use(p, st.shape.nonHead) } : null;
      })();
      if (done) return done.value;
      this.cache.put(ownerId, await this.readInSlices(ownerId));
    }
    // The catalog changes faster than the points can be read in slices: read them at once.
    return this.db.transaction(() => {
      const { st } = this.catalog.current();
      const p = this.cache.get(
        ownerId,
        (hit) => this.refresh(hit, ownerId, st.rows),
        () => {
          const read = this.all.all(ownerId) as Row[];
          const p = new Points(st.rows.epoch, st.rows.seq, read.length);
          for (const r of read) p.push(r);
          return p;
        },
      );
      return use(p, st.shape.nonHead);
    })();
  }

  /** Kept points brought up to date with the changed rows; null when that is not worth it. */
  private refresh(hit: Points, ownerId: number, rows: ChangedKeys): Points | null {
    return this.cache.patchRows(hit, rows, PATCH_LIMIT, POINT_DEPS, (changed) => this.patch(hit, ownerId, changed));
  }

  /** The owner's points read by rowid ranges as of the journal position noted first (see the top). */
  private readInSlices(ownerId: number): Promise<Points> {
    return this.reading.run(ownerId, async () => {
      await this.catalog.ready();
      const start = this.db.transaction(() => {
        const { st } = this.catalog.current();
        return { epoch: st.rows.epoch, seq: st.rows.seq, max: this.maxRowid.get() as number };
      })();
      const runs: Row[][] = [];
      let from = 0;
      await inSlices((size) => {
        const run = this.range.all({ owner: ownerId, from, to: from + size }) as Row[];
        if (run.length) runs.push(run);
        from += size;
        return from < start.max;
      }, { first: 256 }); // whole rows are read (kilobytes of EXIF each): the first slice small, then sized by its time
      const rows = await mergeRuns(runs);
      const p = new Points(start.epoch, start.seq, rows.length);
      for (let i = 0; i < rows.length; i++) {
        p.push(rows[i]!);
        if (i % SLICE_ROWS === SLICE_ROWS - 1) await nextTurn();
      }
      return p;
    });
  }

  /** The changed rows leave; those that are still geotagged live files of the owner come back at their place. */
  private patch(p: Points, ownerId: number, changed: Set<number>): Points {
    if (changed.size === 0) return p;
    const gone: number[] = [];
    for (let i = 0; i < p.size; i++) if (changed.has(p.rowid[i]!)) gone.push(i);
    for (let k = gone.length - 1; k >= 0; k--) p.remove(gone[k]!);
    for (const row of this.some.all({ rows: JSON.stringify([...changed]), owner: ownerId }) as Row[]) p.insert(row);
    return p;
  }
}
