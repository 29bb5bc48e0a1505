/**
 * The part of the grid in the window, in grid coordinates, and whether the window is being flung
 * (fling-detector.ts). Both come from one reading per frame, in one requestAnimationFrame callback,
 * and reach React as one state: the render that brings a fling's rows into range already knows it
 * is a fling, so none of those tiles asks for its thumbnail.
 *
 * While the window moves (or is flung) the window is read in every frame, each frame asking for the
 * next: the fling's speed is measured between frames in a row. Once a frame finds the window where
 * the previous one left it, reading stops until the next scroll or resize event; that event's first
 * reading is only where the next is measured from.
 *
 * The range's top moves in steps of an eighth of the window (the overscan covers the difference),
 * so that a scroll renders the grid a few times per screenful rather than in every frame.
 */
import { useEffect, useState } from 'react';
import { FlingDetector } from './fling-detector';

export interface ScrollView {
  /** The grid's coordinates at the window's top and bottom, in steps (see above). */
  top: number;
  bottom: number;
  /** The window is being flung: tiles coming into view ask for no thumbnail yet. */
  fast: boolean;
}

export function useScrollView(ref: React.RefObject<HTMLElement | null>): ScrollView {
  const [view, setView] = useState<ScrollView>(() => ({ top: 0, bottom: typeof window === 'undefined' ? 1000 : window.innerHeight, fast: false }));
  useEffect(() => {
    const fling = new FlingDetector();
    let frame = 0;
    /** The frame asked for follows one in which the window was read (it was moving then). */
    let chained = false;
    let lastY: number | null = null;
    const read = (t: number) => {
      frame = 0;
      const el = ref.current;
      if (!el) return;
      const y = window.scrollY;
      const h = window.innerHeight;
      const fast = fling.sample(t, y, h, chained);
      const moved = lastY !== null && y !== lastY;
      lastY = y;
      const step = Math.max(40, Math.round(h / 8));
      const top = Math.floor(-el.getBoundingClientRect().top / step) * step; // grid top relative to the viewport
      const bottom = top + h + step;
      setView((v) => (v.top === top && v.bottom === bottom && v.fast === fast ? v : { top, bottom, fast }));
      chained = moved || fast;
      if (chained) frame = requestAnimationFrame(read);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read(performance.now());
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return view;
}
