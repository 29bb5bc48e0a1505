/**
 * Thumbnails known to have failed, per asset id and size, for this tab's session: once one fails
 * to load with a good token, no tile, strip or viewer asks for it again (issue 12 saw 48 requests
 * for one damaged photo while scrolling: every tile the virtualised grid made again asked anew). The
 * server also lets the browser keep a failed asset's 404 (thumbnail_failed, a few minutes).
 *
 * Forgotten when someone else signs in, and per asset when the page sees it being processed again
 * (PhotoTile), so a photo that then succeeds shows its thumbnail. Decision: an image that failed for
 * another reason (the server was restarting) also stays a placeholder until the page is reloaded;
 * an <img> cannot tell why it failed, and asking again is what this is here to prevent.
 */
import { session } from '../api/session';

const failed = new Set<string>();
const keyOf = (assetId: string, size: string) => `${assetId}:${size}`;

session.onUserChange((user, previous) => {
  if (!user || (previous && previous.user_id !== user.user_id)) failed.clear();
});

export const failedThumbnails = {
  has: (assetId: string, size: string): boolean => failed.has(keyOf(assetId, size)),
  add: (assetId: string, size: string): void => void failed.add(keyOf(assetId, size)),
  /** The asset is being processed again: its thumbnails may come. */
  forget(assetId: string): void {
    for (const size of ['small', 'medium', 'large']) failed.delete(keyOf(assetId, size));
  },
};
