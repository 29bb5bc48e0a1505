/**
 * The shape of the catalog the list needs beyond single rows, kept in memory: which assets do not
 * stand for their media item (the later files of RAW+JPEG pairs, live photos, edits), how many
 * files stand behind each item, and where each item sits in a stack.
 *
 * Why in memory: whether an asset stands for its item depends on its siblings (the first file of
 * the item in the listed trash state), which no index on `assets` can hold. Checking it row by row
 * costs a few index probes per asset, far too much for totals over a large library; this shape is
 * built once from the multi-file items and the stacks (a fraction of the catalog) and then answers
 * every row with an array lookup.
 *
 * Kept current (catalog-tracker.ts): the catalog's change journal names which media items, assets
 * and stacks changed, whoever wrote them, and `patch` redoes just those; only a gap in the journal
 * rebuilds it. Ids of stacks and members are read per page (browse.store.ts).
 */
import type { Db } from '../../platform/db/connection.ts';
import type { JournalChanges } from '../../platform/cache/change-journal.ts';
import { inSlices } from '../../platform/cache/slices.ts';

type Changes = Pick<JournalChanges, 'items' | 'assets' | 'stacks'>;

export interface StackMember {
  /** Position in the stack. */
  pos: number;
  /** Rowid of the asset standing for the member in the library [0] / the Trash [1]; 0: none there. */
  heads: [number, number];
}

export interface StackShape {
  /** stacks.rowid. */
  key: number;
  kind: 'burst' | 'manual';
  /** Members by position. */
  members: StackMember[];
  /** The member that is the cover: the chosen one, else the first by position. */
  cover: StackMember;
}

export interface StackSlot {
  stack: StackShape;
  member: StackMember;
  isCover: boolean;
}

/** Components of items in position order, with the trash state of their asset. */
const ITEM_ROWS = `SELECT c.media_item_id, a.rowid, a.is_deleted
  FROM media_item_components c INDEXED BY media_item_components_item
  JOIN assets a INDEXED BY assets_id_list ON a.asset_id = c.asset_id
  WHERE c.media_item_id IN (%ITEMS%)
  ORDER BY c.media_item_id, c.position, c.asset_id`;
/** Members of stacks (an integer per member item), each with its files and their trash state. */
const STACK_ROWS = `SELECT s.rowid, s.stack_kind = 'burst', m.rowid, sm.position, coalesce(sm.media_item_id = s.cover_media_item_id, 0), a.rowid, a.is_deleted
  FROM stacks s JOIN stack_members sm ON sm.stack_id = s.stack_id
  JOIN media_items m ON m.media_item_id = sm.media_item_id
  JOIN media_item_components c INDEXED BY media_item_components_item ON c.media_item_id = sm.media_item_id
  JOIN assets a INDEXED BY assets_id_list ON a.asset_id = c.asset_id
  %WHERE%
  ORDER BY s.rowid, sm.position, sm.media_item_id`;

export class CatalogShape {
  /** 1 where the asset at that rowid does not stand for its media item in its own trash state. */
  nonHead: Uint8Array;
  /** Files behind the item beyond its head, by the head's rowid (saturates at 255). */
  extra: Uint8Array;
  /** Index + 1 into `slots` by the head's rowid; 0 when the item is in no stack. */
  slotOf: Int32Array;
  /**
   * Where `slotOf` is set: the stack's key, and the member's rank for the row a collapsed stack
   * shows (-1 the cover, else its position). Typed copies of the slot's fields, so that a list
   * over a million rows collapses its stacks without following an object per row.
   */
  slotKey: Int32Array;
  slotRank: Int32Array;
  slots: StackSlot[] = [];
  /** The largest stacks.rowid seen (lists size per-stack counters by it). */
  maxStackKey = 0;
  /** Rowids of the files of every item with more than one (what `patch` clears before redoing it). */
  private readonly itemRows = new Map<string, number[]>();
  private readonly stacks = new Map<number, StackShape>();
  private readonly stackKeys = new Map<string, number>();
  private deadSlots = 0;

  private constructor(capacity: number) {
    this.nonHead = new Uint8Array(capacity);
    this.extra = new Uint8Array(capacity);
    this.slotOf = new Int32Array(capacity);
    this.slotKey = new Int32Array(capacity);
    this.slotRank = new Int32Array(capacity);
  }

  /**
   * Rows newer than the shape's last build or patch are files in no multi-file item and no stack
   * (linking one into either is logged and patched first): they stand for themselves.
   */
  isHead(rowid: number): boolean {
    return this.nonHead[rowid] !== 1;
  }

  files(head: number): number {
    return 1 + (this.extra[head] ?? 0);
  }

  stack(head: number): StackSlot | undefined {
    const i = this.slotOf[head] ?? 0;
    return i === 0 ? undefined : this.slots[i - 1];
  }

