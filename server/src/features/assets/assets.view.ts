/**
 * The public shape of an asset (contract: Asset, asset detail).
 *
 * `species_predictions` and `stack` come from other tables: a list of assets fills them in bulk with
 * `loadAssetExtras` (two queries for a whole page) and passes each asset's extras to `toAsset`;
 * without extras they are `[]` and `null`.
 */
import { FaceResultSchema } from '../faces/index.ts';
import { z } from '@hono/zod-openapi';
import type { AssetRow, AssetsStore } from './assets.store.ts';
import { displayFileName } from '../../platform/http/display-names.ts';
import { OcrResultSchema } from '../ocr/index.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const SpeciesPredictionSchema = z.object({ label: z.string(), score: z.number() }).openapi('SpeciesPrediction');

export const AssetStackSchema = z
  .object({
    stack_cover: z.boolean().openapi({ description: "Whether this asset's media item is the stack's cover." }),
    stack_id: z.string(),
    stack_kind: z.string().openapi({ example: 'burst' }),
    stack_size: z.number().int().openapi({ description: 'Media items in the stack.' }),
  })
  .openapi('AssetStackRef');

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
    time_source: z.enum(['file', 'container', 'file_modified', 'user', 'source']).nullable().openapi({
      description:
        'Where taken_time comes from: `source` (what the source that brought the file said, e.g. an importer\'s record: shown only where a source gave a capture time), `file` (a photo\'s EXIF/XMP), `container` (a video\'s or audio file\'s container), `file_modified` (the file\'s modification time: a guess to check), `user` (a person\'s correction, which wins over every other source); null without a date.',
    }),
    place_source: z.enum(['file', 'user']).nullable().openapi({
      description: 'Where the position comes from: `file` (its GPS, or the position the source that brought the file gave) or `user` (a person set it, or cleared it when the position is null); null without a position.',
    }),
    upload_time: z.string(),
    gps_latitude: z.number().nullable(),
    gps_longitude: z.number().nullable(),
    liked: z.boolean(),
    rating: z.number().int(),
    description: z.string().nullable(),
    is_deleted: z.boolean(),
    deleted_at: z.string().nullable(),
    content_id: z.string().nullable(),
    status: z.array(z.number().int()).openapi({ description: 'Completed processing steps and failure codes; see features/assets/pipeline/status-codes.ts.' }),
    state: z.enum(['pending', 'processing', 'ready', 'failed']),
    last_error: z.string().nullable(),
    media_item_id: z.string().nullable(),
    species_predictions: z
      .array(SpeciesPredictionSchema)
      .openapi({ description: 'Species recognised in a photo (BioCLIP), best score first; empty when none were recognised.' }),
    specific_metadata: z.record(z.string(), z.unknown()).nullable(),
    stack: AssetStackSchema.nullable().openapi({ description: "The stack the asset's media item belongs to; null when it is not stacked." }),
  })
  .openapi('Asset');
export type Asset = z.infer<typeof AssetSchema>;
export type AssetStack = z.infer<typeof AssetStackSchema>;
export type SpeciesPrediction = z.infer<typeof SpeciesPredictionSchema>;

export interface AssetExtras {
  species_predictions?: SpeciesPrediction[];
  stack?: AssetStack | null;
}

/** Species predictions and stacks of many assets in two queries (for lists and the detail). */
export function loadAssetExtras(store: Pick<AssetsStore, 'species' | 'stacks'>, assetIds: string[]): Map<string, AssetExtras> {
  const out = new Map<string, AssetExtras>(assetIds.map((id) => [id, { species_predictions: [], stack: null }]));
  for (const s of store.species(assetIds)) out.get(s.asset_id)?.species_predictions?.push({ label: s.label, score: s.score });
  for (const s of store.stacks(assetIds)) {
    const e = out.get(s.asset_id);
    if (e) e.stack = { stack_cover: s.is_cover === 1, stack_id: s.stack_id, stack_kind: s.stack_kind, stack_size: s.stack_size };
  }
  return out;
}

/**
 * The columns an Asset is made from: every column but the raw EXIF and the pHash recipe, which no answer shows. A
 * page of the timeline reads only these (browse.store.ts PAGE_COLUMNS) and hands its rows here as they are.
 */
export type AssetViewRow = Omit<AssetRow, 'exif_raw' | 'phash_windows' | 'phash_version'>;

