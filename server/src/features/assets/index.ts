/**
 * The assets feature's public surface: what other features use of it. Anything not exported here is
 * internal to features/assets (the lint's layer rule enforces it; see eslint.config.js).
 */
export { AssetsStore, type AssetRow } from './assets.store.ts';
export { AssetSchema, loadAssetExtras, toAsset, type Asset, type AssetExtras } from './assets.view.ts';
export { EDIT_WINDOW_MS, compositionOf, editSuffix, fileStem, linkMediaItem } from './media-items.ts';
export { assetLabel } from './asset-references.ts';
// The ingest contract scans, watching and uploads hand files to.
export {
  FileChangingError,
  type CommittedUpload,
  type CommittedUploads,
  type IndexOutcome,
  type Ingest,
} from './ingest.contract.ts';
export { resolveInRepository } from './ingest.service.ts';
