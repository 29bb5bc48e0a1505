/**
 * A faster boundary search for busboy's multipart parser.
 *
 * Why: busboy finds part boundaries with streamsearch, a Boyer-Moore-Horspool loop written in
 * JavaScript. In CPU profiles of 1 GiB uploads it was the largest single cost of the request path
 * (about 1–2 s of main-thread time per GiB on these machines, more than hashing with native BLAKE3).
 * `Buffer.indexOf` does the same search in C++ (about 3× faster on random bytes, far more on
 * uniform ones). Everything else of busboy (part headers, limits, charsets, errors) is kept.
 *
 * How: `BoundarySearch` has streamsearch's interface and calls busboy's callback with the same
 * arguments in the same order (tested against streamsearch on random splits,
 * test/server/uploads/boundary-search.test.ts). `installBoundarySearch` swaps it into a busboy
 * multipart parser, carrying over what streamsearch already holds (busboy writes a CRLF into it
 * when it is made). It touches busboy's internals (`_bparser`), so it checks their shape first and
 * leaves busboy as it is when they differ (another busboy version): slower, never wrong.
 */

type MatchCallback = (isMatch: boolean, data: Buffer | undefined, start: number, end: number, isDataSafe: boolean) => void;

/** streamsearch's fields that busboy's parser relies on (and that we read to take over). */
interface StreamSearchLike {
  _cb: MatchCallback;
  _needle: Buffer;
  _lookbehind: Buffer;
  _lookbehindSize: number;
  push(chunk: Buffer, pos?: number): number;
  destroy(): void;
}

export class BoundarySearch {
  matches = 0;
  private readonly lookbehind: Buffer;
  private lookbehindSize = 0;
  private readonly anchor: Buffer;

  constructor(
    private readonly needle: Buffer,
    private readonly cb: MatchCallback,
  ) {
    if (needle.length < 2) throw new Error('boundary needle too short');
    this.lookbehind = Buffer.allocUnsafe(needle.length);
    this.anchor = needle.subarray(0, 2);
  }

  /** Starts with `pending` bytes that may be the beginning of a boundary (what the parser held). */
  preload(pending: Buffer): void {
    pending.copy(this.lookbehind, 0);
    this.lookbehindSize = pending.length;
  }

  push(chunk: Buffer, pos = 0): number {
    const len = chunk.length;
    let at = pos;
    while (at !== len) at = this.feed(chunk, at);
    return len;
  }

  /** Flushes held bytes as data (end of input). */
  destroy(): void {
    if (this.lookbehindSize) this.cb(false, this.lookbehind, 0, this.lookbehindSize, false);
    this.lookbehindSize = 0;
    this.matches = 0;
  }

  /**
   * The first full match at or after `from`, or -1. Looks for the needle's first two bytes (CR LF
   * for busboy's boundaries, rare in media files) with a two-byte `indexOf`, which is a memchr
   * scan, and compares the rest at each hit: several times faster than `indexOf(needle)` on random
   * bytes. Where the pair is frequent (text with many line breaks) it hands over to
   * `indexOf(needle)`, so crafted input costs no more than that.
   */
  private find(data: Buffer, from: number): number {
    const n = this.needle.length;
    let misses = 0;
    for (let p = data.indexOf(this.anchor, from); p !== -1; p = data.indexOf(this.anchor, p + 1)) {
      if (p + n > data.length) return -1; // no full match fits any more (the tail is the caller's)
      if (data.compare(this.needle, 0, n, p, p + n) === 0) return p;
      if (++misses > 32 && misses * 256 > p - from) return data.indexOf(this.needle, p + 1);
    }
    return -1;
  }

  /** One step: up to the next match (returns the position after it) or to the end of `data`. */
  private feed(data: Buffer, bufPos: number): number {
    const needle = this.needle;
    const n = needle.length;
    const len = data.length;
    if (this.lookbehindSize > 0) {
      // A match may start in the held bytes and continue in this chunk.
      const lb = this.lookbehindSize;
      const take = Math.min(len - bufPos, n - 1);
      const combined = Buffer.allocUnsafe(lb + take);
      this.lookbehind.copy(combined, 0, 0, lb);
      data.copy(combined, lb, bufPos, bufPos + take);
      const hit = combined.indexOf(needle);
      if (hit !== -1 && hit < lb) {
        this.lookbehindSize = 0;
        this.matches++;
        if (hit > 0) this.cb(true, this.lookbehind, 0, hit, false);
        else this.cb(true, undefined, 0, 0, true);
        return bufPos + (hit + n - lb);
      }
      // No match starts in the held bytes. Those that may still begin one (the chunk is too short
      // to tell) are kept; the others are data.
      let keep = lb;
      for (let s = Math.max(0, combined.length - n + 1); s < lb; s++) {
        if (isPrefix(needle, combined, s)) {
          keep = s;
          break;
        }
      }
      if (keep < lb) {
        if (keep > 0) this.cb(false, this.lookbehind, 0, keep, false);
        // Only possible when the whole chunk joined the held bytes (it is shorter than the boundary).
        const rest = combined.subarray(keep);
        rest.copy(this.lookbehind, 0);
        this.lookbehindSize = rest.length;
        return len;
      }
      this.cb(false, this.lookbehind, 0, lb, false);
      this.lookbehindSize = 0;
    }
    const hit = this.find(data, bufPos);
    if (hit !== -1) {
      this.matches++;
      if (hit > 0) this.cb(true, data, bufPos, hit, true);
      else this.cb(true, undefined, 0, 0, true);
      return hit + n;
    }
    // No match: keep a tail that may be the start of a boundary split across chunks.
    let tail = len;
    const first = needle[0]!;
    for (let p = data.indexOf(first, Math.max(bufPos, len - n + 1)); p !== -1 && p < len; p = data.indexOf(first, p + 1)) {
      if (isPrefix(needle, data, p)) {
        tail = p;
        break;
      }
    }
    if (tail > 0) this.cb(false, data, bufPos, tail, true);
    if (tail < len) {
      data.copy(this.lookbehind, 0, tail, len);
      this.lookbehindSize = len - tail;
    }
    return len;
  }
}

/** Is data[from..] (all of it) the beginning of the needle? */
function isPrefix(needle: Buffer, data: Buffer, from: number): boolean {
  const n = data.length - from;
  if (n >= needle.length) return false;
  return data.compare(needle, 0, n, from, data.length) === 0;
}

/** Whether `parser` looks like busboy 1.x's multipart parser holding a streamsearch instance. */
function searchOf(parser: unknown): StreamSearchLike | null {
  const s = (parser as { _bparser?: unknown } | null)?._bparser as Partial<StreamSearchLike> | undefined;
  if (!s || typeof s !== 'object') return null;
  if (typeof s._cb !== 'function' || !Buffer.isBuffer(s._needle) || !Buffer.isBuffer(s._lookbehind)) return null;
  if (typeof s._lookbehindSize !== 'number' || typeof s.push !== 'function' || typeof s.destroy !== 'function') return null;
  return s as StreamSearchLike;
}

/**
 * Puts a BoundarySearch into busboy's multipart parser in place of streamsearch. Returns false (and
 * changes nothing) when the parser is not what this was written for.
 */
export function installBoundarySearch(parser: unknown): boolean {
  const old = searchOf(parser);
  if (!old || old._needle.length < 2) return false;
  const fast = new BoundarySearch(old._needle, old._cb);
  fast.preload(old._lookbehind.subarray(0, old._lookbehindSize));
  (parser as { _bparser: unknown })._bparser = fast;
  return true;
}