  /** Builds the shape at once (holds the event loop: seconds at 1M; see `buildInSlices`). */
  static build(db: Db): CatalogShape {
    const { shape, steps } = CatalogShape.builder(db);
    for (const step of steps) while (step(1 << 30));
    return shape;
  }

  /**
   * Builds the shape a slice per turn of the event loop (platform/cache/slices.ts): items by
   * media item id ranges, stacks by rowid ranges, each slice a bounded statement. Call it inside
   * one read transaction of a connection nobody else uses meanwhile (platform/cache/snapshot-reader.ts):
   * the slices then all see one snapshot. Why not one statement per kind: both queries do their
   * expensive part before the first row (the set of multi-file items; a sort of every stack's
   * members): 0.4 s and 1.8 s of one synchronous step at 1M.
   */
  static async buildInSlices(db: Db): Promise<CatalogShape> {
    const { shape, steps } = CatalogShape.builder(db);
    for (const step of steps) await inSlices(step, { first: 1024 });
    return shape;
  }

  /** The shape to fill and the steps that fill it: each reads about `size` rows, false when done. */
  private static builder(db: Db): { shape: CatalogShape; steps: ((size: number) => boolean)[] } {
    const shape = new CatalogShape(maxRowid(db) + 1024);
    const items = db
      .prepare(
        ITEM_ROWS.replace(
          '%ITEMS%',
          'SELECT l.media_item_id FROM media_item_components l INDEXED BY media_item_components_later WHERE l.position > 0 AND l.media_item_id > @after ORDER BY l.media_item_id LIMIT @size',
        ),
      )
      .raw();
    const keys = db.prepare('SELECT rowid, stack_id FROM stacks WHERE rowid > ? ORDER BY rowid LIMIT ?').raw();
    const stacks = db.prepare(STACK_ROWS.replace('%WHERE%', 'WHERE s.rowid > @from AND s.rowid <= @to')).raw();
    const lastStack = (db.prepare('SELECT coalesce(max(rowid), 0) FROM stacks').pluck().get() as number) ?? 0;
    // Whole items per slice (all files of each item chosen), the next slice after the last one.
    let after = '';
    const itemStep = (size: number) => {
      let last: string | null = null;
      // Row by row (not `all`): rows die young, only what the shape keeps is promoted.
      function* rows() {
        for (const row of items.iterate({ after, size }) as IterableIterator<[string, number, number]>) {
          last = row[0];
          yield row;
        }
      }
      shape.applyItems(rows());
      if (last === null) return false;
      after = last;
      return true;
    };
    let lastKey = 0;
    const keyStep = (size: number) => {
      const rows = keys.all(lastKey, size) as [number, string][];
      for (const [key, id] of rows) shape.stackKeys.set(id, key);
      if (rows.length > 0) lastKey = rows[rows.length - 1]![0];
      return rows.length === size;
    };
    // Whole stacks per slice (a rowid range of stacks); members are a few per stack.
    let from = 0;
    const stackStep = (size: number) => {
      const to = from + Math.max(1, size >> 3);
      shape.applyStacks(stacks.iterate({ from, to }) as IterableIterator<StackRow>);
      from = to;
      return from < lastStack;
    };
    return { shape, steps: [itemStep, keyStep, stackStep] };
  }

