/**
 * What the assistant needs of the rest of the library, as functions the composition root (container.ts) wires
 * to the real services. The tools are thin wrappers over these: every call takes the member asking, and each
 * service checks access itself as it does for its own routes (a tool never reaches further than the member's
 * own requests would).
 */
import type { Actor } from '../../platform/http/context.ts';
import type { AssetFilter, GalleryItem } from '../browse/index.ts';
import type { CatalogNames, SearchRequest, SearchResponse } from '../search/index.ts';

export interface AgentLibrary {
  /**
   * Every row the member's library shows under `filter` (own and partner-shared photos, the Trash left out),
   * newest capture first, as browse row ids (LibraryStore maps them to asset ids).
   */
  rows(actor: Actor, filter: AssetFilter | undefined, timeZone: string): Promise<Int32Array>;
  /** Gallery items of rows, read fresh (pins' lists). */
  galleryItems(actor: Actor, rowids: readonly number[]): Promise<Map<number, GalleryItem>>;
  /** Files behind rows (a RAW+JPEG pair counts 2). */
  filesOf(rowids: readonly number[]): Promise<number>;
  /** Hybrid search (features/search), as searchAssets answers it. */
  search(actor: Actor, req: SearchRequest): Promise<SearchResponse>;
  /** The names the plain-language parser knows for this member (cameras, lenses, people, places). */
  catalog(actor: Actor): Promise<ParserCatalog>;
  people(actor: Actor): { person_id: number; name: string | null; asset_count: number }[];
  albums(actor: Actor): { album_id: number; album_name: string; asset_count: number; owner_id: number }[];
  events(actor: Actor): { event_id: string; title: string; start_at: number; end_at: number; media_count: number }[];
  createAlbum(actor: Actor, name: string): { album_id: number; album_name: string };
  albumName(actor: Actor, albumId: number): string;
  addToAlbum(actor: Actor, albumId: number, assetId: string): void;
  tag(actor: Actor, assetId: string, name: string): void;
  like(actor: Actor, assetId: string, liked: boolean): void;
  trash(actor: Actor, assetId: string): void;
}

/** The parser's catalog (features/search understandQuery's CatalogNames, places included). */
export type ParserCatalog = CatalogNames;
