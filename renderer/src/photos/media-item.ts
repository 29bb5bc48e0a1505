/**
 * The files behind one gallery item (getAssetMediaItem): a live photo's motion clip and a RAW+JPEG
 * pair's RAW. The grid shows the item through its primary asset (the still, the JPEG); the viewer and
 * the tile's hover play ask for the rest only when they need it, under one cache entry per asset.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { request } from '../api/problem';
import type { GalleryItem } from './library-api';

export const mediaItemKeys = {
  of: (assetId: string) => ['media-item', assetId] as const,
};

/** A live photo with its motion: an Apple pair (still + clip) or a motion photo (clip inside the still). */
export const isLive = (item: GalleryItem) => item.media_item.media_kind === 'live_photo' && item.media_item.composition.has_live_motion;

/** A RAW with a developed companion (a RAW+JPEG pair), or a RAW alone. */
export const hasRaw = (item: GalleryItem) => item.media_item.composition.has_raw;

export interface MediaItemFiles {
  /** The asset whose web video is the motion: the pair's clip, or the motion photo itself. Null: no motion. */
  motionAssetId: string | null;
  /** The RAW file's asset, when the item has one. */
  rawAssetId: string | null;
}

export function useMediaItemFiles(assetId: string, enabled: boolean) {
  return useQuery({
    queryKey: mediaItemKeys.of(assetId),
    enabled,
    // Components change only when files are added or removed: no need to ask again while browsing.
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }): Promise<MediaItemFiles> => {
      const res = await request(api.GET('/api/v1/assets/{id}/media-item', { params: { path: { id: assetId } }, signal }));
      const mi = res.media_item;
      if (!mi) return { motionAssetId: null, rawAssetId: null };
      const of = (relation: string) => mi.components.find((c) => c.relation === relation)?.asset_id ?? null;
      // A motion photo carries its clip inside the still: its own web video is the motion.
      const motion = of('live_photo_video') ?? (mi.media_kind === 'live_photo' ? of('live_photo_still') : null);
      return { motionAssetId: motion, rawAssetId: of('raw_original') };
    },
  });
}