export function toAsset(r: AssetViewRow, extras: AssetExtras = {}): Asset {
  const folder = r.storage_path.includes('/') ? r.storage_path.slice(0, r.storage_path.lastIndexOf('/')) : '';
  return {
    asset_id: r.asset_id,
    owner_id: r.owner_id,
    repository_id: r.repository_id,
    type: r.type,
    original_filename: displayFileName(r.original_filename),
    folder_path: folder,
    mime_type: r.mime_type,
    file_size: r.file_size,
    hash: r.hash,
    width: r.width,
    height: r.height,
    duration: r.duration,
    taken_time: iso(r.taken_time),
    capture_offset_minutes: r.capture_offset_minutes,
    time_source: r.time_source ?? null,
    place_source: r.place_source ?? null,
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
    species_predictions: extras.species_predictions ?? [],
    specific_metadata: r.specific_metadata ? (JSON.parse(r.specific_metadata) as Record<string, unknown>) : null,
    stack: extras.stack ?? null,
  };
}

export const TagLinkSchema = z
  .object({
    tag_id: z.number().int(),
    tag_name: z.string(),
    source: z.string().openapi({ description: '`manual`, `zeroshot`, `bioclip` or `metadata` (IPTC/XMP keywords).' }),
    confidence: z.number(),
  })
  .openapi({ description: 'Tag link (same shape as `TagLink` of the tag operations).' });

export const AssetAlbumSchema = z
  .object({ added_time: z.string(), album_id: z.number().int(), album_name: z.string(), position: z.number().int() })
  .openapi('AssetAlbum');

export const ThumbnailRefSchema = z
  .object({ thumbnail_id: z.string(), size: z.string(), mime_type: z.string(), storage_path: z.string().openapi({ description: 'The URL of the thumbnail.' }) })
  .openapi('ThumbnailRef');

export const AssetPlaceSchema = z
  .object({
    city: z.string().nullable().openapi({ description: 'The town within 50 km (null farther out: region and country only).' }),
    region: z.string().nullable(),
    country: z.string(),
    country_code: z.string().openapi({ description: 'ISO 3166-1 alpha-2.' }),
    geohash: z.string().openapi({ description: 'The geohash-7 cell (~150 m) of the position.' }),
  })
  .openapi('AssetPlace');
export type AssetPlace = z.infer<typeof AssetPlaceSchema>;

/** What the file itself says of when and where (features/assets/fact-precedence.ts): what a restore brings back. */
export const FileCaptureSchema = z
  .object({
    taken_time: z.string().nullable(),
    capture_offset_minutes: z.number().int().nullable(),
    time_source: z.enum(['file', 'container', 'file_modified']).nullable(),
    gps_latitude: z.number().nullable(),
    gps_longitude: z.number().nullable(),
  })
  .openapi('FileCapture', { description: "The file's own capture time (its metadata's, else its modification time) and position, whatever a person corrected." });

export function fileCapture(r: AssetRow): z.infer<typeof FileCaptureSchema> {
  return {
    taken_time: iso(r.file_taken_time ?? null),
    capture_offset_minutes: r.file_capture_offset_minutes ?? null,
    time_source: r.file_time_source ?? null,
    gps_latitude: r.file_gps_latitude ?? null,
    gps_longitude: r.file_gps_longitude ?? null,
  };
}

/** getAsset: the asset plus what its include flags ask for (absent when a flag is false). */
export const AssetDetailSchema = AssetSchema.extend({
  thumbnails: z.array(ThumbnailRefSchema).optional(),
  tags: z.array(TagLinkSchema).optional(),
  albums: z.array(AssetAlbumSchema).optional(),
  species_predictions: z
    .array(SpeciesPredictionSchema)
    .optional()
    .openapi({ description: 'Best score first; absent when include_species=false.' }),
  ocr_result: OcrResultSchema.nullable()
    .optional()
    .openapi({ description: 'The text OCR read in the photo, lines in reading order; null while OCR has not read it (no model, queued, a video). Absent when include_ocr=false.' }),
  place: AssetPlaceSchema.nullable().openapi({
    description: 'Where the photo was taken, by name (the offline GeoNames gazetteer): null without a position, for (0, 0), far from any town (open sea), or while the name is still being looked up (a moment after processing).',
  }),
  file_capture: FileCaptureSchema,
  face_result: FaceResultSchema.nullable().optional().openapi({ description: 'The faces found in the photo (boxes normalised 0..1) with their person; null while the face task has not read it.' }),
}).openapi('AssetDetail');

export const MediaItemSchema = z
  .object({
    media_item_id: z.string(),
    media_kind: z.string().openapi({ description: '`photo`, `video`, `audio` or `live_photo`.' }),
    primary_asset_id: z.string(),
    components: z.array(
      z.object({
        asset_id: z.string(),
        position: z.number().int(),
        relation: z.string().openapi({ description: '`original`, `jpeg_original`, `raw_original`, `live_photo_still`, `live_photo_video`, …' }),
      }),
    ),
  })
  .openapi('MediaItem');

export { iso as isoTime };
