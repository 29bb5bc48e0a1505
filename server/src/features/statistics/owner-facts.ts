/**
 * What the statistics count, per live file of an owner, kept in memory as columns and kept current,
 * so that every statistic is one pass over a few typed arrays (milliseconds) instead of a read of
 * every asset of the owner (seconds on a 1M library, with a JSON field parsed per photo).
 *
 * Each fact is derived in SQL when a row is read (the same expressions the statistics always used:
 * local wall-clock year, day, hour and month; trimmed camera and lens; focal length rounded to a
 * tenth), so the counting in JS needs no date or string work. Rows are read once per owner, kept in
 * the server's facts cache (platform/cache, built once by the container); after that only the rows
 * the catalog's change journal names (features/browse/catalog-tracker.ts), whichever connection
 * wrote them, are read again. Whether a file stands for its media item (statistics count a RAW+JPEG
 * pair once) is asked of the catalog shape at count time. Only a gap in the journal, or more
 * changes than worth patching, reads everything again.
 *
 * Reading an owner's files (a second or more on a 1M library) never holds the event loop: they are
 * read by rowid ranges in slices of about 15 ms (platform/cache/slices.ts), then brought up to date
 * from the journal position noted before the first slice, like any kept facts.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { ChangedKeys } from '../../platform/cache/changed-keys.ts';
import { depBits } from '../../platform/cache/change-journal.ts';
import { SingleFlight } from '../../platform/cache/single-flight.ts';
import type { KeptCache } from '../../platform/cache/kept-cache.ts';
import { inSlices, nextTurn } from '../../platform/cache/slices.ts';
import type { CatalogTracker } from '../browse/index.ts';
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
/**
 * The kinds of change a fact reads (change-journal.ts `Dep`): a row that came or went or changed
 * owner, its trash state, time and offset, type, metadata (camera, lens, focal length) or
 * repository. Likes, ratings, tags, albums, names and positions are not counted.
 */
