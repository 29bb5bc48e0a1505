/**
 * An element's size on screen in CSS pixels, kept up to date as it changes (the window, a side panel opening
 * beside it); null until it is first measured. For layouts that depend on the room a component has, not on the
 * viewport: the Board's columns, the map's aspect.
 *
 * A size of zero (an element not laid out yet, or hidden) is not reported: a layout built for 0 px is never the
 * one wanted, so the last real size, or null, stays.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

export interface ElementSize {
  width: number;
  height: number;
}

export function useElementSize(ref: RefObject<Element | null>): ElementSize | null {
  const [size, setSize] = useState<ElementSize | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) return;
      // The same object while nothing changed, so a resize that keeps the size renders nothing.
      setSize((s) => (s && s.width === r.width && s.height === r.height ? s : { width: r.width, height: r.height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
