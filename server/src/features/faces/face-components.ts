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
 * - `prepare` does those searches ahead of a write, for the faces a photo is about to add, outside the write and a slice
 *   at a time; a search that saw the matrix or the known components change while it ran is dropped, not kept.
 */
import { nextTurn } from '../../platform/cache/slices.ts';
import type { FaceMatrix } from './cluster-neighbours.ts';
import { ComponentScan, neighboursOf } from './component-search.ts';

/** Faces appended since the last pass above which `extend` forgets every component rather than compare them all. */
const EXTEND_MAX_FACES = 64;

export class FaceComponents {
  /** Row → its component's number; 0 while its component is not known. */
  private label: Int32Array;
  /** Each known component's rows. */
  private readonly members = new Map<number, number[]>();
  /** Rows in the graph: rows appended past it are taken in by `extend`. */
  private rows: number;
  private next = 1;
  /** Bumped by every change: a `prepare` search that ran across one is dropped. */
  private version = 0;
  /** Pairs compared (tests, benches). */
  readonly counts = { extended: 0, searched: 0 };

  /** The components of a matrix of `size` rows, none of them known yet. */
  constructor(
    private readonly threshold: number,
    size: number,
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
      const near = neighboursOf(m, m.row(r), this.threshold, r, true);
      this.counts.extended += r;
      this.rows = r + 1;
      const touched = new Set<number>();
      let unknown = false;
      for (const j of near) {
        const l = this.label[j]!;
        if (l) touched.add(l);
        else unknown = true;
      }
      if (unknown) for (const l of touched) this.forget(l);
      else this.join(r, touched);
    }
  }

  /**
   * The sorted rows of the components holding `seeds` (rows already taken in by `extend`), searching those not known
   * yet among the unknown faces; null when that search would compare more than `maxPairs` pairs (nothing is learnt).
   *
   * Several unknown seeds are searched together, as one search from all of them: a photo of many new faces (a
   * thousand faces on one photo, in tests) costs nothing for the seeds among themselves that way. What that search
   * finds is a union of components that cannot be told apart without more work, so it is not learnt; a single unknown
   * seed's component is.
   */
  componentsOf(m: FaceMatrix, seeds: readonly number[], maxPairs = Infinity): number[] | null {
    const out = new Set<number>();
    const unknown = seeds.filter((s) => !this.label[s]);
    if (unknown.length) {
      const scan = new ComponentScan(m, unknown, this.unknownRows(new Set(unknown)), this.threshold, maxPairs, true);
      scan.run();
      const found = scan.result();
      this.counts.searched += scan.pairs;
      if (!found) return null;
      if (unknown.length === 1) this.learn(found);
      for (const r of found) out.add(r);
    }
    for (const s of seeds) if (this.label[s]) for (const r of this.members.get(this.label[s]!)!) out.add(r);
    return [...out].sort((a, b) => a - b);
  }

  /**
   * Ahead of a write that will add faces with these embeddings: searches the unknown components they will touch, a
   * slice of about `sliceMs` per turn of the event loop, so that the write finds them known. `current()` says whether
   * these components are still the owner's kept ones (a full read replaces them); a search across a change is dropped.
   */
  async prepare(m: FaceMatrix, probes: readonly Float32Array[], sliceMs: number, current: () => boolean): Promise<void> {
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
    for (const v of probes) {
      if (performance.now() >= sliceEnd && !(await pause())) return;
      for (const j of neighboursOf(m, v, this.threshold, rows, true)) {
        if (this.label[j]) continue;
        const scan = new ComponentScan(m, [j], this.unknownRows(new Set([j]), rows), this.threshold, Infinity, true);
        while (!scan.run(sliceEnd)) if (!(await pause())) return;
        this.counts.searched += scan.pairs;
        // Between the search's last slice and this, nothing ran: what it found is the component as it is now.
        this.learn(scan.result()!);
        version = this.version;
      }
    }
  }

  /** The rows (below `upTo`) whose component is not known, `except` left out. */
  private unknownRows(except: Set<number>, upTo = this.rows): Int32Array {
    const out = new Int32Array(upTo);
    let n = 0;
    for (let i = 0; i < upTo; i++) if (!this.label[i] && !except.has(i)) out[n++] = i;
    return out.subarray(0, n);
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
