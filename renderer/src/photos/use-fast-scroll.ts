/**
 * Whether the window is being flung through the timeline rather than read: true from the first
 * scroll faster than FAST_SCREENS_PER_S screens a second until the window has moved slower than
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
 * Why the end of a fling is measured over several frames, not from one scroll event to the next: a
 * scroll event reports where the window went in the frame before it, yet comes at this frame's time.
 * On a busy device a short frame followed by a long one (the grid rendering new rows) reads as a crawl
 * (a 16 ms frame's distance over 300 ms), and twice in a row that ended the fling halfway: every tile
 * then on screen asked for its thumbnail (seen in CI: 100 thumbnails asked for during one fling, where
 * 0–5 is usual). Over several frames the lag is one frame among many, and the lower threshold to end
 * than to begin leaves room for the rest.
 */
import { useEffect, useState } from 'react';

/** Faster than this many window heights a second begins a fling. */
export const FAST_SCREENS_PER_S = 2.5;
/** Slower than this many window heights a second, measured over the span below, ends it. */
export const SLOW_SCREENS_PER_S = 1;
/** The least time the end of a fling is measured over. */
export const SETTLE_MS = 150;
/** And the fewest frames it is measured over (a long frame alone is not a span). */
export const WINDOW_FRAMES = 3;
/** For how many frames in a row the window must be slow before thumbnails load. */
export const SETTLE_FRAMES = 2;

interface Sample {
  t: number;
  y: number;
}

export function useFastScroll(): boolean {
  const [fast, setFast] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    let lastT = performance.now();
    let isFast = false;
    /** While flung: where the window was at each frame, and how many frames in a row it has been slow. */
    let samples: Sample[] = [];
    let slowFrames = 0;
    let frame = 0;
    const watch = (t: number) => {
      frame = 0;
      const y = window.scrollY;
      samples.push({ t, y });
      // The newest frame at least SETTLE_MS and WINDOW_FRAMES frames back: the start of the span.
      let from: Sample | undefined;
      for (let i = samples.length - 1 - WINDOW_FRAMES; i >= 0; i--) {
        const s = samples[i]!;
        if (t - s.t >= SETTLE_MS) {
          from = s;
          samples = samples.slice(i);
          break;
        }
      }
      if (from) {
        const speed = (Math.abs(y - from.y) / (t - from.t)) * 1000;
        slowFrames = speed < SLOW_SCREENS_PER_S * window.innerHeight ? slowFrames + 1 : 0;
        if (slowFrames >= SETTLE_FRAMES) {
          isFast = false;
          setFast(false);
          return;
        }
      }
      frame = requestAnimationFrame(watch);
    };
    const onScroll = () => {
      const t = performance.now();
      const y = window.scrollY;
      const dt = t - lastT;
      // Two scroll events in one frame say nothing about speed: wait for the next frame's.
      if (dt < 4) return;
      const speed = (Math.abs(y - lastY) / dt) * 1000;
      lastY = y;
      lastT = t;
      if (isFast || speed <= FAST_SCREENS_PER_S * window.innerHeight) return;
      isFast = true;
      samples = [{ t, y }];
      slowFrames = 0;
      setFast(true);
      frame = requestAnimationFrame(watch);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return fast;
}
