/**
 * Every geotagged live file of an owner, kept in memory in map order (newest capture first, then
 * asset id), so that a map request is one pass over a few typed arrays instead of a walk through
 * the catalog.
 *
 * Why: a map asks for "the points in this viewport, newest first, and how many there are". With
 * half a million geotagged files (a 1M library) no index answers both: counting through the GPS
 * index still has to look up every row for its trash state and media item, and paging newest
 * first through the time index has to look up rows until the page fills (0.1–2 s either way).
 * In memory the same pass costs milliseconds: 530k points take about 12 MB here.
 *
 * Kept current through the catalog's change log (features/browse/browse.lists.ts
 * `currentCatalog`): the rows changed since the last request (a new file, a deletion, a trash move,
 * a new position or time) are read again and put at their place; the rest stays. A write by
 * another connection, or more changes than the log keeps, counts everything again. Whether a file
 * stands for its media item (a RAW+JPEG pair is one point) is asked of the catalog shape at query
 * time, so pairs forming or parting need no re-read here.
 */
import type { Db } from '../../platform/db/connection.ts';
import { currentCatalog } from '../browse/browse.lists.ts';
import type { Viewport } from './places.store.ts';

/** Files that have a position: (0, 0) exactly is what an empty GPS block decodes to, never a place. */
const HAS_GPS = 'a.gps_latitude IS NOT NULL AND a.gps_longitude IS NOT NULL AND NOT (a.gps_latitude = 0 AND a.gps_longitude = 0)';
const COLUMNS = 'a.rowid, a.gps_latitude, a.gps_longitude, a.best_time, a.asset_id, a.repository_id';
type Row = [rowid: number, lat: number, lon: number, t: number, id: string, repo: string];

/** Past this many changed rows, reading everything again is cheaper than patching. */
const PATCH_LIMIT = 50_000;
/** Owners kept. */
const KEPT = 8;

interface Points {
  epoch: number;
  seq: number;
  rowid: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  time: Float64Array;
  id: string[];
  /** Index into `repos`. */
  repo: Uint16Array;
  repos: string[];
}

/** Map order: newest first, then asset id descending (what the API documents). */
function before(t1: number, id1: string, t2: number, id2: string): boolean {
  return t1 !== t2 ? t1 > t2 : id1 > id2;
}

function pack(rows: Row[], epoch: number, seq: number, repos: string[]): Points {
  const n = rows.length;
  const p: Points = { epoch, seq, rowid: new Int32Array(n), lat: new Float64Array(n), lon: new Float64Array(n), time: new Float64Array(n), id: new Array<string>(n), repo: new Uint16Array(n), repos };
  const repoIndex = new Map(repos.map((r, i) => [r, i]));
  rows.forEach(([rowid, lat, lon, t, id, repo], i) => {
    let ri = repoIndex.get(repo);
    if (ri === undefined) {
      ri = repos.push(repo) - 1;
      repoIndex.set(repo, ri);
    }
    p.rowid[i] = rowid;
    p.lat[i] = lat;
    p.lon[i] = lon;
    p.time[i] = t;
    p.id[i] = id;
    p.repo[i] = ri;
  });
  return p;
}

const perConnection = new WeakMap<Db, MapIndex>();

/** The map index of this catalog connection (services are made per request; the index outlives them). */
export function mapIndex(db: Db): MapIndex {
  let m = perConnection.get(db);
  if (!m) perConnection.set(db, (m = new MapIndex(db)));
  return m;
}

export interface MapMatch {
  total: number;
  /** Rowids of the page, in map order. */
  page: number[];
}

export class MapIndex {
  private readonly kept = new Map<number, Points>();
  private readonly all;
  private readonly some;

  constructor(private readonly db: Db) {
    this.all = db
      .prepare(`SELECT ${COLUMNS} FROM assets a INDEXED BY assets_owner_best_time WHERE a.owner_id = ? AND a.is_deleted = 0 AND ${HAS_GPS} ORDER BY a.best_time DESC, a.asset_id DESC`)
      .raw();
    this.some = db.prepare(`SELECT ${COLUMNS} FROM assets a WHERE a.rowid IN (SELECT value FROM json_each(@rows)) AND a.owner_id = @owner AND a.is_deleted = 0 AND ${HAS_GPS}`).raw();
  }

