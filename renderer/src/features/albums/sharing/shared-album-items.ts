/**
 * In a shared album every photo carries who added it: the album listing's `added_by` becomes the
 * item's `owner`, which the tile shows as initials (PhotoTile, OwnerChip). An album nobody else is
 * in shows no initials (they would all be the owner's).
 */
import type { AlbumAsset } from '../albums-api';
import type { GalleryItem } from '../../../photos/library-api';

export function withAddedBy(items: GalleryItem[], assets: readonly AlbumAsset[], shared: boolean): GalleryItem[] {
  if (!shared) return items;
  const by = new Map(assets.map((a) => [a.asset_id, a.added_by]));
  return items.map((item) => {
    const person = by.get(item.media_item.primary_asset.asset_id);
    return person ? { ...item, media_item: { ...item.media_item, owner: person } } : item;
  });
}
