/**
 * Albums named by a source (SourceFacts.albumNames: Google Takeout's and iCloud's album folders, a folder source's
 * sidecar): the asset goes into its owner's albums of those names. The assets feature keeps the facts and tells which
 * names are new on `asset.sourced` (features/assets/asset-changes.ts), in the transaction that kept them; this
 * subscriber acts on them there. Albums never read the intake's or the facts' tables, and the door never writes albums.
 *
 * Decisions (where the contract is silent, as a household would want):
 * - Matching: a name matches an album the asset's owner OWNS whose name is the same trimmed and case-insensitively
 *   (`albumKey`: "Trip" finds "trip "); never an album shared with them (a source acts for its member, and putting
 *   their photos into someone else's album is that album's owner's decision). Of two owned albums with one name,
 *   the oldest.
 * - Creation: no owned album of that name → a regular album named as the source gave it (surrounding white space
 *   trimmed, control characters and line breaks made spaces, at most 200 characters: what an album name may be).
 * - Once per facts: only names none of the asset's kept facts named before reach here (fact-precedence.ts), so a
 *   person who took the photo out of an album does not get it put back by a re-run of the same facts, and a re-run
 *   naming a new album adds it. An asset already in the album stays where it is.
 * - Order: appended at the end of the album, added by the album's owner; the album counts as changed (`updated_at`).
 */
import type { AssetChangeBus } from '../assets/index.ts';
import { albumKey } from '../assets/index.ts';
import { SINGLE_LINE_FORBIDDEN } from '../../platform/http/text.ts';
import type { AlbumsStore } from './albums.store.ts';

const NAME_MAX = 200;

/** Subscribes the albums feature to the album names sources give (composition root). */
export function followSourceAlbums(changes: AssetChangeBus, store: AlbumsStore, now: () => number = Date.now): void {
  changes.on('asset.sourced', 'albums', (c) => {
    if (c.album_names.length) placeInNamedAlbums(store, c.owner_id, c.asset_id, c.album_names, now());
  });
}

/** Puts the asset into its owner's albums of these names, making those the owner has none of. */
export function placeInNamedAlbums(store: AlbumsStore, ownerId: number, assetId: string, names: readonly string[], now: number): void {
  const owned = new Map<string, number>();
  for (const a of store.owned(ownerId)) if (!owned.has(albumKey(a.album_name))) owned.set(albumKey(a.album_name), a.album_id);
  for (const given of names) {
    const name = albumName(given);
    if (!name) continue;
    const key = albumKey(name);
    let albumId = owned.get(key);
    if (albumId === undefined) {
      albumId = store.insert({ owner_id: ownerId, album_name: name, album_type: 'regular', description: null }, now);
      owned.set(key, albumId);
    }
    if (store.positionOf(albumId, assetId) !== undefined) continue;
    store.normalise(albumId);
    store.insertAt(albumId, assetId, store.memberCount(albumId), now, ownerId);
    store.touch(albumId, now);
  }
}

/** A source's album name as an album name may be (see the decisions above); '' when nothing is left. */
function albumName(given: string): string {
  const cleaned = given.replace(new RegExp(SINGLE_LINE_FORBIDDEN.source, 'g'), ' ').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '').trim();
  let name = '';
  for (const ch of cleaned) {
    if (name.length + ch.length > NAME_MAX) break; // counted as the API counts an album name (UTF-16 units), whole characters
    name += ch;
  }
  return name.trim();
}