  /** The owner's points (one per media item) in the viewport and repository, counted, with one page. */
  match(ownerId: number, box: Viewport | undefined, repositoryId: string | undefined, limit: number, offset: number): MapMatch {
    const { st } = currentCatalog(this.db);
    const p = this.points(ownerId, st.journal);
    const { nonHead } = st.shape;
    const repo = repositoryId === undefined ? -1 : p.repos.indexOf(repositoryId);
    if (repositoryId !== undefined && repo === -1) return { total: 0, page: [] };
    const across = box !== undefined && box.west > box.east;
    const page: number[] = [];
    let total = 0;
    for (let i = 0; i < p.rowid.length; i++) {
      if (repo >= 0 && p.repo[i] !== repo) continue;
      if (box) {
        const lat = p.lat[i]!;
        const lon = p.lon[i]!;
        if (lat < box.south || lat > box.north) continue;
        if (across ? lon < box.west && lon > box.east : lon < box.west || lon > box.east) continue;
      }
      const r = p.rowid[i]!;
      if (nonHead[r] === 1) continue;
      if (total >= offset && page.length < limit) page.push(r);
      total++;
    }
    return { total, page };
  }

  private points(ownerId: number, journal: { epoch: number; seq: number; since(seq: number): Set<number> | null }): Points {
    const hit = this.kept.get(ownerId);
    if (hit) this.kept.delete(ownerId);
    let p: Points | null = null;
    if (hit && hit.epoch === journal.epoch) {
      const changed = journal.since(hit.seq);
      if (changed && changed.size <= PATCH_LIMIT) p = changed.size === 0 ? hit : this.patch(hit, ownerId, changed, journal.seq);
    }
    if (!p) p = pack(this.all.all(ownerId) as Row[], journal.epoch, journal.seq, []);
    p.seq = journal.seq;
    this.kept.set(ownerId, p);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return p;
  }

  /** The changed rows leave; those that are still geotagged live files of the owner come back at their place. */
  private patch(p: Points, ownerId: number, changed: Set<number>, seq: number): Points {
    const back = (this.some.all({ rows: JSON.stringify([...changed]), owner: ownerId }) as Row[]).sort((x, y) => (before(x[3], x[4], y[3], y[4]) ? -1 : 1));
    const max = p.rowid.length + back.length;
    const out: Points = { epoch: p.epoch, seq, rowid: new Int32Array(max), lat: new Float64Array(max), lon: new Float64Array(max), time: new Float64Array(max), id: [], repo: new Uint16Array(max), repos: p.repos };
    let n = 0;
    const repoIndex = (repo: string) => {
      const i = out.repos.indexOf(repo);
      return i >= 0 ? i : out.repos.push(repo) - 1;
    };
    const add = (rowid: number, lat: number, lon: number, t: number, id: string, repo: number) => {
      out.rowid[n] = rowid;
      out.lat[n] = lat;
      out.lon[n] = lon;
      out.time[n] = t;
      out.id.push(id);
      out.repo[n++] = repo;
    };
    let b = 0;
    for (let i = 0; i < p.rowid.length; i++) {
      const t = p.time[i]!;
      const id = p.id[i]!;
      for (; b < back.length && before(back[b]![3], back[b]![4], t, id); b++) {
        const [r, lat, lon, bt, bid, repo] = back[b]!;
        add(r, lat, lon, bt, bid, repoIndex(repo));
      }
      if (!changed.has(p.rowid[i]!)) add(p.rowid[i]!, p.lat[i]!, p.lon[i]!, t, id, p.repo[i]!);
    }
    for (; b < back.length; b++) {
      const [r, lat, lon, bt, bid, repo] = back[b]!;
      add(r, lat, lon, bt, bid, repoIndex(repo));
    }
    return { ...out, rowid: out.rowid.slice(0, n), lat: out.lat.slice(0, n), lon: out.lon.slice(0, n), time: out.time.slice(0, n), repo: out.repo.slice(0, n) };
  }
}
