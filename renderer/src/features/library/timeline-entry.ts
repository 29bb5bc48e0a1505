/**
 * What the timeline lays out for a gallery item: its id and its own wall clock (lib/capture-time.ts),
 * null without a capture time, so an undated file goes under "No date" instead of the day it was
 * uploaded ("Today").
 *
 * best_ts_ms is taken_time when there is one (the server's `taken_time, else upload_time`), so the
 * wall clock is a sum, not a date parse per item: the grid reads this for 100k items.
 */
import type { EntryAccess } from './timeline-layout';
import type { GalleryItem } from './library-api';

export const GALLERY_ENTRY: EntryAccess<GalleryItem> = {
  id: (i) => i.id,
  ts: (i) => {
    const a = i.media_item.primary_asset;
    return a.taken_time === null ? null : i.best_ts_ms + (a.capture_offset_minutes ?? 0) * 60_000;
  },
};
