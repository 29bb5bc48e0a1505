/**
 * The one door into the catalog: every way a file becomes an asset is a *source* (uploads single and chunked, scans,
 * the watcher, next the importers and approved host folders) that calls `CatalogDoor.admit`. The door owns per-owner
 * deduplication, the no-overwrite commit, crash safety (commits.ts) and the asset row written with its processing job
 * in one transaction (the assets feature's CatalogWriter). A source never touches the assets feature's tables.
 */
import type { DetectedType } from '../../adapters/media/detect.ts';
import type { IngestSource, SourceFacts, SourcePair } from '../assets/index.ts';

/** What the source says of the file (all optional): defined with the rule that decides between it and the file, features/assets/fact-precedence.ts. */
export type { SourceFacts } from '../assets/index.ts';

/** Two files a source brought in belong together (an edited copy and its original, a Live Photo's clip and its still). */
export type { SourcePair } from '../assets/index.ts';

/** A repository as the door needs it. */
export interface RepositoryRef {
  repository_id: string;
  path: string;
}

export type IntakeFile =
  /**
   * A file the source received into the repository's staging folder (platform of staging: features/intake/staging.ts),
   * hashed on the way. `head`: its first bytes, for content detection; `type`: already detected by the source.
   */
  | { kind: 'staged'; path: string; hash: string; size: number; head: Buffer; type?: DetectedType | null }
  /** A file already at its place in the repository (scans, the watcher, start-up recovery); `hash`: already computed. */
  | { kind: 'in-place'; relPath: string; hash?: string; type?: DetectedType | null };

export interface Admission {
  source: IngestSource;
  /** Owner of a new asset: the member the source acts for (the repository's default owner for scans). */
  ownerId: number;
  repository: RepositoryRef;
  file: IntakeFile;
  facts?: SourceFacts;
  /** The source's reference of this admission (an upload's receipt id): named on the commit record and the changes. */
  ref?: string;
}

export type AdmissionResult =
  | { outcome: 'created' | 'updated' | 'moved' | 'restored' | 'unchanged'; assetId: string; relPath: string }
  /** Only for uploads: the uploader already has this content (`restoredFromTrash`: it was in their Trash, now back). */
  | { outcome: 'duplicate'; assetId: string; restoredFromTrash: boolean }
  | { outcome: 'unsupported'; reason: string };

export interface CatalogDoor {
  /**
   * Brings one file in. Throws FileChangingError (features/assets) when an in-place file changed while it was read:
   * admit it again once it is quiet.
   */
  admit(a: Admission): Promise<AdmissionResult>;
  /** The file at relPath is gone: its asset goes to the Trash (reason `missing`). Whether an asset was affected. */
  missing(repositoryId: string, relPath: string): boolean;
  /**
   * The source says one file it brought in belongs with another (features/assets/ingest/source-pairs.ts): one media
   * item from then on, whichever was processed first. Stated once both are assets (the later of the two states it).
   * Whether anything changed (false: said before, or refused: not both the member's, a chain, a kind that cannot pair).
   */
  pair(p: SourcePair): boolean;
  /**
   * Whether the file that just appeared at relPath is one the door itself is committing or committed moments ago
   * (own-commits.ts): the watcher passes over that `add`, since the door catalogues the file itself. True once per
   * commit.
   */
  ownCommit(repositoryId: string, relPath: string): boolean;
}
