/**
 * One asset with its tags and albums (getAsset). The details panel and the viewer (showing a stack
 * member that is not a row of the list) share it, under one cache entry per asset.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { request } from '../api/problem';
import { assetKeys } from './asset-actions-api';

export function useAssetDetail(assetId: string, enabled = true) {
  return useQuery({
    queryKey: assetKeys.detail(assetId),
    enabled,
    queryFn: ({ signal }) =>
      request(api.GET('/api/v1/assets/{id}', { params: { path: { id: assetId }, query: { include_tags: 'true', include_albums: 'true' } }, signal })),
  });
}
