/**
 * The last step of every upload path (single, batch file, chunked session): a staged, hashed file
 * is checked, then either reported as a duplicate (and dropped) or committed into the repository
 * and handed to the ingest.
 *
 * Duplicates are per owner: identity is (repository, owner, BLAKE3, size). Decisions:
 * - The uploader already has the content: `duplicate`, with their asset's id, nothing stored.
 * - Only another member has it: the uploader gets an asset of their own (they may keep their copy,
 *   and nothing in the answer hints at the other member's file). The bytes are stored once: the
 *   new name is a copy-on-write clone or a hard link of the file already there, when the file
 *   system allows (else the uploaded copy is kept). Each member's asset has its own path, so
 *   deleting one member's asset (or even its file) leaves the other's bytes where they are.
 * - The uploader's own copy is in the Trash (its file still in the folder): the upload brings it
 *   back, as a household user re-adding a photo expects, instead of storing a second `name (1)`.
 *   The answer is `duplicate` with that asset's id and `restored_from_trash: true`.
 * The checks and the commit run under an in-process lock per (repository, hash), so two uploads of
 * the same content at the same time end with one stored copy per owner.
 */
import path from 'node:path';
import fs from 'node:fs';
import { DomainError, Invalid } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { failpoint } from '../../platform/failpoints.ts';
import type { CommitIntents } from './commit-intents.ts';
import { KeyedLock } from './locks.ts';
import { commitAsCopyOf, commitStaged, detectContent, uploadFolder, type DetectedType, type Received } from '../intake/index.ts';
import type { Repo, UploadsContext } from './uploads.context.ts';
import type { FileModified } from '../assets/index.ts';
import type { UploadResult } from './uploads.results.ts';

const rm = (p: string) => fs.promises.rm(p, { recursive: true, force: true }).catch(() => undefined);

export class Committer {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly ctx: UploadsContext,
    /** Where each commit is recorded before the link, so its owner survives a crash. */
    private readonly intents: CommitIntents,
  ) {}

  /**
   * Checks (not empty, hash as announced, a media type we read), then under the (repository, hash)
   * lock: duplicate → dropped; else committed and indexed, with the file's modification time as the client
   * said (last-modified.ts; null when it did not). Updates the receipt on success; on
   * failure throws (the caller fails the receipt and removes what it staged).
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
    const fileName = withExtension(name, type);
    const ingest = this.ctx.deps.ingest();

    return this.lock.run(`${repo.repository_id}:${got.hash}`, async () => {
      const base = { content_hash: got.hash, file_name: fileName, receipt_id: receiptId, size: got.size };
      const own = ingest.ownCopy(repo.repository_id, actor.userId, got.hash, got.size);
      if (own && (!own.in_trash || ingest.restoreFromTrash(own.asset_id))) {
        await rm(staged);
        store.updateReceipt(receiptId, { status: 'duplicate', asset_id: own.asset_id }, now());
        const message = own.in_trash
          ? 'You already had this file in your Trash: it is back in your library, not stored again.'
          : 'You already have this file; it was not stored again.';
        return { ...base, status: 'duplicate', asset_id: own.asset_id, restored_from_trash: own.in_trash, message };
      }
      let relPath: string;
      try {
        relPath = await this.commit(actor, repo, staged, got, fileName, receiptId, name);
      } catch (e) {
        this.intents.drop(receiptId);
        throw e;
      }
      failpoint('upload.after-commit');
      // Taking a committed file back out: the record goes after the file, so a crash in between
      // leaves a record without a file (dropped at the next start), never a file without its owner.
      const takeBack = async () => {
        await rm(path.join(repo.path, relPath));
        this.intents.drop(receiptId);
      };
      let outcome;
      try {
        outcome = await ingest.indexFile({ repositoryId: repo.repository_id, repository: repo, relPath, ownerId: actor.userId, source: 'upload', knownHash: got.hash, knownType: type, receiptId, originalFilename: name, fileModified });
      } catch (e) {
        await takeBack(); // not catalogued: take it back out, the client may retry
        throw e;
      }
      if (outcome.outcome === 'unsupported') {
        await takeBack();
        throw new DomainError(415, 'unsupported_media_type', `${name} cannot be catalogued: ${outcome.reason}.`);
      }
      if (outcome.outcome === 'duplicate') {
        await takeBack();
        store.updateReceipt(receiptId, { status: 'duplicate', asset_id: outcome.asset_id }, now());
        return { ...base, status: 'duplicate', asset_id: outcome.asset_id, restored_from_trash: false, message: 'You already have this file; it was not stored again.' };
      }
      // created/updated/restored queue the pipeline, which completes the receipt; a move or an
      // unchanged file (indexed meanwhile by the folder watcher) is completed when its asset is ready.
      this.intents.drop(receiptId); // settled by the catalog write already, except for a move
      store.updateReceipt(receiptId, { status: 'processing', asset_id: outcome.asset_id }, now());
      return { ...base, status: 'processing', asset_id: outcome.asset_id, restored_from_trash: false, message: 'Stored; it is being processed.' };
    });
  }

  /**
   * Commits the staged file under `uploads/YYYY/MM/`: as another name of a file of the repository
   * that already holds these bytes (stored once), or the staged file itself. Returns the path.
   */
  private async commit(actor: Actor, repo: Repo, staged: string, got: Received, fileName: string, receiptId: string, name: string): Promise<string> {
    const folder = uploadFolder(new Date(this.ctx.now()));
    const ingest = this.ctx.deps.ingest();
    // A path the catalog holds for another member (its file went missing) is theirs: indexing the
    // upload there would hand the upload to their asset.
    const othersPath = (relPath: string) => {
      const owner = ingest.ownerOfPath(repo.repository_id, relPath);
      return owner !== undefined && owner !== actor.userId;
    };
    // Each name is recorded with its uploader before the file appears under it (commit-intents.ts).
    const intent = { receipt_id: receiptId, owner_id: actor.userId, repository_id: repo.repository_id, content_hash: got.hash, size: got.size, original_filename: name };
    const placement = {
      skip: othersPath,
      reservation: { reserve: (rel: string) => this.intents.reserve({ ...intent, rel_path: rel }), release: () => this.intents.drop(receiptId) },
    };
    const same = ingest.fileWithContent(repo.repository_id, got.hash, got.size);
    const linked = same ? await commitAsCopyOf(repo.path, same, folder, fileName, placement) : null;
    if (!linked) return commitStaged(repo.path, staged, folder, fileName, placement);
    await rm(staged);
    return linked;
  }
}

function withExtension(name: string, type: DetectedType): string {
  return path.extname(name) ? name : `${name}.${type.ext}`;
}
