/**
 * Whole files over multipart: the single upload (uploadAsset) and the batch (batchUploadAssets),
 * whose file parts are whole files (`single_{id}`) or chunks of sessions (`chunk_{id}_{i}_{n}`,
 * handed to chunk-sessions.ts).
 *
 * A whole file streams into a new staging file under a new receipt (busboy, never buffered; hashed
 * while it is written, sink.ts), then goes through the commit (commit.ts). Every failure removes
 * what it staged and fails the receipt.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Invalid } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { ChunkSessions } from './chunk-sessions.ts';
import type { Committer } from './commit.ts';
import { parseMultipart, type MultipartLimits } from './multipart.ts';
import { newStagingFile, sanitizeFileName } from '../intake/index.ts';
import { HASH_HEX, targetRepository, toStoredProblem, type Repo, type UploadsContext } from './uploads.context.ts';
import { emptyResult, type BatchResult, type UploadResult } from './uploads.results.ts';
import { parseLastModified } from './last-modified.ts';
import type { FileModified } from '../assets/index.ts';

const rm = (p: string) => fs.promises.rm(p, { recursive: true, force: true }).catch(() => undefined);

export class WholeFileUploads {
  constructor(
    private readonly ctx: UploadsContext,
    private readonly committer: Committer,
    private readonly sessions: ChunkSessions,
  ) {}

  /**
   * One file as multipart: optional text fields `repository_id` and `last_modified` (before the file,
   * last-modified.ts), file field `file`.
   * `contentHash`: the client's BLAKE3 (X-Content-Hash); a mismatch fails with 422 and keeps nothing.
   */
  async single(actor: Actor, body: Readable, contentType: string | undefined, contentHash?: string): Promise<UploadResult> {
    let repositoryId: string | undefined;
    let modified: FileModified | null = null;
    let result: UploadResult | undefined;
    await parseMultipart(body, { 'content-type': contentType }, this.multipartLimits(1), {
      field: (name, value, afterFile) => {
        if (name === 'last_modified') {
          if (afterFile) throw new Invalid('Send last_modified before the file.', [{ field: 'body.last_modified', message: 'must come before the file part' }]);
          modified = parseLastModified(value, 'body.last_modified', this.ctx.now());
          return;
        }
        if (name !== 'repository_id') return;
        if (afterFile) throw new Invalid('Send repository_id before the file.', [{ field: 'body.repository_id', message: 'must come before the file part' }]);
        repositoryId = value.trim() || undefined;
      },
      file: async (name, stream, info) => {
        if (name !== 'file') {
          stream.resume();
          throw new Invalid(`Unexpected file field "${name}": send the file as "file".`, [{ field: 'body.file', message: 'is required' }]);
        }
        const repo = targetRepository(this.ctx, repositoryId);
        result = await this.receiveWhole(actor, repo, stream, info.filename, modified, contentHash?.toLowerCase());
      },
    });
    if (!result) throw new Invalid('The form has no file: send it as the field "file".', [{ field: 'body.file', message: 'is required' }], 'file_missing');
    return result;
  }

  /**
   * Multipart with text field `repository_id` (optional, before the files) and file fields
   * `single_{session_id}` (a whole file; the id is the client's, echoed back) and
   * `chunk_{session_id}_{index}_{total}` (chunk `index`, 0-based, of a session made with
   * createUploadSession). Each file gets a result; one file failing does not fail the others.
   */
  async batch(actor: Actor, body: Readable, contentType: string | undefined): Promise<{ results: BatchResult[] }> {
    let repositoryId: string | undefined;
    const results: BatchResult[] = [];
    // `last_modified_{session_id}` of the whole files to come (a bad one fails the request before any file).
    const modified = new Map<string, FileModified>();
    await parseMultipart(body, { 'content-type': contentType }, this.multipartLimits(this.ctx.limits.maxFiles), {
      field: (name, value, afterFile) => {
        const m = /^last_modified_([A-Za-z0-9-]{1,64})$/.exec(name);
        if (m) {
          modified.set(m[1]!, parseLastModified(value, `body.${name}`, this.ctx.now()));
          return;
        }
        if (name !== 'repository_id') return;
        if (afterFile) throw new Invalid('Send repository_id before the files.', [{ field: 'body.repository_id', message: 'must come before the file parts' }]);
        repositoryId = value.trim() || undefined;
      },
      file: async (name, stream, info) => {
        const slot = results.length;
        const parsed = parseBatchField(name);
        results.push(emptyResult(parsed?.sessionId ?? name));
        try {
          if (!parsed) {
            throw new Invalid(`Unexpected file field "${name}": use single_{session_id} or chunk_{session_id}_{index}_{total}.`, [{ field: `body.${name}`, message: 'unknown field' }], 'bad_field_name');
          }
          if (parsed.kind === 'single') {
            const r = await this.receiveWhole(actor, targetRepository(this.ctx, repositoryId), stream, info.filename, modified.get(parsed.sessionId) ?? null);
            results[slot] = { ...emptyResult(parsed.sessionId), ...r, success: true };
          } else {
            results[slot] = await this.sessions.receiveChunk(actor, parsed.sessionId, parsed.index, parsed.total, stream);
          }
        } catch (e) {
          stream.resume();
          const problem = toStoredProblem(e);
          if (problem.status >= 500) this.ctx.log.error({ err: e, field: name }, 'batch upload part failed');
          results[slot] = { ...results[slot]!, success: false, status: 'failed', message: problem.detail, problem };
        }
      },
    });
    if (results.length === 0) throw new Invalid('The form has no file parts.', [{ field: 'body', message: 'needs at least one file part' }], 'file_missing');
    return { results };
  }

  /** Checks an X-Content-Hash before anything is read. */
  static checkContentHash(contentHash: string | undefined): void {
    if (contentHash !== undefined && !HASH_HEX.test(contentHash.toLowerCase())) {
      throw new Invalid('X-Content-Hash must be 64 hexadecimal characters (BLAKE3).', [{ field: 'header.x-content-hash', message: 'must be 64 hex characters' }]);
    }
  }

  private multipartLimits(files: number): MultipartLimits {
    const l = this.ctx.limits;
    return {
      parts: l.maxParts,
      files,
      fields: l.maxFields,
      fieldSize: l.maxFieldBytes,
      // busboy marks a file truncated when it *reaches* the limit: one more byte lets an exactly-max file through.
      fileSize: l.maxFileBytes + 1,
      idleMs: l.idleTimeoutMs,
    };
  }

  /** Streams a whole file into staging under a new receipt, then commits it (or reports the duplicate). */
  private async receiveWhole(actor: Actor, repo: Repo, stream: Readable, rawName: string, modified: FileModified | null, expectedHash?: string): Promise<UploadResult> {
    const { store, now } = this.ctx;
    const name = sanitizeFileName(rawName);
    if (!name) {
      stream.resume();
      throw new Invalid('The file name is not usable (empty, "." or "..", or containing NUL).', [{ field: 'body.file', message: 'needs a usable file name' }], 'bad_file_name');
    }
    const receiptId = uuidv7(now());
    store.insertReceipt({ receipt_id: receiptId, owner_id: actor.userId, file_name: name, size: null, status: 'uploading' }, now());
    const staged = newStagingFile(repo.path);
    try {
      await fs.promises.mkdir(path.dirname(staged), { recursive: true });
      const got = await this.ctx.deps.intake.receive(stream, staged, this.ctx.limits.maxFileBytes);
      return await this.committer.finalize(actor, repo, staged, got, name, receiptId, modified, expectedHash);
    } catch (e) {
      await rm(staged);
      store.updateReceipt(receiptId, { status: 'failed', problem: toStoredProblem(e) }, now());
      throw e;
    }
  }
}

/** `single_{session_id}` or `chunk_{session_id}_{index}_{total}` (session ids have no '_'). */
export function parseBatchField(name: string): { kind: 'single'; sessionId: string } | { kind: 'chunk'; sessionId: string; index: number; total: number } | null {
  let m = /^single_([A-Za-z0-9-]{1,64})$/.exec(name);
  if (m) return { kind: 'single', sessionId: m[1]! };
  m = /^chunk_([A-Za-z0-9-]{1,64})_(\d{1,9})_(\d{1,9})$/.exec(name);
  if (m) {
    const index = Number(m[2]);
    const total = Number(m[3]);
    if (total < 1) return null;
    return { kind: 'chunk', sessionId: m[1]!, index, total };
  }
  return null;
}
