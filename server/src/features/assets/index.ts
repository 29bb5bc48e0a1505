/**
 * The assets feature's public surface: what other features use of it. Anything not exported here is
 * internal to features/assets (the lint's layer rule enforces it; see eslint.config.js).
 *
 * Layout, by responsibility:
 * - `ingest/`: the catalog writer, the one writer of asset rows for files entering the catalog (the intake's door calls it);
 * - `pipeline/`: the per-asset processing job (metadata, thumbnails, media items) and start-up repair;
 * - `api/`: the asset operations members call (detail, files, edits, Trash, export, download, sidecar);
 * - here: what all three share (the store, the view, derivative paths, the asset events).
 */
export { AssetsStore, type AssetRow } from './assets.store.ts';
export { AssetSchema, loadAssetExtras, toAsset, type Asset, type AssetExtras } from './assets.view.ts';
export { EDIT_WINDOW_MS, compositionOf, editSuffix, fileStem, linkMediaItem } from './pipeline/media-items.ts';
export { assetLabel } from './asset-references.ts';
// The asset events, for features that change assets the way the asset API does (duplicates' merge trashes).
export { assetRef, type AssetChangeBus } from './asset-changes.ts';
export { MarksStore, withReaderMarks, type Mark } from './marks.ts';
// The catalog writer the intake's door hands files to (features/intake/door.ts), and its contract.
export { CatalogWriter, ContentHolders, type CatalogEntry, type RepositoryPlace } from './ingest/catalog-writer.ts';
export {
  FileChangingError,
  type ClaimedCommit,
  type CommitClaims,
  type FileModified,
  type IndexFileRequest,
  type IndexOutcome,
  type Ingest,
  type IngestSource,
} from './ingest/ingest.contract.ts';
export { resolveInRepository } from './ingest/ingest.service.ts';
export type { SourcePair } from './ingest/source-pairs.ts';
// What a source may say of a file, and the one rule that decides between a person, the source and the file.
export { albumKey, type SourceFacts } from './fact-precedence.ts';
// ffmpeg/ffprobe and the files waiting for them, for the runtime diagnostics (features/system).
export { MediaToolsSchema } from './media-tools/media-tools.routes.ts';
export type { MediaToolsReport } from './pipeline/waiting-for-tools.ts';
