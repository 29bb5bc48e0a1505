/**
 * Whether the window is being flung through the timeline rather than read: true while it scrolls
 * faster than FAST_SCREENS_PER_S screens a second, and until it has been slow for SETTLE_MS and
 * SETTLE_FRAMES frames.
 *
 * The grid uses it the way phone galleries do: tiles that come into view during a fling show their
 * empty square and ask for no thumbnail, and those still on screen once the scroll settles load
 * theirs. At 4000 px/s a tile crosses the window in a fifth of a second, too short to see a photo,
 * yet each one cost an image request, a decode and a raster; on a 2-core machine without a GPU
 * that work kept the page's main thread busy nearly all the time (a trace of
 * `npm run bench:timeline`). Reading speed (a screen a second) stays under the threshold, so
 * photos load as they come into view.
 */
import { useEffect, useState } from 'react';

/** Faster than this many window heights a second is a fling. */
export const FAST_SCREENS_PER_S = 2.5;
/** How long the scroll must stay slow before thumbnails load. */
export const SETTLE_MS = 150;
/**
 * And for how many animation frames in a row no fast scroll may come. A fling moves the window in every
 * frame, so on a slow or busy device, whose frames can each take longer than SETTLE_MS, a timer
 * alone would call the fling over between two of its frames and load every tile passing by.
 */
export const SETTLE_FRAMES = 2;

export function useFastScroll(): boolean {
  const [fast, setFast] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    let lastT = performance.now();
    let isFast = false;
    /** When the last fast scroll came; whether one came since the last frame; frames in a row without one. */
    let lastFastT = 0;
    let fastThisFrame = false;
    let quietFrames = 0;
    let frame = 0;
    // Runs once a frame while flung (scroll events come before a frame's animation callbacks).
    const watch = () => {
      frame = 0;
      quietFrames = fastThisFrame ? 0 : quietFrames + 1;
      fastThisFrame = false;
      if (quietFrames >= SETTLE_FRAMES && performance.now() - lastFastT >= SETTLE_MS) {
        isFast = false;
        setFast(false);
        return;
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
      if (speed <= FAST_SCREENS_PER_S * window.innerHeight) return;
      lastFastT = t;
      fastThisFrame = true;
      if (!isFast) {
        isFast = true;
        quietFrames = 0;
        setFast(true);
      }
      if (!frame) frame = requestAnimationFrame(watch);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return fast;
}
