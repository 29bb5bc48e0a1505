/**
 * The connected components of an owner's "cosine ≥ threshold" face graph that are known so far, kept with the owner's
 * embeddings between incremental passes (owner-face-vectors.store.ts), so that a pass need not search its new faces'
 * components again: the search reads (component size) × (faces) pairs, 4 million for a person of 200 faces in a
 * library of 20,000, about 80 ms of the event loop inside the photo's write (scripts/bench/faces.ts, "incremental").
 *
 * Why a kept component stays exact. The invariant: every neighbour of a face of a known component is in that
 * component (a known component is closed). Hence a face whose component is not known has no neighbour in a known one,
 * and a search from it need only read faces whose component is not known either.
 * - Faces are only ever appended to the matrix (a removal reads everything again, with nothing known). Appending a
 *   face can only join components, never split them. `extend` compares each appended face with every earlier one:
 *   when all its neighbours are in known components, those and the face become one known component; when some
 *   neighbour's component is not known, the known components it touches are forgotten (their faces become unknown)
 *   and so is the face, which keeps the invariant without searching anything.
 * - `componentOf` searches an unknown face's component among the unknown faces only, and then knows it.
 * - `searchAhead` does those searches ahead of a write, for the faces a photo is about to add, outside the write and a slice
 *   at a time; a search that saw the matrix or the known components change while it ran is dropped, not kept.
 * - Components of more than `maxRows` faces are not clustered inside a write (faces.store.ts, INCREMENTAL_CLUSTER_MAX):
 *   a search stops once it has reached that many, and marks the faces it reached "large". A large face's component is
 *   large for good (appending only joins components), so a face that touches one is large too, at no search. Large
 *   faces are not closed like known components: searches read them as candidates, and stop on reaching one. In a
 *   synthetic library of 40,000 faces one component held 12,951 faces: searched whole, 10 s of work for each photo
 *   that joined it, only for the write to leave it to a rebuild.
 */
import { nextTurn } from '../../platform/cache/slices.ts';
import type { FaceMatrix } from './cluster-neighbours.ts';
import { ComponentScan, fillKernel, neighboursOf } from './component-search.ts';

/** Faces appended since the last pass above which `extend` forgets every component rather than compare them all. */
const EXTEND_MAX_FACES = 64;
/** The label of a face in a component of more than `maxRows` faces. */
const LARGE = -1;
/** Coming faces whose neighbours `searchAhead` keeps for `extend` (a photo's faces; older ones are dropped first). */
const NEAR_AHEAD_MAX = 256;
/** A label `search` gives its seeds while it lists the candidates (no component is numbered that high). */
const SEED = 0x7fffffff;

/** A face's embedding as a key: the write reads back the bytes the face indexer gave `searchAhead`. */
const embeddingKey = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');

export class FaceComponents {
  /** Row → its component's number; 0 while its component is not known; LARGE. */
  private label: Int32Array;
  /** Each known component's rows. */
  private readonly members = new Map<number, number[]>();
  /** Rows in the graph: rows appended past it are taken in by `extend`. */
  private rows: number;
  private next = 1;
  /** Bumped by every change: a `searchAhead` search that ran across one is dropped. */
  private version = 0;
  /** Pairs compared (tests, benches). */
  readonly counts = { extended: 0, searched: 0 };
  /**
   * The neighbours among rows below `upTo` of faces about to be appended, found by `searchAhead`, by embedding. Rows
   * below `upTo` never change, so `extend` need only compare such a face with the rows from `upTo` on: at 100,000
   * faces, the whole comparison is 20 ms a face inside the write (a group photo of six: 120 ms).
   */
  private readonly nearAhead = new Map<string, { upTo: number; near: number[] }>();

  /** The components of a matrix of `size` rows, none of them known yet. */
  constructor(
    private readonly threshold: number,
    size: number,
    /** The largest component worth searching whole (larger ones are marked large). */
    private readonly maxRows = Infinity,
  ) {
    this.rows = size;
    this.label = new Int32Array(Math.max(16, size));
  }

  /** The number of known components (tests). */
  get known(): number {
    return this.members.size;
  }

