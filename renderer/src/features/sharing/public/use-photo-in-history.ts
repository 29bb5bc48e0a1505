/**
 * Which photo of the link is open, kept in the address (`#<photoId>`) so the browser's Back closes
 * the viewer (on a phone that is the natural gesture) and a reload shows the same photo. Stepping
 * to the next photo replaces the entry rather than adding one.
 */
import { useCallback, useEffect, useState } from 'react';

const fromHash = () => decodeURIComponent(window.location.hash.slice(1)) || null;

export function usePhotoInHistory(): [string | null, (photoId: string | null, replace?: boolean) => void] {
  const [open, setOpenState] = useState<string | null>(fromHash);
  useEffect(() => {
    const onPop = () => setOpenState(fromHash());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const setOpen = useCallback((photoId: string | null, replace = false) => {
    const here = window.location.pathname + window.location.search;
    if (photoId === null) {
      // Opened from the grid: going back is closing. Opened from an address with the photo in it: drop it.
      if (window.history.state?.hearthPhoto) window.history.back();
      else window.history.replaceState(null, '', here);
      setOpenState(null);
      return;
    }
    const url = `${here}#${encodeURIComponent(photoId)}`;
    if (replace || fromHash() !== null) window.history.replaceState(window.history.state, '', url);
    else window.history.pushState({ hearthPhoto: true }, '', url);
    setOpenState(photoId);
  }, []);
  return [open, setOpen];
}
