/**
 * The last step of every upload path (single, batch file, chunked session): a staged, hashed file is checked (not
 * empty, hash as announced, a media type we read), handed to the one door into the catalog (features/intake/door.ts:
 * per-owner duplicates, the no-overwrite commit, crash safety, the catalog row and its job), and the upload's
 * receipt follows the answer. The uploads feature writes its receipts; the door and the catalog never do.
 *
 * What the door answers an upload (duplicates are per owner: another member's copy never counts):
 * - the uploader already has the content: `duplicate`, with their asset's id, nothing stored;
 * - the uploader's own copy is in the Trash (its file still in the folder): it is back, `duplicate` with
 *   `restored_from_trash: true`, instead of storing a second `name (1)`;
 * - else the file is stored (once on disk: another name of the same bytes when the file system allows) and
 *   catalogued as the uploader's own asset, and processed.
 */
import path from 'node:path';
import { DomainError, Invalid } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { detectContent, type CatalogDoor, type Received } from '../intake/index.ts';
import type { Repo, UploadsContext } from './uploads.context.ts';
import type { FileModified } from '../assets/index.ts';
import type { UploadResult } from './uploads.results.ts';

export class Committer {
  constructor(
    private readonly ctx: UploadsContext,
    /** The one door into the catalog. */
    private readonly door: CatalogDoor,
  ) {}

  /**
   * Checks, then admits the file through the door with the file's modification time as the client said
   * (last-modified.ts; null when it did not). Updates the receipt on success; on failure throws (the caller fails
   * the receipt and removes what it staged).
   */
  async finalize(actor: Actor, repo: Repo, staged: string, got: Received, name: string, receiptId: string, fileModified: FileModified | null, expectedHash?: string): Promise<UploadResult> {
    const { store, now } = this.ctx;
    if (got.size === 0) throw new Invalid('The file is empty.', [{ field: 'body.file', message: 'must not be empty' }], 'empty_file');
    store.updateReceipt(receiptId, { status: 'uploading', size: got.size, content_hash: got.hash }, now());
    if (expectedHash && expectedHash !== got.hash) {
      throw new Invalid('The file that arrived does not match the content hash the client announced: it was changed or cut in transit. Nothing was kept.', [{ field: 'header.x-content-hash', message: 'does not match the received content' }], 'content_hash_mismatch');
    }
    // Detected once, from the head the sink kept; the catalog row and the processing job take it from here.
    const type = detectContent(got.head, name);
    if (!type) throw new DomainError(415, 'unsupported_media_type', `${name} is not a photo, video or audio file Hearth can read.`);
    const fileName = path.extname(name) ? name : `${name}.${type.ext}`;
    const base = { content_hash: got.hash, file_name: fileName, receipt_id: receiptId, size: got.size };

    const out = await this.door.admit({
      source: 'upload',
      ownerId: actor.userId,
      repository: repo,
      file: { kind: 'staged', path: staged, hash: got.hash, size: got.size, head: got.head, type },
      facts: { originalName: name, fileModified },
      ref: receiptId,
    });
    if (out.outcome === 'unsupported') throw new DomainError(415, 'unsupported_media_type', `${name} cannot be catalogued: ${out.reason}.`);
    if (out.outcome === 'duplicate') {
      store.updateReceipt(receiptId, { status: 'duplicate', asset_id: out.assetId }, now());
      const message = out.restoredFromTrash
        ? 'You already had this file in your Trash: it is back in your library, not stored again.'
        : 'You already have this file; it was not stored again.';
      return { ...base, status: 'duplicate', asset_id: out.assetId, restored_from_trash: out.restoredFromTrash, message };
    }
    // created/updated/restored queue the pipeline, which completes the receipt; a move or an
    // unchanged file (indexed meanwhile by the folder watcher) is completed when its asset is ready.
    store.updateReceipt(receiptId, { status: 'processing', asset_id: out.assetId }, now());
    return { ...base, status: 'processing', asset_id: out.assetId, restored_from_trash: false, message: 'Stored; it is being processed.' };
  }
}