  /**
   * Takes in the rows appended to `m` since the last call: each compared with every earlier row (`maxPairs` at most
   * in all, else every component is forgotten instead, which costs nothing and keeps them exact).
   */
  extend(m: FaceMatrix, maxPairs = Infinity): void {
    const from = this.rows, to = m.size;
    if (to <= from) return;
    this.version++;
    this.grow(to);
    const cost = ((to - from) * (from + to - 1)) / 2;
    if (to - from > EXTEND_MAX_FACES || cost > maxPairs) {
      this.forgetAll(to);
      return;
    }
    for (let r = from; r < to; r++) {
      const near = this.neighboursBelow(m, r);
      this.rows = r + 1;
      const touched = new Set<number>();
      let unknown = false;
      let large = false;
      for (const j of near) {
        const l = this.label[j]!;
        if (l === LARGE) large = true;
        else if (l) touched.add(l);
        else unknown = true;
      }
      if (large) {
        // Its component, and every one it joins, is large now.
        for (const l of touched) this.markLarge(this.members.get(l)!);
        this.markLarge([r]);
      } else if (unknown) for (const l of touched) this.forget(l);
      else this.join(r, touched);
    }
  }

  /** The rows below `r` within the threshold of row `r`: those below a `searchAhead` for its embedding as it found them. */
  private neighboursBelow(m: FaceMatrix, r: number): number[] {
    const key = embeddingKey(m.row(r));
    const ahead = this.nearAhead.get(key);
    if (!ahead || ahead.upTo > r) {
      this.counts.extended += r;
      return neighboursOf(m, m.row(r), this.threshold, r, this);
    }
    this.nearAhead.delete(key);
    const near = [...ahead.near];
    // The same exact float64 sums as neighboursOf's (FaceMatrix.sim).
    for (let j = ahead.upTo; j < r; j++) if (m.sim(r, j) >= this.threshold) near.push(j);
    this.counts.extended += r - ahead.upTo;
    return near;
  }

  /**
   * The sorted rows of the components holding `seeds` (rows already taken in by `extend`), searching those not known
   * yet among the unknown faces; null when that search would compare more than `maxPairs` pairs (nothing is learnt)
   * or when they hold more than `maxRows` faces.
   *
   * Several unknown seeds are searched together, as one search from all of them: a photo of many new faces (a
   * thousand faces on one photo, in tests) costs nothing for the seeds among themselves that way. What that search
   * finds is a union of components that cannot be told apart without more work, so it is not learnt; a single unknown
   * seed's component is.
   */
  componentsOf(m: FaceMatrix, seeds: readonly number[], maxPairs = Infinity): number[] | null {
    if (seeds.some((s) => this.label[s] === LARGE)) return null;
    const out = new Set<number>();
    const unknown = seeds.filter((s) => !this.label[s]);
    if (unknown.length) {
      const scan = this.search(m, unknown, this.rows, maxPairs);
      scan.run();
      const found = scan.result();
      this.counts.searched += scan.pairs;
      if (scan.tooLarge && unknown.length === 1) this.markLarge(scan.reached());
      if (!found) return null;
      if (unknown.length === 1) this.learn(found);
      for (const r of found) out.add(r);
    }
    for (const s of seeds) if (this.label[s]) for (const r of this.members.get(this.label[s]!)!) out.add(r);
    if (out.size > this.maxRows) return null;
    return [...out].sort((a, b) => a - b);
  }

