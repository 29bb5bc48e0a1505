/**
 * An element's width in CSS pixels, kept up to date as it changes (the window, a side panel opening beside it);
 * null until it is first measured. For layouts that depend on the room a component has, not on the viewport.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useElementWidth(ref: RefObject<Element | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.round(el.getBoundingClientRect().width));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
