/** The public shape of an asset (contract: Asset, asset detail). */
import { z } from '@hono/zod-openapi';
import type { AssetRow } from './assets.store.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const AssetSchema = z
  .object({
    asset_id: z.string(),
    owner_id: z.number().int(),
    repository_id: z.string(),
    type: z.enum(['PHOTO', 'VIDEO', 'AUDIO']),
    original_filename: z.string(),
    folder_path: z.string().openapi({ description: 'Repository-relative folder of the file.' }),
    mime_type: z.string(),
    file_size: z.number().int(),
    hash: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    duration: z.number().nullable(),
    taken_time: z.string().nullable(),
    capture_offset_minutes: z.number().int().nullable(),
    upload_time: z.string(),
    gps_latitude: z.number().nullable(),
    gps_longitude: z.number().nullable(),
    liked: z.boolean(),
    rating: z.number().int(),
    description: z.string().nullable(),
    is_deleted: z.boolean(),
    deleted_at: z.string().nullable(),
    content_id: z.string().nullable(),
    status: z.array(z.number().int()).openapi({ description: 'Completed processing steps and failure codes; see features/assets/status-codes.ts.' }),
    state: z.enum(['pending', 'processing', 'ready', 'failed']),
    last_error: z.string().nullable(),
    media_item_id: z.string().nullable(),
    species_predictions: z.array(z.object({ label: z.string(), score: z.number() })),
    specific_metadata: z.record(z.string(), z.unknown()).nullable(),
    stack: z.object({ stack_cover: z.boolean(), stack_id: z.string(), stack_kind: z.string(), stack_size: z.number().int() }).nullable(),
  })
  .openapi('Asset');
export type Asset = z.infer<typeof AssetSchema>;

export function toAsset(r: AssetRow): Asset {
  const folder = r.storage_path.includes('/') ? r.storage_path.slice(0, r.storage_path.lastIndexOf('/')) : '';
  return {
    asset_id: r.asset_id,
    owner_id: r.owner_id,
    repository_id: r.repository_id,
    type: r.type,
    original_filename: r.original_filename,
    folder_path: folder,
    mime_type: r.mime_type,
    file_size: r.file_size,
    hash: r.hash,
    width: r.width,
    height: r.height,
    duration: r.duration,
    taken_time: iso(r.taken_time),
    capture_offset_minutes: r.capture_offset_minutes,
    upload_time: iso(r.upload_time)!,
    gps_latitude: r.gps_latitude,
    gps_longitude: r.gps_longitude,
    liked: r.liked === 1,
    rating: r.rating,
    description: r.description,
    is_deleted: r.is_deleted === 1,
    deleted_at: iso(r.deleted_at),
    content_id: r.content_id,
    status: JSON.parse(r.status) as number[],
    state: r.state,
    last_error: r.last_error,
    media_item_id: r.media_item_id,
    species_predictions: [],
    specific_metadata: r.specific_metadata ? (JSON.parse(r.specific_metadata) as Record<string, unknown>) : null,
    stack: null,
  };
}
