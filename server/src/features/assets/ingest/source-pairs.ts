/**
 * "This file belongs with that one", as a source says it (issue 28): Google Takeout's edited copy
 * (`IMG_1-edited.jpg`, and its translations) of its original, the motion clip of a Live Photo (`IMG_1.MP4` beside
 * `IMG_1.HEIC`, often without Apple's content identifier inside), iCloud's RAW alternative and live video of an
 * original. The door (features/intake) hands the statement here once both files are assets; the media item linker
 * (pipeline/media-items.ts) makes one item of them.
 *
 * Decisions (the contract is silent):
 * - A statement between two assets, not a SourceFacts field of one file at admission: the two files arrive in either
 *   order (the edit before its original, the clip in a later run or another Takeout part), so the pair can only be
 *   stated once both are in, and the later of the two states it. The source maps its own ids to assets (an import's
 *   cursors, features/cloud-import/run-executor.ts).
 * - What is kept is what the source said (`edit` or `companion`, asset_source_pairs), not the item it makes: the
 *   linker reads it on every link, from the partner's side, so the pipeline's metadata step, a re-read and stack
 *   detection relink it the same way instead of undoing it.
 * - No chains: the partner is never itself paired to a third file, and a file others are paired to is not paired
 *   away (a source pointing at an edited copy as an original is refused, logged, and the files stay as they were).
 * - Both must be the owner's and in the library; a video is an edit of a video, a photo of a photo; a companion of a
 *   photo is a video (its motion) or a photo (its RAW or alternative).
 * - Saying it again changes nothing (`false`): a second run links nothing twice. The first partner stands: a file
 *   said to belong with another partner later (the same bytes listed as two captures' clips) stays where it is,
 *   so the item does not change with the order files arrive in.
 */
import { forSystem } from '../../../platform/access/index.ts';
import type { Db } from '../../../platform/db/connection.ts';
import type { AssetRow, AssetsStore, SaidAs } from '../assets.store.ts';
import { linkMediaItem } from '../pipeline/media-items.ts';

export interface SourcePair {
  /** The member the source acts for: both files must be theirs. */
  ownerId: number;
  /** Who says it (`import:<provider>`), kept with the statement. */
  source: string;
  /** The file that belongs with another: the edited copy, the motion clip, the RAW alternative. */
  assetId: string;
  /** The file it belongs with: the original, the still. */
  partnerId: string;
  as: SaidAs;
}

/** Why a statement is not kept, or null when it may be. */
function refusal(store: AssetsStore, p: SourcePair, asset: AssetRow | undefined, partner: AssetRow | undefined): string | null {
  if (p.assetId === p.partnerId) return 'a file cannot belong with itself';
  if (!asset || !partner || asset.owner_id !== p.ownerId || partner.owner_id !== p.ownerId) return 'not both the member’s files';
  if (asset.is_deleted || partner.is_deleted) return 'one of the files is in the Trash';
  if (p.as === 'edit' && asset.type !== partner.type) return 'an edited copy of another kind of file';
  if (p.as === 'companion' && (partner.type !== 'PHOTO' || asset.type === 'AUDIO')) return 'a companion belongs with a photo';
  const kept = store.sourcePair(p.assetId);
  if (kept && kept.partner_id !== p.partnerId) return 'the file belongs with another file already';
  if (store.sourcePair(p.partnerId)) return 'the partner itself belongs with another file';
  if (store.hasSourceDependents(p.assetId)) return 'other files belong with this one';
  return null;
}

/**
 * Keeps the statement and, when both files are already linked into items, links them into one now (else the
 * pipeline does when the later one is processed). Runs in the caller's transaction. Whether anything changed.
 */
export function keepSourcePair(db: Db, store: AssetsStore, p: SourcePair, now: number, log: { info(o: object, msg: string): void }): boolean {
  const asset = store.byId(forSystem('asset', p.assetId));
  const partner = store.byId(forSystem('asset', p.partnerId));
  const why = refusal(store, p, asset, partner);
  if (why) {
    log.info({ asset_id: p.assetId, partner_id: p.partnerId, as: p.as, why }, 'a source’s pairing of two files was not kept');
    return false;
  }
  if (!store.keepSourcePair({ asset_id: p.assetId, partner_id: p.partnerId, said_as: p.as }, p.source, now)) return false;
  if (asset!.media_item_id !== null && partner!.media_item_id !== null) linkMediaItem(db, store, asset!, now);
  return true;
}
