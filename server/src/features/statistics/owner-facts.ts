/**
 * What the statistics count, per live file of an owner, kept in memory as columns and kept current,
 * so that every statistic is one pass over a few typed arrays (milliseconds) instead of a read of
 * every asset of the owner (seconds on a 1M library, with a JSON field parsed per photo).
 *
 * Each fact is derived in SQL when a row is read (the same expressions the statistics always used:
 * local wall-clock year, day, hour and month; trimmed camera and lens; focal length rounded to a
 * tenth), so the counting in JS needs no date or string work. Rows are read once per owner; after
 * that only the rows the catalog's change log names (features/browse/browse.lists.ts
 * `currentCatalog`) are read again. Whether a file stands for its media item (statistics count a
 * RAW+JPEG pair once) is asked of the catalog shape at count time. A write by another connection,
 * or more changes than the log keeps, reads everything again.
 */
import type { Db } from '../../platform/db/connection.ts';
import { currentCatalog, type Journal } from '../browse/index.ts';
import { LOCAL_MS, LOCAL_TAKEN_MS } from './scope.ts';

const COLUMNS = `a.rowid,
  CAST(strftime('%Y', ${LOCAL_MS} / 1000.0, 'unixepoch') AS INTEGER),
  CAST(floor(${LOCAL_MS} / 86400000.0) AS INTEGER),
  CASE WHEN a.taken_time IS NOT NULL THEN CAST(strftime('%H', ${LOCAL_TAKEN_MS} / 1000.0, 'unixepoch') AS INTEGER) END,
  CASE WHEN a.taken_time IS NOT NULL THEN CAST(strftime('%m', ${LOCAL_TAKEN_MS} / 1000.0, 'unixepoch') AS INTEGER) END,
  a.type = 'PHOTO',
  nullif(trim(a.camera_model), ''),
  nullif(trim(a.lens_model), ''),
  CASE WHEN a.type = 'PHOTO' THEN (SELECT CASE WHEN f > 0 THEN round(f, 1) END FROM (SELECT CAST(json_extract(a.specific_metadata, '$.focal_length') AS REAL) AS f)) END,
  a.repository_id`;
type Row = [rowid: number, year: number, day: number, hour: number | null, month: number | null, photo: number, camera: string | null, lens: string | null, fl: number | null, repo: string];

/** Past this many changed rows, reading everything again is cheaper than patching. */
const PATCH_LIMIT = 20_000;
/** Owners kept. */
const KEPT = 8;
const NONE = -1;

/** One owner's facts, a column per fact (index i is one file; order does not matter), the first `size` used. */
export class Facts {
  size = 0;
  rowid: Int32Array;
  year: Int16Array;
  /** Local day number (days since 1970-01-01 of the local wall-clock time). */
  day: Int32Array;
  /** Local hour / month of the capture time; -1 without a capture time. */
  hour: Int8Array;
  month: Int8Array;
  photo: Uint8Array;
  /** Index into `names`, or -1. */
  camera: Int32Array;
  lens: Int32Array;
  /** Focal length in mm (tenths), NaN when none is recorded or not a photo. */
  fl: Float64Array;
  repo: Int32Array;
  /** Camera, lens and repository names. */
  readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();

  constructor(
    public epoch: number,
    public seq: number,
    capacity: number,
  ) {
    this.rowid = new Int32Array(capacity);
    this.year = new Int16Array(capacity);
    this.day = new Int32Array(capacity);
    this.hour = new Int8Array(capacity);
    this.month = new Int8Array(capacity);
    this.photo = new Uint8Array(capacity);
    this.camera = new Int32Array(capacity);
    this.lens = new Int32Array(capacity);
    this.fl = new Float64Array(capacity);
    this.repo = new Int32Array(capacity);
  }

  private get columns() {
    return [this.rowid, this.year, this.day, this.hour, this.month, this.photo, this.camera, this.lens, this.fl, this.repo] as const;
  }

  private nameOf(s: string | null): number {
    if (s === null) return NONE;
    let i = this.nameIndex.get(s);
    if (i === undefined) this.nameIndex.set(s, (i = this.names.push(s) - 1));
    return i;
  }