const FACT_DEPS = depBits(['rows', 'trash', 'time', 'type', 'meta', 'path']);
/** The facts cache's budget: about 2.5M files. */
export const FACTS_CACHE_BYTES = 96 * 1024 * 1024;
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

  /** Bytes held: the columns (30 bytes a file) and the names. */
  bytes(): number {
    return this.rowid.length * 30 + this.names.reduce((n, x) => n + 40 + 2 * x.length, 0);
  }

  /** Removes entry i (the last one takes its place). */
  remove(i: number): void {
    const last = --this.size;
    for (const col of this.columns) col[i] = col[last]!;
  }

  /**
   * Room for at least `capacity` files, one column per turn of the event loop: growing all ten
   * columns at once took up to 75 ms at 700k files (new buffers, copies, and the collections they
   * set off), the longest stall of reading an owner's facts.
   */
  async reserve(capacity: number): Promise<void> {
    if (capacity <= this.rowid.length) return;
    const n = Math.max(capacity, Math.ceil(this.rowid.length * 1.5));
    const grown = <T extends Int32Array | Int16Array | Int8Array | Uint8Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    const names = ['rowid', 'year', 'day', 'hour', 'month', 'photo', 'camera', 'lens', 'fl', 'repo'] as const;
    for (const name of names) {
      (this as Record<(typeof names)[number], Int32Array | Int16Array | Int8Array | Uint8Array | Float64Array>)[name] = grown(this[name]);
      await nextTurn();
    }
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

/** The rows a statistic counts: index i of the facts, for the files standing for their media item. */
export interface Counted {
  facts: Facts;
  /** Indexes into the facts of the counted files (live, standing for their item, in the repository asked for). */
  rows: Int32Array;
}

/** The statistics facts of one catalog: built once by the container; the facts live in the facts cache. */
export class OwnerFacts {
  private readonly all;
  private readonly some;
  private readonly range;
  private readonly maxRowid;
  /** Owners whose facts are being read in slices (one read per owner at a time). */
  private readonly reading = new SingleFlight<number, Facts>();

  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogTracker,
    private readonly cache: KeptCache<number, Facts>,
  ) {
    this.all = db.prepare(`SELECT ${COLUMNS} FROM assets a WHERE a.owner_id = ? AND a.is_deleted = 0`).raw();
    this.some = db.prepare(`SELECT ${COLUMNS} FROM json_each(@rows) j CROSS JOIN assets a ON a.rowid = j.value WHERE a.owner_id = @owner AND a.is_deleted = 0`).raw();
    // A slice: a rowid range of the table (NOT INDEXED: no owner index may turn it into a walk of every file of the owner).
    this.range = db.prepare(`SELECT ${COLUMNS} FROM assets a NOT INDEXED WHERE a.rowid > @from AND a.rowid <= @to AND a.owner_id = @owner AND a.is_deleted = 0`).raw();
    this.maxRowid = db.prepare('SELECT coalesce(max(rowid), 0) FROM assets').pluck();
  }

  /** Whether this owner's facts are kept (read, and not dropped since). */
  keeps(ownerId: number): boolean {
    return this.cache.has(ownerId);
  }

  /**
   * The owner's files a statistic counts, optionally of one repository. Facts not kept yet are read
   * in slices first (the event loop stays free meanwhile).
   */
  async counted(ownerId: number, repositoryId?: string): Promise<Counted> {
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.catalog.ready();
      const done = this.db.transaction(() => {
        const { st } = this.catalog.current();
        const facts = this.cache.lookup(ownerId, (hit) => this.refresh(hit, ownerId, st.rows));
        return facts && this.count(facts, st.shape.nonHead, repositoryId);
      })();
      if (done) return done;
      this.cache.put(ownerId, await this.readInSlices(ownerId));
    }
    // The catalog changes faster than the facts can be read in slices: read them at once.
    return this.db.transaction(() => {
      const { st } = this.catalog.current();
      const facts = this.cache.get(
        ownerId,
        (hit) => this.refresh(hit, ownerId, st.rows),
        () => {
          const f = new Facts(st.rows.epoch, st.rows.seq, 1024);
          for (const r of this.all.all(ownerId) as Row[]) f.push(r);
          return f;
        },
      );
      return this.count(facts, st.shape.nonHead, repositoryId);
    })();
  }

  private count(facts: Facts, nonHead: Uint8Array, repositoryId: string | undefined): Counted {
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

  /** Kept facts brought up to date with the changed rows; null when that is not worth it. */
  private refresh(hit: Facts, ownerId: number, rows: ChangedKeys): Facts | null {
    return this.cache.patchRows(hit, rows, PATCH_LIMIT, FACT_DEPS, (changed) => this.patch(hit, ownerId, changed));
  }

  /**
   * The owner's facts read by rowid ranges, as of the journal position noted first: rows changed
   * while the slices are read are read again by the next `refresh`.
   */
  private readInSlices(ownerId: number): Promise<Facts> {
    return this.reading.run(ownerId, async () => {
      await this.catalog.ready();
      const start = this.db.transaction(() => {
        const { st } = this.catalog.current();
        return { epoch: st.rows.epoch, seq: st.rows.seq, max: this.maxRowid.get() as number };
      })();
      const f = new Facts(start.epoch, start.seq, 1024);
      let from = 0;
      await inSlices(
        (size) => {
          // Row by row (not `all`): each row dies young instead of a slice's worth being promoted to
          // the old generation, whose collection pauses were the longest stalls after a gap at 1M.
          for (const r of this.range.iterate({ owner: ownerId, from, to: from + size }) as IterableIterator<Row>) f.push(r);
          from += size;
          return from < start.max;
        },
        // A slice reads at most `size` rows: room for them is made beforehand, apart (`reserve`).
        // The first slice small: whole rows are read (kilobytes of EXIF each); 4096 of them took 125 ms at 1M.
        { first: 256, before: (size) => f.reserve(f.size + size) },
      );
      return f;
    });
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
