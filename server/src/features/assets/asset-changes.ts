/**
 * What happens to an asset, as changes on the catalog's change bus (platform/change-bus). Emitted by ingest, the
 * media pipeline and the asset API inside the transaction that writes the change; features that react
 * (stacks, the indexers, people, duplicates, photo events and places) subscribe in the composition root
 * (container.ts), so none of the emitters knows them.
 *
 * `asset.deleted` is the only change after which the asset id means nothing: the row, its file and its
 * derivatives are gone (features/assets/trash). Subscribers clean up what they keep by asset id.
 */
import type { ChangeBus } from '../../platform/change-bus/index.ts';
import type { IngestSource } from './ingest/ingest.contract.ts';

/**
 * The source's commit this change catalogued (the door's record, features/intake/commits.store.ts), when there was one:
 * the source follows its own records from here (uploads settle their receipt), in the same transaction.
 */
export interface CommitRef {
  source: IngestSource;
  ref: string;
}

interface AssetRef {
  asset_id: string;
  owner_id: number;
  repository_id: string;
}

export interface AssetChanges {
  /** A file entered the catalog as a new asset, or an asset's file got new content; processing is queued. */
  'asset.ingested': AssetRef & { source: IngestSource; replaced: boolean; commit?: CommitRef };
  /** Metadata and thumbnails are done (the pipeline finished): the asset can be shown and indexed. */
  'asset.ready': AssetRef & { media_item_id: string | null };
  /**
   * Processing gave up on it (the pipeline's failure path, or its job given up: cancelled, discarded, interrupted):
   * the asset is `failed` with `reason` (members read it: no server paths); `retryable` when running it again may
   * help (a tool or the machine failed, not the file).
   */
  'asset.failed': AssetRef & { reason: string; retryable: boolean };
  /**
   * Processed as far as the machine allows: a media tool is not installed (`tool`), so it waits for it, `pending`
   * with what could be read (features/assets/pipeline/waiting-for-tools.ts). The file is safe in the library.
   */
  'asset.waiting': AssetRef & { tool: string; reason: string };
  /** A failed or interrupted asset was queued for processing again by hand (its job run again). */
  'asset.requeued': AssetRef;
  /**
   * A source handed facts for the asset that the catalog had not kept yet (features/assets/fact-precedence.ts): at its
   * admission, or a re-run whose item changed, or another item of the source with the same content (the door's
   * duplicate). `album_names`: the album names none of its kept facts named before (to apply once, features/albums);
   * `settled`: what of the effective capture time and place moved when the new facts were settled without a new read
   * of the file (photo events and places follow; at an admission the pipeline's run settles them, so it is empty).
   */
  'asset.sourced': AssetRef & { album_names: string[]; settled: ('time' | 'place')[] };
  /** Moved to the Trash by its owner (`user`) or because its file disappeared (`missing`). */
  'asset.trashed': AssetRef & { reason: 'user' | 'missing' };
  /** Back from the Trash (by its owner, an upload of the same file, or its file coming back). */
  'asset.restored': AssetRef;
  /**
   * A person corrected (or restored, or undid a correction of) its capture time or place
   * (features/assets/corrections): what is made of when and where (photo events, place names) follows.
   */
  'asset.corrected': AssetRef & { what: 'time' | 'place' };
  /** Its file was moved or renamed inside its repository; the asset id stays. */
  'asset.moved': AssetRef & { from: string; to: string; commit?: CommitRef };
  /**
   * Deleted for good from the Trash, with its file: by its owner (`user`: emptying the Trash or
   * "Delete permanently") or by the retention period (`retention`). Emitted in the transaction that
   * removes the row, after the file was removed from its folder.
   */
  'asset.deleted': AssetRef & { reason: 'user' | 'retention'; storage_path: string };
}

export type AssetChangeBus = ChangeBus<AssetChanges>;

export function assetRef(row: { asset_id: string; owner_id: number; repository_id: string }): AssetRef {
  return { asset_id: row.asset_id, owner_id: row.owner_id, repository_id: row.repository_id };
}