  push([rowid, year, day, hour, month, photo, camera, lens, fl, repo]: Row): void {
    if (this.size === this.rowid.length) this.grow();
    const i = this.size++;
    this.rowid[i] = rowid;
    this.year[i] = year;
    this.day[i] = day;
    this.hour[i] = hour ?? NONE;
    this.month[i] = month ?? NONE;
    this.photo[i] = photo;
    this.camera[i] = this.nameOf(camera);
    this.lens[i] = this.nameOf(lens);
    this.fl[i] = fl ?? NaN;
    this.repo[i] = this.nameOf(repo);
  }

  /** Removes entry i (the last one takes its place). */
  remove(i: number): void {
    const last = --this.size;
    for (const col of this.columns) col[i] = col[last]!;
  }

  private grow(): void {
    const n = Math.max(64, Math.ceil(this.rowid.length * 1.25));
    const grown = <T extends Int32Array | Int16Array | Int8Array | Uint8Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.rowid = grown(this.rowid);
    this.year = grown(this.year);
    this.day = grown(this.day);
    this.hour = grown(this.hour);
    this.month = grown(this.month);
    this.photo = grown(this.photo);
    this.camera = grown(this.camera);
    this.lens = grown(this.lens);
    this.fl = grown(this.fl);
    this.repo = grown(this.repo);
  }
}

const perConnection = new WeakMap<Db, OwnerFacts>();

/** The facts kept for this catalog connection (services are made per request; the facts outlive them). */
export function ownerFacts(db: Db): OwnerFacts {
  let o = perConnection.get(db);
  if (!o) perConnection.set(db, (o = new OwnerFacts(db)));
  return o;
}

/** The rows a statistic counts: index i of the facts, for the files standing for their media item. */
export interface Counted {
  facts: Facts;
  /** Indexes into the facts of the counted files (live, standing for their item, in the repository asked for). */
  rows: Int32Array;
}

export class OwnerFacts {
  private readonly kept = new Map<number, Facts>();
  private readonly all;
  private readonly some;

  constructor(private readonly db: Db) {
    this.all = db.prepare(`SELECT ${COLUMNS} FROM assets a WHERE a.owner_id = ? AND a.is_deleted = 0`).raw();
    this.some = db.prepare(`SELECT ${COLUMNS} FROM json_each(@rows) j CROSS JOIN assets a ON a.rowid = j.value WHERE a.owner_id = @owner AND a.is_deleted = 0`).raw();
  }

  /** Whether this owner's facts are kept (read, and not dropped since). */
  keeps(ownerId: number): boolean {
    return this.kept.has(ownerId);
  }

  /** The owner's files a statistic counts, optionally of one repository. */
  counted(ownerId: number, repositoryId?: string): Counted {
    const { st } = currentCatalog(this.db);
    const facts = this.facts(ownerId, st.journal);
    const { nonHead } = st.shape;
    const repo = repositoryId === undefined ? NONE : facts.names.indexOf(repositoryId);
    const rows = new Int32Array(facts.size);
    let n = 0;
    if (repositoryId === undefined || repo !== NONE) {
      for (let i = 0; i < facts.size; i++) {
        if (nonHead[facts.rowid[i]!] === 1) continue;
        if (repo !== NONE && facts.repo[i] !== repo) continue;
        rows[n++] = i;
      }
    }
    return { facts, rows: rows.subarray(0, n) };
  }

  private facts(ownerId: number, journal: Journal): Facts {
    const hit = this.kept.get(ownerId);
    if (hit) this.kept.delete(ownerId);
    let f: Facts | null = null;
    if (hit && hit.epoch === journal.epoch) {
      const changed = journal.since(hit.seq);
      if (changed && changed.size <= PATCH_LIMIT) f = this.patch(hit, ownerId, changed);
    }
    if (!f) {
      const rows = this.all.all(ownerId) as Row[];
      f = new Facts(journal.epoch, journal.seq, rows.length);
      for (const r of rows) f.push(r);
    }
    f.seq = journal.seq;
    this.kept.set(ownerId, f);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return f;
  }

  /** The changed rows leave; those still live files of the owner come back. */
  private patch(f: Facts, ownerId: number, changed: Set<number>): Facts {
    if (changed.size === 0) return f;
    // From the end, so that the entry moved into a removed one's place has been looked at already.
    for (let i = f.size - 1; i >= 0; i--) if (changed.has(f.rowid[i]!)) f.remove(i);
    for (const row of this.some.all({ rows: JSON.stringify([...changed]), owner: ownerId }) as Row[]) f.push(row);
    return f;
  }
}
