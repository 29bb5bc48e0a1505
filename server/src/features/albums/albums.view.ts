/** The public shapes of albums (contract: Album; album asset listing; albums of an asset). */
import { z } from '@hono/zod-openapi';
import { AssetSchema, toAsset, type AssetExtras } from '../assets/index.ts';
import { MemberSchema, type Member } from '../users/index.ts';
import type { AlbumListRow, AlbumOfAssetRow, MemberAssetRow } from './albums.store.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export const AlbumSchema = z
  .object({
    album_id: z.number().int(),
    album_name: z.string(),
    album_type: z.enum(['regular', 'bio']).openapi({ description: '`bio`: a species album; its photos get species recognition.' }),
    description: z.string().nullable(),
    asset_count: z.number().int().openapi({ description: 'Members not in the Trash (of `repository_id` when the request names one).' }),
    cover_asset_id: z.string().nullable().openapi({ description: "The owner's chosen cover; null when none is chosen." }),
    display_cover_asset_id: z
      .string()
      .nullable()
      .openapi({ description: 'What to show: the chosen cover unless it is in the Trash, else the first member by position not in the Trash.' }),
    created_at: z.string(),
    updated_at: z.string().openapi({ description: 'Changes to the album and to its membership or order.' }),
    user_id: z.number().int().openapi({ description: 'The owner (the creator).' }),
    owner: MemberSchema.nullable().openapi({ description: 'The owner as members see them (name and initials).' }),
    role: z.enum(['owner', 'viewer', 'contributor']).openapi({ description: "The caller's role: `owner`, or a member's role in a shared album." }),
    shared: z.boolean().openapi({ description: 'Shared: the caller is a member, or the owner shares it with members.' }),
    member_count: z.number().int().openapi({ description: 'Members besides the owner.' }),
  })
  .openapi('Album');
export type Album = z.infer<typeof AlbumSchema>;

export const AlbumAssetSchema = AssetSchema.extend({
  added_time: z.string(),
  added_by: MemberSchema.nullable().openapi({ description: 'Who put it in the album (null: the account is gone).' }),
  position: z.number().int().openapi({ description: 'Place in the album, 0 first (counted over every member, those in the Trash too).' }),
}).openapi('AlbumAsset');

/** An album holding a given asset (listAssetAlbums), with that asset's place in it. */
export const AlbumOfAssetSchema = AlbumSchema.extend({
  added_time: z.string(),
  position: z.number().int(),
}).openapi('AlbumOfAsset');

export function toAlbum(r: AlbumListRow, owner: Member | undefined): Album {
  return {
    album_id: r.album_id,
    album_name: r.album_name,
    album_type: r.album_type,
    description: r.description,
    asset_count: r.asset_count,
    cover_asset_id: r.cover_asset_id,
    display_cover_asset_id: r.visible_cover_id ?? r.first_asset_id,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    user_id: r.owner_id,
    owner: owner ?? null,
    role: r.role,
    shared: r.role !== 'owner' || r.member_count > 0,
    member_count: r.member_count,
  };
}

export function toAlbumOfAsset(r: AlbumOfAssetRow, owner: Member | undefined) {
  return { ...toAlbum(r, owner), added_time: iso(r.added_at), position: r.position };
}

export function toAlbumAsset(r: MemberAssetRow, extras: AssetExtras | undefined, addedBy: Member | null) {
  return { ...toAsset(r, extras), added_time: iso(r.added_at), added_by: addedBy, position: r.position };
}
