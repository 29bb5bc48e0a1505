/**
 * `useUploadSettled` for pages that only want to hear of finished uploads (the timeline refreshes).
 * The upload queue is fetched as its own script after the page shows (it is a large module and the
 * Photos page is the first screen; see lib/lazy-page.ts), then created as before, so uploads left
 * unfinished by a closed tab still resume when Photos opens.
 */
import { useEffect } from 'react';
import { useMe } from '../../api/use-me';
import type { UploadItem } from './upload-queue';

/** Calls `onSettled` whenever an upload of this account reaches its final state (done, duplicate, failed). */
export function useUploadSettled(onSettled: (item: UploadItem) => void): void {
  const userId = useMe()?.user_id;
  useEffect(() => {
    if (userId === undefined) return;
    let live = true;
    let off: (() => void) | undefined;
    void import('./upload-queue').then(({ uploadQueue }) => {
      if (live) off = uploadQueue(userId).onSettled(onSettled);
    });
    return () => {
      live = false;
      off?.();
    };
  }, [userId, onSettled]);
}
