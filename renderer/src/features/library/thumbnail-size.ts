/**
 * Thumbnail size of the photo grid: the height rows aim at (timeline-layout.ts), in steps. A slider
 * in the page header on desktops (ThumbnailSizeSlider.tsx), a two-finger pinch on the grid on phones
 * (use-pinch-steps.ts). Remembered in localStorage, per browser (a phone and a desktop each keep
 * their own; a household shares devices rarely, and when it does the size is a matter of the screen,
 * not of the member).
 *
 * Decision: a screen narrower than PHONE_WIDTH starts a step smaller than a desktop, so a phone
 * shows three photos across by default (as phone galleries do) and a desktop five or six.
 */
import { useCallback, useState } from 'react';

/** Target row heights (px), smallest first. */
export const SIZE_STEPS = [72, 96, 128, 168, 220, 290] as const;
export const PHONE_WIDTH = 600;
const KEY = 'hearth.thumbnail-size';

function defaultStep(): number {
  const narrow = typeof window !== 'undefined' && window.innerWidth < PHONE_WIDTH;
  return narrow ? 2 : 3;
}

function stored(): number {
  try {
    const raw = window.localStorage.getItem(KEY);
    const n = raw === null ? NaN : Number(raw);
    return Number.isInteger(n) && n >= 0 && n < SIZE_STEPS.length ? n : defaultStep();
  } catch {
    return defaultStep(); // storage refused (private mode): the default, not a crash
  }
}

export function useThumbnailSize() {
  const [step, setStepState] = useState(stored);
  const setStep = useCallback((next: number | ((s: number) => number)) => {
    setStepState((s) => {
      const value = Math.min(SIZE_STEPS.length - 1, Math.max(0, typeof next === 'function' ? next(s) : next));
      try {
        window.localStorage.setItem(KEY, String(value));
      } catch {
        // not remembered, still applied
      }
      return value;
    });
  }, []);
  return { step, setStep, rowHeight: SIZE_STEPS[step]! };
}
