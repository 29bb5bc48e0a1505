/**
 * The second skip link: "Skip to photos" while a page shows a photo grid. The grid registers how to
 * focus itself (photos/use-grid-keys.ts) and the frame (AppLayout) shows the link only
 * while one is registered, so there is never a link that leads nowhere. With it, the first photo is
 * three key presses from the top of any page: Tab, Tab, Enter.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';

let current: (() => void) | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Registers `focus` (the grid's own) as the skip link's target while the calling component is mounted. */
export function useSkipTarget(focus: () => void): void {
  const latest = useRef(focus);
  useEffect(() => {
    latest.current = focus;
  });
  useEffect(() => {
    const target = () => latest.current();
    current = target;
    emit();
    return () => {
      if (current === target) {
        current = null;
        emit();
      }
    };
  }, []);
}

/** The registered target's focus function, or null (no grid on the page). */
export function useSkipTargetFocus(): (() => void) | null {
  return useSyncExternalStore(subscribe, () => current);
}
