/**
 * Fills the shared layer's slots (photos/viewer-slots.tsx) from the features, once, before the app
 * renders. The grid's half is imported from the features' files themselves: it is drawn by the first
 * screen, and a feature's index.ts would bring the rest of its surface into the first script (its
 * budget: npm run bench:bundle). The viewer's half is its own script (viewer-slot-fills.ts), fetched
 * with the viewer or the selection bar.
 */
import { fillPhotoSlots } from '../photos/viewer-slots';
import { TileWhy } from '../features/search/TileWhy';
import { OwnerChip } from '../features/sharing/OwnerChip';
import { useUploadSettled } from '../features/upload/use-upload-settled';

export function fillAppPhotoSlots(): void {
  fillPhotoSlots({ OwnerChip, TileWhy, useUploadSettled }, () => import('./viewer-slot-fills').then((m) => m.viewerSlotFills));
}