  /**
   * Redoes the items and stacks the journal names as changed. Returns the rowids whose standing
   * may have changed (every file of those items, every member of those stacks, before and after).
   */
  patch(db: Db, dirty: Changes): number[] {
    const touched: number[] = [];
    const max = maxRowid(db);
    if (max >= this.nonHead.length) this.grow(max + 1 + (max >> 3));
    const json = (xs: Iterable<string>) => JSON.stringify([...xs]);

    // Items: those logged, and those of logged assets (trash state changes).
    const items = new Set(dirty.items);
    if (dirty.assets.length) {
      for (const id of db.prepare('SELECT media_item_id FROM media_item_components WHERE asset_id IN (SELECT value FROM json_each(?))').pluck().all(json(dirty.assets)) as string[]) items.add(id);
    }
    if (items.size) {
      for (const item of items) {
        for (const r of this.itemRows.get(item) ?? []) {
          this.nonHead[r] = this.extra[r] = 0;
          touched.push(r);
        }
        this.itemRows.delete(item);
      }
      this.applyItems(db.prepare(ITEM_ROWS.replace('%ITEMS%', 'SELECT value FROM json_each(?)')).raw().iterate(json(items)) as IterableIterator<[string, number, number]>, touched);
    }

    // Stacks: those logged, and those holding a redone item (its files or their state changed).
    const ids = new Set(dirty.stacks);
    if (items.size) {
      for (const id of db.prepare('SELECT stack_id FROM stack_members WHERE media_item_id IN (SELECT value FROM json_each(?))').pluck().all(json(items)) as string[]) ids.add(id);
    }
    if (ids.size === 0) return touched;
    const keys = new Set<number>();
    for (const id of ids) {
      const key = this.stackKeys.get(id);
      if (key !== undefined) keys.add(key);
      this.stackKeys.delete(id);
    }
    for (const [key, id] of db.prepare('SELECT rowid, stack_id FROM stacks WHERE stack_id IN (SELECT value FROM json_each(?))').raw().all(json(ids)) as [number, string][]) {
      this.stackKeys.set(id, key);
      keys.add(key);
    }
    for (const key of keys) {
      const old = this.stacks.get(key);
      if (!old) continue;
      this.stacks.delete(key);
      for (const m of old.members) {
        for (const head of m.heads) {
          touched.push(head);
          const i = this.slotOf[head] ?? 0;
          if (i !== 0 && this.slots[i - 1]!.stack === old) {
            this.slotOf[head] = 0;
            this.deadSlots++;
          }
        }
      }
    }
    this.applyStacks(
      db.prepare(STACK_ROWS.replace('%WHERE%', 'WHERE s.rowid IN (SELECT value FROM json_each(?))')).raw().iterate(JSON.stringify([...keys])) as IterableIterator<StackRow>,
      touched,
    );
    if (this.deadSlots > 1000 && this.deadSlots > this.slots.length / 2) this.compactSlots();
    return touched;
  }

  private applyItems(rows: IterableIterator<[string, number, number]>, touched?: number[]): void {
    const { nonHead, extra } = this;
    let item = '';
    let lib = 0;
    let trash = 0;
    let files: number[] = [];
    const close = () => {
      if (files.length > 1) this.itemRows.set(item, files);
    };
    for (const [id, rowid, del] of rows) {
      if (id !== item) {
        close();
        item = id;
        lib = 0;
        trash = 0;
        files = [];
      }
      files.push(rowid);
      touched?.push(rowid);
      const head = del ? trash : lib;
      if (head === 0) {
        if (del) trash = rowid;
        else lib = rowid;
      } else {
        nonHead[rowid] = 1;
        if (extra[head]! < 255) extra[head]!++;
      }
    }
    close();
  }

  private applyStacks(rows: IterableIterator<StackRow>, touched?: number[]): void {
    const found: { stack: StackShape; chosen: StackMember | null }[] = [];
    let current: { stack: StackShape; chosen: StackMember | null } | undefined;
    let member: StackMember = { pos: 0, heads: [0, 0] };
    let lastItem = -1;
    for (const [key, burst, itemKey, pos, isCover, rowid, del] of rows) {
      if (current?.stack.key !== key) {
        member = { pos, heads: [0, 0] };
        current = { stack: { key, kind: burst ? 'burst' : 'manual', members: [member], cover: member }, chosen: null };
        found.push(current);
      } else if (itemKey !== lastItem) {
        member = { pos, heads: [0, 0] };
        current.stack.members.push(member);
      }
      lastItem = itemKey;
      if (isCover) current.chosen = member;
      touched?.push(rowid);
      if (this.nonHead[rowid] !== 1) member.heads[del] = rowid;
    }
    for (const { stack, chosen } of found) {
      if (stack.key > this.maxStackKey) this.maxStackKey = stack.key;
      stack.cover = chosen ?? stack.members[0]!;
      this.stacks.set(stack.key, stack);
      this.addSlots(stack);
    }
  }

  private addSlots(stack: StackShape): void {
    for (const m of stack.members) {
      for (const head of m.heads) {
        if (head === 0) continue;
        this.slots.push({ stack, member: m, isCover: m === stack.cover });
        this.slotOf[head] = this.slots.length;
        this.slotKey[head] = stack.key;
        this.slotRank[head] = m === stack.cover ? -1 : m.pos;
      }
    }
  }

  private compactSlots(): void {
    this.slots = [];
    this.deadSlots = 0;
    for (const stack of this.stacks.values()) this.addSlots(stack);
  }

  private grow(capacity: number): void {
    const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a);
      return b;
    };
    this.nonHead = grow(this.nonHead, (n) => new Uint8Array(n));
    this.extra = grow(this.extra, (n) => new Uint8Array(n));
    this.slotOf = grow(this.slotOf, (n) => new Int32Array(n));
    this.slotKey = grow(this.slotKey, (n) => new Int32Array(n));
    this.slotRank = grow(this.slotRank, (n) => new Int32Array(n));
  }
}

type StackRow = [number, number, number, number, number, number, number];

function maxRowid(db: Db): number {
  return (db.prepare('SELECT coalesce(max(rowid), 0) FROM assets').pluck().get() as number) ?? 0;
}
