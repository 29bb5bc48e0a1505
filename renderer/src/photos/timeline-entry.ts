/**
 * What the timeline lays out for a gallery item: its id and its own wall clock (lib/capture-time.ts),
 * null without a capture time, so an undated file goes under "No date" instead of the day it was
 * uploaded ("Today").
 *
 * best_ts_ms is taken_time when there is one (the server's `taken_time, else upload_time`), so the
 * wall clock is a sum, not a date parse per item: the grid reads this for 100k items.
 *
 * The aspect ratio comes from the listing's width and height (null until processed: square).
 *
 * Typed by the fields it reads (a GalleryItem has them), so unit tests can import it without the API client.
 */
import type { EntryAccess } from './timeline-layout.ts';

export interface DatedItem {
  id: string;
  best_ts_ms: number;
  media_item: { primary_asset: { taken_time: string | null; capture_offset_minutes: number | null; width?: number | null; height?: number | null } };
}

export const GALLERY_ENTRY: EntryAccess<DatedItem> = {
  id: (i) => i.id,
  ts: (i) => {
    const a = i.media_item.primary_asset;
    return a.taken_time === null ? null : i.best_ts_ms + (a.capture_offset_minutes ?? 0) * 60_000;
  },
  // The catalog's width and height are the displayed size (orientation applied at ingest:
  // adapters/media/photo-metadata.ts), so a portrait phone photo is taller than wide here too.
  ratio: (i) => {
    const { width, height } = i.media_item.primary_asset;
    return width && height ? width / height : null;
  },
};
