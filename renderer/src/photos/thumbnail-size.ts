/**
 * Thumbnail size of the photo grid: the height rows aim at (timeline-layout.ts), in steps. A slider
 * in the page header on desktops (ThumbnailSizeSlider.tsx), a two-finger pinch on the grid on phones
 * (use-pinch-steps.ts). A size once chosen is remembered in localStorage, per browser (a phone and a
 * desktop each keep their own; a household shares devices rarely, and when it does the size is a
 * matter of the screen, not of the member).
 *
 * Decision: until someone chooses, the size follows the screen: narrower than PHONE_WIDTH it is a
 * step smaller than on a desktop, so a phone shows three photos across (as phone galleries do) and a
 * desktop five or six, and a window made narrow (or a tablet turned) follows.
 */
import { useCallback, useEffect, useState } from 'react';

/** Target row heights (px), smallest first. */
export const SIZE_STEPS = [72, 96, 128, 168, 220, 290] as const;
export const PHONE_WIDTH = 600;
const PHONE_STEP = 2;
const DESKTOP_STEP = 3;
const KEY = 'hearth.thumbnail-size';
const NARROW = `(max-width: ${PHONE_WIDTH - 1}px)`;

function stored(): number | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    const n = raw === null ? NaN : Number(raw);
    return Number.isInteger(n) && n >= 0 && n < SIZE_STEPS.length ? n : null;
  } catch {
    return null; // storage refused (private mode): the default, not a crash
  }
}

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

export function useThumbnailSize() {
  const [chosen, setChosen] = useState(stored);
  const narrow = useNarrow();
  const step = chosen ?? (narrow ? PHONE_STEP : DESKTOP_STEP);
  const setStep = useCallback(
    (next: number | ((s: number) => number)) => {
      const value = Math.min(SIZE_STEPS.length - 1, Math.max(0, typeof next === 'function' ? next(step) : next));
      try {
        window.localStorage.setItem(KEY, String(value));
      } catch {
        // not remembered, still applied
      }
      setChosen(value);
    },
    [step],
  );
  return { step, setStep, rowHeight: SIZE_STEPS[step]! };
}
