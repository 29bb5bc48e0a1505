/** React access to the upload queue of the signed-in account. */
import { useEffect, useSyncExternalStore } from 'react';
import { useMe } from '../../api/use-me';
import { uploadQueue, type UploadItem, type UploadQueue } from './upload-queue';

const NO_ITEMS: UploadItem[] = [];
const noop = () => () => undefined;

function useQueue(): UploadQueue | null {
  const me = useMe();
  return me ? uploadQueue(me.user_id) : null;
}

export function useUploads() {
  const queue = useQueue();
  const items = useSyncExternalStore(queue?.subscribe ?? noop, queue?.getSnapshot ?? (() => NO_ITEMS));
  return { queue, items };
}

/** Calls `onSettled` whenever an upload of this account reaches its final state (done, duplicate, failed). */
export function useUploadSettled(onSettled: (item: UploadItem) => void): void {
  const queue = useQueue();
  useEffect(() => queue?.onSettled(onSettled), [queue, onSettled]);
}
