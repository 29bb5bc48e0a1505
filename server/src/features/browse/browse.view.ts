/**
 * The public shapes of the unified list (contract: gallery item, media item, composition, gallery
 * list response). A gallery item is one logical media item, shown through its primary asset.
 */
import { z } from '@hono/zod-openapi';
import { AssetSchema } from '../assets/index.ts';
import { MemberSchema } from '../users/index.ts';

export const CompositionSchema = z
  .object({
    component_count: z.number().int().openapi({ description: 'Files behind the item (in the same trash state as the list).' }),
    has_edited: z.boolean(),
    has_jpeg: z.boolean(),
    has_live_motion: z.boolean().openapi({ description: 'A live photo: the item also holds its motion clip.' }),
    has_raw: z.boolean(),
  })
  .openapi('MediaComposition');

const StackMemberSchema = z.object({ media_item_id: z.string(), primary_asset_id: z.string() });

/** Where a media item sits in a stack. */
export const MediaItemStackSchema = z
  .object({
    stack_id: z.string(),
    stack_kind: z.string().openapi({ description: '`burst` or `manual`.', example: 'burst' }),
    member_count: z.number().int().openapi({ description: 'Members with a file in the listed trash state.' }),
    is_cover: z.boolean().openapi({ description: 'This item is the stack’s cover (the chosen one, else the first member).' }),
  })
  .openapi('MediaItemStackRef');

/** A stack shown as one gallery row (stack_mode `collapsed`). */
export const GalleryStackSchema = z
  .object({
    stack_id: z.string(),
    stack_kind: z.string().openapi({ description: '`burst` or `manual`.', example: 'burst' }),
    cover: StackMemberSchema.openapi({ description: 'The stack’s cover, whether or not it matched the filter.' }),
    matched_members: z.number().int().openapi({ description: 'Members that match the filter (at least 1).' }),
    members: z.array(StackMemberSchema).openapi({ description: 'Every member with a file in the listed trash state, by stack position.' }),
  })
  .openapi('GalleryStack');

export const GalleryMediaItemSchema = z
  .object({
    media_item_id: z.string().openapi({
      description: 'The logical media item. An asset not linked into one yet (still processing, or failed) stands alone, and this is its asset_id.',
    }),
    media_kind: z.enum(['photo', 'video', 'audio', 'live_photo']),
    composition: CompositionSchema,
    primary_asset: AssetSchema,
    owner: MemberSchema.nullable().openapi({ description: "Whose it is when it is not yours (a partner's photo: show their initials); null for your own." }),
    stack: MediaItemStackSchema.nullable().openapi({ description: 'The stack the item belongs to; null when it is in none.' }),
  })
  .openapi('GalleryMediaItem');

export const GalleryItemSchema = z
  .object({
    id: z.string().openapi({ description: '`media:<media_item_id>`', example: 'media:0192f6c4-8a55-7b8e-9d4e-2f1f3a6b7c8d' }),
    type: z.literal('media_item'),
    best_ts_ms: z.number().int().openapi({ description: 'Best known capture time in epoch milliseconds: taken_time, else upload_time.' }),
    media_item: GalleryMediaItemSchema,
    stack: GalleryStackSchema.nullable().openapi({
      description: 'In `collapsed` mode, the stack this row stands for (the row is its cover, or its first matching member). Null in `expanded` mode and for items in no stack.',
    }),
  })
  .openapi('GalleryItem');

export const GalleryListSchema = z
  .object({
    items: z.array(GalleryItemSchema),
    limit: z.number().int(),
    offset: z.number().int(),
    stack_mode: z.enum(['collapsed', 'expanded']),
    total_files: z.number().int().openapi({ description: 'Asset files behind all matching items (a RAW+JPEG pair counts 2).' }),
    total_media_items: z.number().int().openapi({ description: 'Matching media items (a RAW+JPEG pair counts 1).' }),
    total_visible: z.number().int().openapi({ description: 'Rows the list has in this stack mode (collapsed: a stack counts once; expanded: equal to total_media_items).' }),
  })
  .openapi('GalleryList');

export type GalleryItem = z.infer<typeof GalleryItemSchema>;
export type GalleryList = z.infer<typeof GalleryListSchema>;
