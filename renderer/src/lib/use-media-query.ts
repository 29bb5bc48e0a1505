/** Whether a CSS media query matches now, kept current as it changes (a tablet docked to a mouse, a window resized). */
import { useEffect, useState } from 'react';

export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setMatches(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

/**
 * A device whose main pointer is a finger and that cannot hover: a phone or a tablet, where nothing is
 * dragged from a file manager onto the page, so "drop here" would promise what cannot be done.
 */
export const TOUCH_ONLY = '(hover: none) and (pointer: coarse)';