  /**
   * Ahead of a write that will add faces with these embeddings: searches the unknown components they will touch, a
   * slice of about `sliceMs` per turn of the event loop, so that the write finds them known. `current()` says whether
   * these components are still the owner's kept ones (a full read replaces them); a search across a change is dropped.
   */
  async searchAhead(m: FaceMatrix, probes: readonly Float32Array[], sliceMs: number, current: () => boolean): Promise<void> {
    const rows = Math.min(m.size, this.rows);
    // Any change but this search's own (a pass appended faces, learnt or forgot a component) ends it: `m` and `rows`
    // are the copy as it was.
    let version = this.version;
    let sliceEnd = performance.now() + sliceMs;
    const pause = async (): Promise<boolean> => {
      await nextTurn();
      sliceEnd = performance.now() + sliceMs;
      return current() && this.version === version;
    };
    // The rows the kernel does not hold yet (all of them after a full read), copied first and in slices: at 100,000
    // faces the first copy alone held one turn for 70 ms. These components are the kernel's lineage: their rows only
    // grow, so what is copied stays valid across the passes of an import.
    while (!fillKernel(m, this, sliceEnd)) {
      await nextTurn();
      if (!current()) return;
      sliceEnd = performance.now() + sliceMs;
    }
    for (const v of probes) {
      if (performance.now() >= sliceEnd && !(await pause())) return;
      const near = neighboursOf(m, v, this.threshold, rows, this);
      const key = embeddingKey(v);
      this.nearAhead.delete(key);
      this.nearAhead.set(key, { upTo: rows, near });
      if (this.nearAhead.size > NEAR_AHEAD_MAX) this.nearAhead.delete(this.nearAhead.keys().next().value!);
      for (const j of near) {
        // At 100,000 faces the neighbours alone took 20 ms, and a search's first step as long again.
        if (performance.now() >= sliceEnd && !(await pause())) return;
        if (this.label[j]) continue; // known, or large
        const scan = this.search(m, [j], rows, Infinity);
        // Listing the candidates took 11 ms at 100,000 faces, and the search's first step is 20 ms.
        if (performance.now() >= sliceEnd && !(await pause())) return;
        while (!scan.run(sliceEnd)) if (!(await pause())) return;
        this.counts.searched += scan.pairs;
        // Between the search's last slice and this, nothing ran: what it found is the component as it is now.
        if (scan.tooLarge) this.markLarge(scan.reached());
        else this.learn(scan.result()!);
        version = this.version;
      }
    }
  }

  /**
   * A search from unknown `seeds` among the rows below `upTo` not in a known component (unknown and large ones: a large
   * face may neighbour an unknown one), stopping at `maxRows` faces or at a large one.
   */
  private search(m: FaceMatrix, seeds: readonly number[], upTo: number, maxPairs: number): ComponentScan {
    const candidates = new Int32Array(upTo);
    let n = 0;
    const label = this.label;
    // The seeds are left out by a label no component has, for the time of the loop: a Set lookup for each of 100,000
    // rows was most of the 11 ms this took.
    const was = seeds.map((s) => label[s]!);
    for (const s of seeds) label[s] = SEED;
    for (let i = 0; i < upTo; i++) if (label[i]! <= 0) candidates[n++] = i;
    seeds.forEach((s, x) => (label[s] = was[x]!));
    const limits = { maxRows: this.maxRows, large: (row: number) => this.label[row] === LARGE };
    return new ComponentScan(m, seeds, candidates.subarray(0, n), this.threshold, maxPairs, this, limits);
  }

  /** Faces of a component found to hold more than `maxRows` faces (known ones among them no longer are). */
  private markLarge(rows: readonly number[]): void {
    this.version++;
    for (const r of rows) {
      const l = this.label[r]!;
      if (l > 0) this.members.delete(l);
      this.label[r] = LARGE;
    }
  }

  /** A component just searched becomes known. */
  private learn(rows: number[]): void {
    this.version++;
    const l = this.next++;
    for (const r of rows) this.label[r] = l;
    this.members.set(l, rows);
  }

  /** Row `r`, whose neighbours are all in the `touched` components, joins them into one. */
  private join(r: number, touched: Set<number>): void {
    let into = 0;
    for (const l of touched) if (!into || this.members.get(l)!.length > this.members.get(into)!.length) into = l;
    if (!into) {
      this.learn([r]);
      return;
    }
    const rows = this.members.get(into)!;
    for (const l of touched) {
      if (l === into) continue;
      for (const x of this.members.get(l)!) {
        this.label[x] = into;
        rows.push(x);
      }
      this.members.delete(l);
    }
    this.label[r] = into;
    rows.push(r);
  }

  private forget(l: number): void {
    for (const x of this.members.get(l) ?? []) this.label[x] = 0;
    this.members.delete(l);
  }

  private forgetAll(size: number): void {
    this.label.fill(0);
    this.members.clear();
    this.rows = size;
  }

  private grow(size: number): void {
    if (size <= this.label.length) return;
    const label = new Int32Array(Math.max(size, Math.ceil(this.label.length * 1.5)));
    label.set(this.label);
    this.label = label;
  }
}
