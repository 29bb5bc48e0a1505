/**
 * Whether the window is being flung through the timeline rather than read, decided from where the
 * window is at each frame (use-scroll-view.ts samples it once per frame, in the same callback that
 * moves the grid's rendered range). A fling begins when two frames in a row are further apart than
 * FAST_SCREENS_PER_S screens a second, and ends once the window has moved slower than
 * SLOW_SCREENS_PER_S, measured over at least SETTLE_MS and WINDOW_FRAMES frames, in SETTLE_FRAMES
 * frames in a row.
 *
 * The grid uses it the way phone galleries do: tiles that come into view during a fling show their
 * empty square and ask for no thumbnail, and those still on screen once the scroll settles load
 * theirs. At 4000 px/s a tile crosses the window in a fifth of a second, too short to see a photo,
 * yet each one cost an image request, a decode and a raster; on a 2-core machine without a GPU
 * that work kept the page's main thread busy nearly all the time (a trace of
 * `npm run bench:timeline`). Reading speed (a screen a second) stays under the threshold, so
 * photos load as they come into view.
 *
 * Why from frames, not from scroll events: a scroll event reports where the window went in an
 * earlier frame (a script or a smooth-scroll library moves it from requestAnimationFrame, after the
 * frame's scroll events) yet comes at this frame's time. On a busy device, where frames are of
 * uneven length, a short frame's move over a long frame's time read as a crawl: the start of a fling
 * was seen frames late and its end was seen in the middle of it, and each time every tile then
 * rendered asked for its thumbnail (CI: 100 and 115 thumbnails asked for during one fling, where
 * 0–5 is usual). A frame's position and its timestamp, read after the frame's scripts, belong
 * together; and the grid's range and this decision come from the same reading, so no render puts
 * tiles of a fling's frame in the page before the fling is known.
 *
 * The end is still measured over several frames, with a lower threshold to end than to begin: a
 * single long frame is not a stop. The first reading after a rest has no frame before it to measure
 * from: a long way from the rest holds thumbnails for that one frame (JUMP_SCREENS), and the next
 * frame tells a fling from a jump.
 */

/** Faster than this many window heights a second, between two frames in a row, begins a fling. */
export const FAST_SCREENS_PER_S = 2.5;
/** Slower than this many window heights a second, measured over the span below, ends it. */
export const SLOW_SCREENS_PER_S = 1;
/** The least time the end of a fling is measured over. */
export const SETTLE_MS = 150;
/** And the fewest frames it is measured over (a long frame alone is not a span). */
export const WINDOW_FRAMES = 3;
/** For how many frames in a row the window must be slow before thumbnails load. */
export const SETTLE_FRAMES = 2;
/**
 * Further than this many window heights at the first reading after a rest holds thumbnails for that frame. On a
 * slow device the first frames of a fling are long: by the first reading the window was a screen or more away,
 * and every tile of those rows asked for its thumbnail (CI: 45 of 289 tiles at 4x CPU throttling).
 */
export const JUMP_SCREENS = 0.25;

interface Sample {
  t: number;
  y: number;
}

export class FlingDetector {
  private fast = false;
  /** The last reading was the first after a rest and found the window far away (see `sample`). */
  private jumped = false;
  /** The previous frame's sample, when the window was sampled in the frame before this one. */
  private previous: Sample | null = null;
  /** While flung: where the window was at each frame since the span's start. */
  private samples: Sample[] = [];
  /** While flung: how many frames in a row the window has been slow. */
  private slowFrames = 0;

  get flung(): boolean {
    return this.fast;
  }

  /**
   * The window at `y` in the frame of timestamp `t`, with a window `screen` px high. `continued`:
   * the window was also sampled in the frame before (it was moving); otherwise this sample is only
   * where the next one is measured from, since the time the window took to get here is unknown.
   * Returns whether the window is flung now.
   */
  sample(t: number, y: number, screen: number, continued: boolean): boolean {
    const rested = this.previous;
    const previous = continued ? rested : null;
    this.previous = { t, y };
    if (!this.fast) {
      const wasJump = this.jumped;
      this.jumped = false;
      if (!previous) {
        // The first reading after the window rested: how long it took to get here is unknown, but a long way
        // (JUMP_SCREENS) in the frame or two since the rest is no reading pace. Held for this one frame; the
        // next says whether it was a fling (still moving fast) or a jump (still), which then loads at once.
        this.jumped = rested !== null && Math.abs(y - rested.y) > JUMP_SCREENS * screen;
        return this.jumped;
      }
      if (t <= previous.t) return wasJump;
      const speed = (Math.abs(y - previous.y) / (t - previous.t)) * 1000;
      if (speed <= FAST_SCREENS_PER_S * screen) return false;
      this.fast = true;
      this.samples = [previous, { t, y }];
      this.slowFrames = 0;
      return true;
    }
    this.samples.push({ t, y });
    // The newest frame at least SETTLE_MS and WINDOW_FRAMES frames back: the start of the span.
    for (let i = this.samples.length - 1 - WINDOW_FRAMES; i >= 0; i--) {
      const from = this.samples[i]!;
      if (t - from.t < SETTLE_MS) continue;
      this.samples = this.samples.slice(i);
      const speed = (Math.abs(y - from.y) / (t - from.t)) * 1000;
      this.slowFrames = speed < SLOW_SCREENS_PER_S * screen ? this.slowFrames + 1 : 0;
      if (this.slowFrames >= SETTLE_FRAMES) {
        this.fast = false;
        this.samples = [];
      }
      break;
    }
    return this.fast;
  }
}
