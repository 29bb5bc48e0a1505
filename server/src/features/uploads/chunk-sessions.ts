/**
 * Chunked uploads: durable sessions (upload_sessions) whose chunks are written straight into the
 * session's preallocated data file at their offsets (chunk-layout.ts), so a dropped connection or
 * a server restart resumes with the chunks already received, and finishing the session copies
 * nothing: the data file itself is committed.
 *
 * A chunk: validated against its session (index in range, total as declared, size as the session's
 * chunk size implies), streamed to its offset, and only then recorded in the session row; then
 * acknowledged. A chunk already received is read and dropped (same size: an idempotent repeat;
 * another size: 409); a chunk another request is receiving right now is refused (409, retryable),
 * so two writers never share a region of the file. The chunk size is the client's (told in the
 * session, or learnt from the first chunk to complete: every chunk but the last has it); chunks
 * that start before it is known go to a side file first and are copied to their offset once it is.
 *
 * Acknowledgement (chunk-sync.ts): a chunk is answered once written into the data file and
 * recorded; the file is flushed behind the answers, and chunks not flushed when the machine itself
 * went down (another boot at the next start) are no longer counted, so the client sends them again.
 * Finishing a session flushes the whole file before the commit. Where the boot cannot be told, each
 * chunk is flushed before its answer.
 *
 * Hashing: while chunks arrive, the data file is hashed in order over the chunks received
 * contiguously from the start (the intake's follower, features/intake: read back from the page cache and hashed with the
 * native BLAKE3 on this thread; a cursor moved on as each chunk completes), so when the last chunk
 * arrives only the tail after the cursor is left to hash. Chunks come in parallel requests, so
 * they are not hashed as they stream: BLAKE3 needs the bytes in file order. In memory only: after
 * a restart, or with more than MAX_HASHING sessions at once, the whole file is hashed at the end.
 *
 * When the last missing chunk is stored, that request finishes the session: size check, digest,
 * the client's hash, and the commit (commit.ts). A client-side fault (hash mismatch, empty,
 * unsupported) fails the session and removes its staging; a server-side one puts it back to
 * `uploading` so that resuming it tries again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { Conflict, DomainError, Invalid, NotFound, PayloadTooLarge } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { uuidv7 } from '../../platform/ids.ts';
import {
  bytesOf,
  chunkOffset,
  chunkSizeFits,
  copyInto,
  createDataFile,
  expectedChunkSize,
  impliedChunkSize,
  range,
  readHead,
  verifyDataFile,
} from './chunk-layout.ts';
import type { Committer } from './commit.ts';
import { ChunkSyncStore, FlushBehind, bootId, flushFile } from './chunk-sync.ts';
import { Semaphore } from './locks.ts';
import { ClientAborted, SESSION_ID, TooLargeError, brokenOff, partialChunkPath, sanitizeFileName, sessionDataPath, sessionDir, type FileHasher, type Received } from '../intake/index.ts';
import { HASH_HEX, targetRepository, toStoredProblem, type Repo, type UploadsContext } from './uploads.context.ts';
import { emptyResult, type BatchResult, type SessionAnswer, type SessionInput, type UploadResult } from './uploads.results.ts';
import type { SessionRow, StoredProblem } from './uploads.store.ts';
import { parseLastModified } from './last-modified.ts';

/** Sessions hashed ahead at once (each holds an open file and a hash state on the worker). */
const MAX_HASHING = 64;

const rm = (p: string) => fs.promises.rm(p, { recursive: true, force: true }).catch(() => undefined);

/** What this process knows of a session beyond its row: never needed for correctness after a restart. */
interface Runtime {
  /** Chunks being received right now. */
  receiving: Set<number>;
  /** Follows the data file over the contiguous received chunks; null: hashed at the end instead. */
  hasher: FileHasher | null;
  /** Chunks [0, cursor) were advanced over. */
  cursor: number;
  /** Flushes of the data file behind the answers (null: not started yet, or flushed before each answer). */
  flush: FlushBehind | null;
}

export class ChunkSessions {
  private readonly finishing: Semaphore;
  private readonly runtimes = new Map<string, Runtime>();
  private readonly syncStore: ChunkSyncStore;
  /** This boot of the machine; null: it cannot be told, so each chunk is flushed before its answer. */
  private readonly boot: string | null = bootId();

  constructor(
    private readonly ctx: UploadsContext,
    private readonly committer: Committer,
  ) {
    this.finishing = new Semaphore(ctx.limits.mergeConcurrency);
    this.syncStore = new ChunkSyncStore(ctx.deps.db);
  }

  /** Creates a chunk session, or resumes one (same id, same file): reports what is already stored. */
  async create(actor: Actor, input: SessionInput): Promise<{ created: boolean; session: SessionAnswer }> {
    const { store, limits, now } = this.ctx;
    const filename = sanitizeFileName(input.filename);
    if (!filename) throw new Invalid('The file name is not usable.', [{ field: 'body.filename', message: 'must be a file name' }], 'bad_file_name');
    if (input.total_size < 1) throw new Invalid('The file is empty: there is nothing to upload.', [{ field: 'body.total_size', message: 'must be at least 1' }], 'empty_file');
    if (input.total_size > limits.maxFileBytes) throw new PayloadTooLarge(`The file is larger than the limit of ${limits.maxFileBytes} bytes.`);
    if (input.total_chunks > Math.min(limits.maxChunks, input.total_size)) {
      throw new Invalid(`A ${input.total_size}-byte file cannot have ${input.total_chunks} chunks.`, [{ field: 'body.total_chunks', message: `must be at most ${Math.min(limits.maxChunks, input.total_size)}` }]);
    }
    if (input.chunk_size !== undefined && !chunkSizeFits(input.total_size, input.total_chunks, input.chunk_size)) {
      throw new Invalid(`${input.total_chunks} chunks of ${input.chunk_size} bytes do not make ${input.total_size} bytes.`, [{ field: 'body.chunk_size', message: 'does not match total_size and total_chunks' }]);
    }
    const clientHash = input.client_hash?.toLowerCase();
    if (clientHash !== undefined && !HASH_HEX.test(clientHash)) throw new Invalid('client_hash must be 64 hexadecimal characters (BLAKE3).', [{ field: 'body.client_hash', message: 'must be 64 hex characters' }]);

    const modified = input.last_modified === undefined ? null : parseLastModified(input.last_modified, 'body.last_modified', now());
    if (input.session_id !== undefined && !SESSION_ID.test(input.session_id)) {
      throw new Invalid('session_id must be 1–64 letters, digits or "-".', [{ field: 'body.session_id', message: 'bad session id' }], 'bad_session_id');
    }
    if (input.session_id) {
      const existing = store.session(input.session_id);
      if (existing) {
        // Another member's session id is refused like an unknown one would be at its chunks.
        this.ctx.deps.access.require(actor, 'upload_session', existing.session_id, 'change');
        if (existing.total_size !== input.total_size || existing.total_chunks !== input.total_chunks || existing.filename !== filename) {
          throw new Conflict('This session belongs to another file (name, size or chunk count differ). Start a new session.', 'session_mismatch');
        }
        return { created: false, session: await this.resume(actor, existing) };
      }
    }
    const repo = targetRepository(this.ctx, input.repository_id);
    const sessionId = input.session_id ?? crypto.randomUUID();
    const receiptId = uuidv7(now());
    const at = now();
    await createDataFile(repo.path, { session_id: sessionId, total_size: input.total_size });
    this.ctx.deps.db.transaction(() => {
      store.insertReceipt({ receipt_id: receiptId, owner_id: actor.userId, file_name: filename, size: input.total_size, status: 'uploading' }, at);
      store.insertSession(
        {
          session_id: sessionId,
          owner_id: actor.userId,
          repository_id: repo.repository_id,
          filename,
          content_type: input.content_type ?? null,
          total_size: input.total_size,
          total_chunks: input.total_chunks,
          chunk_size: input.chunk_size ?? 0,
          client_hash: clientHash ?? null,
          file_modified_time: modified?.time ?? null,
          file_modified_offset_minutes: modified?.offsetMinutes ?? null,
          status: 'pending',
          receipt_id: receiptId,
        },
        at,
      );
    })();
    return { created: true, session: sessionAnswer(store.session(sessionId)!, [], 0, null) };
  }

  /** Progress of the caller's sessions (the given ids, or the active and recent ones). */
  progress(actor: Actor, sessionIds?: string[]) {
    const { store, deps, now, limits } = this.ctx;
    const rows = sessionIds
      ? store.sessions(deps.access.permitted(actor, 'upload_session', sessionIds, 'read'))
      : store.recentSessions(deps.access.scope(actor, 'upload_session', 'read', 's'), now() - limits.stagingMaxAgeMs);
    const sessions = rows.map((s) => {
      const completed = s.status === 'completed' ? range(s.total_chunks) : (JSON.parse(s.received_chunks) as number[]);
      const done = s.status === 'completed' ? s.total_size : s.bytes_received;
      return {
        session_id: s.session_id,
        filename: s.filename,
        status: s.status,
        bytes_done: done,
        bytes_total: s.total_size,
        progress: s.total_size ? done / s.total_size : 0,
        received_chunks: completed.length,
        total_chunks: s.total_chunks,
        completed_chunks: completed,
        last_activity: new Date(s.last_activity).toISOString(),
        receipt_id: s.receipt_id,
        problem: s.problem ? (JSON.parse(s.problem) as StoredProblem) : null,
      };
    });
    const bytesDone = sessions.reduce((a, s) => a + s.bytes_done, 0);
    const bytesTotal = sessions.reduce((a, s) => a + s.bytes_total, 0);
    return {
      sessions,
      summary: {
        total_sessions: sessions.length,
        active_sessions: sessions.filter((s) => s.status === 'pending' || s.status === 'uploading' || s.status === 'merging').length,
        completed_files: sessions.filter((s) => s.status === 'completed').length,
        failed_sessions: sessions.filter((s) => s.status === 'failed').length,
        overall_progress: bytesTotal ? bytesDone / bytesTotal : 0,
      },
    };
  }

  /** One chunk of a session into its data file; the last one to arrive finishes the file. */
  async receiveChunk(actor: Actor, sessionId: string, index: number, total: number, stream: Readable): Promise<BatchResult> {
    const { store } = this.ctx;
    if (!SESSION_ID.test(sessionId)) throw new Invalid('Bad session id.', [{ field: 'body.chunk', message: 'session id must be letters, digits and -' }], 'bad_session_id');
    const s = store.session(this.ctx.deps.access.require(actor, 'upload_session', sessionId, 'change'));
    if (!s) throw sessionNotFound();
    if (total !== s.total_chunks) throw new Invalid(`The session has ${s.total_chunks} chunks, not ${total}.`, [{ field: 'body.chunk', message: 'total does not match the session' }], 'chunk_total_mismatch');
    if (index >= total) throw new Invalid(`Chunk index ${index} is out of range (0..${total - 1}).`, [{ field: 'body.chunk', message: 'index out of range' }], 'chunk_index_out_of_range');
    assertReceiving(s);
    const repo = store.repository(s.repository_id);
    if (!repo) throw new NotFound('The session’s repository no longer exists.', 'repository_not_found');

    await this.ensureDataFile(repo, s);
    // From here to claiming the chunk nothing awaits: another request cannot record or claim it in between.
    const now = store.session(sessionId)!;
    assertReceiving(now);
    const base: BatchResult = { ...emptyResult(sessionId), success: true, status: 'uploading', file_name: s.filename, receipt_id: s.receipt_id, chunk_index: index };
    const had = JSON.parse(now.received_chunks) as number[];
    if (had.includes(index)) {
      const size = await this.repeated(now, index, stream);
      return { ...base, size, received_chunks: had.length, message: `Chunk ${index + 1} of ${total} was already stored.` };
    }
    const rt = this.runtime(sessionId);
    if (rt.receiving.has(index)) {
      stream.resume();
      throw new DomainError(409, 'chunk_in_progress', `Chunk ${index} is being received by another request right now. Retry once it is answered.`, { retryable: true, retryAfterSeconds: 1 });
    }
    rt.receiving.add(index);
    let received: number[];
    let size: number;
    let flushed: boolean;
    try {
      ({ size, flushed } = await this.writeChunk(repo, now, index, stream));
      received = this.record(sessionId, index, flushed ? null : this.boot);
    } finally {
      rt.receiving.delete(index);
    }
    if (!flushed) this.flushBehind(repo, sessionId, rt).written(index);
    this.hashAhead(repo, sessionId, received);
    const answer: BatchResult = { ...base, size, received_chunks: received.length, message: `Chunk ${index + 1} of ${total} stored.` };
    if (received.length < total) return answer;
    const r = await this.finish(actor, store.session(sessionId)!, repo);
    return r ? { ...answer, ...r, success: true, size: r.size } : answer;
  }

  /** Fails idle sessions' runtime state (their rows and files are the cleanup's). */
  async forget(sessionId: string): Promise<void> {
    const rt = this.runtimes.get(sessionId);
    if (!rt) return;
    this.runtimes.delete(sessionId);
    rt.hasher?.drop();
    rt.hasher = null;
  }

  /** Stops hashing ahead (at shutdown), after the flushes under way. */
  async stop(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((rt) => rt.flush?.idle()));
    await Promise.all([...this.runtimes.keys()].map((id) => this.forget(id)));
  }

  /** At start: chunks left unflushed by another boot of the machine no longer count (chunk-sync.ts). */
  dropUnflushedOfOtherBoots(): number {
    return this.syncStore.dropUnflushedOfOtherBoots(this.boot, this.ctx.now());
  }

  // ------------------------------------------------------------------ internals

  private runtime(sessionId: string): Runtime {
    let rt = this.runtimes.get(sessionId);
    if (!rt) {
      rt = { receiving: new Set(), hasher: null, cursor: 0, flush: null };
      this.runtimes.set(sessionId, rt);
    }
    return rt;
  }

  /**
   * A session whose data file is missing (made before the data file existed, or its staging was
   * removed by hand) gets it back, with what can be recovered, before a chunk goes in.
   */
  private async ensureDataFile(repo: Repo, s: SessionRow): Promise<void> {
    if (await fs.promises.stat(sessionDataPath(repo.path, s.session_id)).then(() => true, () => false)) return;
    const { received } = await verifyDataFile(repo.path, s);
    this.ctx.store.setSessionChunks(s.session_id, received, bytesOf(s, received), s.chunk_size, this.ctx.now());
    s.received_chunks = JSON.stringify(received);
  }

  /**
   * Streams the chunk to its offset (or, while the chunk size is unknown, to a side file that is
   * then copied there). Returns its size and whether it is flushed already (else it is flushed
   * behind the answer). Never writes outside the chunk's own region.
   */
  private async writeChunk(repo: Repo, s: SessionRow, index: number, stream: Readable): Promise<{ size: number; flushed: boolean }> {
    const at = chunkOffset(s, index);
    if (at !== null) {
      const expected = expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size, index);
      const flushNow = this.boot === null;
      let got: Received;
      try {
        got = await this.ctx.deps.intake.receive(stream, sessionDataPath(repo.path, s.session_id), expected, { create: false, hash: false, offset: at, sync: flushNow });
      } catch (e) {
        if (e instanceof TooLargeError) throw wrongSize(index, `more than ${expected}`, expected);
        throw e;
      }
      if (got.size !== expected) throw wrongSize(index, String(got.size), expected);
      return { size: got.size, flushed: flushNow };
    }
    // The chunk size is not known yet: the chunk's size tells it (or the first chunk to complete does).
    const partial = partialChunkPath(repo.path, s.session_id, index);
    try {
      const maxBytes = Math.min(s.total_size, this.ctx.limits.maxFileBytes);
      // The side file is removed once copied: only the data file, flushed after the copy, needs the disk.
      const got = await this.ctx.deps.intake.receive(stream, partial, maxBytes, { create: true, hash: false, sync: false });
      const implied = impliedChunkSize(s.total_size, s.total_chunks, index, got.size);
      if (implied === null) throw new Invalid(`Chunk ${index} has ${got.size} bytes, which cannot be part of ${s.total_chunks} chunks making ${s.total_size} bytes.`, [{ field: 'body.chunk', message: 'wrong chunk size' }], 'chunk_size_mismatch');
      const inForce = this.ctx.store.fixChunkSize(s.session_id, implied);
      if (inForce !== implied) throw wrongSize(index, String(got.size), expectedChunkSize(s.total_size, s.total_chunks, inForce, index));
      const fh = await fs.promises.open(sessionDataPath(repo.path, s.session_id), 'r+');
      try {
        await copyInto(partial, fh, index * implied, Buffer.allocUnsafe(1024 * 1024));
        await fh.datasync();
      } finally {
        await fh.close();
      }
      return { size: got.size, flushed: true };
    } finally {
      await rm(partial);
    }
  }

  /** A chunk already received, sent again: read and dropped; refused when its size differs. */
  private async repeated(s: SessionRow, index: number, stream: Readable): Promise<number> {
    const had = expectedChunkSize(s.total_size, s.total_chunks, s.chunk_size, index);
    let size = 0;
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (d: Buffer) => (size += d.length));
      stream.once('end', resolve);
      stream.once('error', () => reject(new ClientAborted()));
      stream.once('close', () => (stream.readableEnded ? resolve() : reject(new ClientAborted())));
      if (brokenOff(stream)) reject(new ClientAborted()); // broke off before we listened: its events are gone
    });
    if (size !== had) throw new Conflict(`Chunk ${index} was already received with ${had} bytes; this one has ${size}.`, 'chunk_conflict');
    return size;
  }

  /**
   * Adds a stored chunk to the session row (written in boot `unflushedIn` and not flushed yet, or
   * null: flushed); returns the received chunks.
   */
  private record(sessionId: string, index: number, unflushedIn: string | null): number[] {
    const { store, now } = this.ctx;
    const s = store.session(sessionId)!;
    assertReceiving(s); // failed or expired meanwhile: the chunk does not count
    const received = JSON.parse(s.received_chunks) as number[];
    if (!received.includes(index)) received.push(index);
    received.sort((a, b) => a - b);
    this.ctx.deps.db.transaction(() => {
      store.setSessionChunks(sessionId, received, bytesOf(s, received), s.chunk_size, now());
      if (unflushedIn) this.syncStore.markUnflushed(sessionId, index, unflushedIn);
    })();
    return received;
  }

  private flushBehind(repo: Repo, sessionId: string, rt: Runtime): FlushBehind {
    rt.flush ??= new FlushBehind(sessionDataPath(repo.path, sessionId), (chunks) => this.ctx.deps.db.open && this.syncStore.markFlushed(sessionId, chunks), this.ctx.log);
    return rt.flush;
  }

  /** Moves the session's hash cursor over the chunks now received contiguously from the start. */
  private hashAhead(repo: Repo, sessionId: string, received: number[]): void {
    const rt = this.runtimes.get(sessionId);
    if (!rt || received[0] !== 0) return;
    let cursor = rt.cursor;
    while (received[cursor] === cursor) cursor++; // received is sorted and unique
    if (cursor === rt.cursor) return;
    if (!rt.hasher) {
      if (rt.cursor > 0 || this.hashingCount() >= MAX_HASHING) return;
      rt.hasher = this.ctx.deps.intake.follow(sessionDataPath(repo.path, sessionId));
    }
    rt.cursor = cursor;
    const s = this.ctx.store.session(sessionId)!;
    rt.hasher.advance(cursor === s.total_chunks ? s.total_size : cursor * s.chunk_size);
  }

  private hashingCount(): number {
    let n = 0;
    for (const rt of this.runtimes.values()) if (rt.hasher) n++;
    return n;
  }

  private async resume(actor: Actor, s: SessionRow): Promise<SessionAnswer> {
    const { store, now } = this.ctx;
    const repo = store.repository(s.repository_id);
    if (!repo) throw new NotFound('The session’s repository no longer exists.', 'repository_not_found');
    if (s.status === 'completed' || s.status === 'failed' || s.status === 'merging') {
      const received = s.status === 'completed' ? range(s.total_chunks) : (JSON.parse(s.received_chunks) as number[]);
      return sessionAnswer(s, received, s.status === 'completed' ? s.total_size : s.bytes_received, null);
    }
    const { received, lost } = await verifyDataFile(repo.path, s);
    if (lost.length) {
      this.ctx.log.warn({ session_id: s.session_id, lost }, 'chunks of an upload session are no longer on disk; they must be sent again');
      const rt = this.runtimes.get(s.session_id);
      if (rt?.hasher && lost.some((i) => i < rt.cursor)) {
        rt.hasher.drop(); // it may have hashed bytes that are gone: hash again at the end
        rt.hasher = null;
        rt.cursor = 0;
      }
    }
    const fresh = store.session(s.session_id)!;
    const merged = [...new Set([...received, ...(JSON.parse(fresh.received_chunks) as number[]).filter((i) => !lost.includes(i))])].sort((a, b) => a - b);
    store.setSessionChunks(s.session_id, merged, bytesOf(fresh, merged), fresh.chunk_size, now());
    let result: UploadResult | null = null;
    if (merged.length === s.total_chunks) {
      try {
        result = await this.finish(actor, store.session(s.session_id)!, repo);
      } catch {
        /* the session now says why (failed, with its problem) */
      }
    }
    const after = store.session(s.session_id)!;
    const afterReceived = after.status === 'completed' ? range(after.total_chunks) : (JSON.parse(after.received_chunks) as number[]);
    return sessionAnswer(after, afterReceived, after.status === 'completed' ? after.total_size : after.bytes_received, result);
  }

  /**
   * All chunks are there: one caller hashes what is left, checks and commits. Returns null when
   * another request is already finishing the session.
   */
  private async finish(actor: Actor, s: SessionRow, repo: Repo): Promise<UploadResult | null> {
    const { store, now, log } = this.ctx;
    if (!store.claimMerge(s.session_id, now())) return null;
    const rt = this.runtimes.get(s.session_id);
    this.runtimes.delete(s.session_id);
    return this.finishing.run(async () => {
      const file = sessionDataPath(repo.path, s.session_id);
      const hashedAhead = rt?.hasher ? rt.cursor : 0;
      let hasher = rt?.hasher ?? null;
      try {
        const started = performance.now();
        const size = (await fs.promises.stat(file)).size;
        if (size !== s.total_size) throw new Invalid(`The chunks make ${size} bytes, not ${s.total_size}.`, [], 'size_mismatch');
        // The whole file is on disk before it is committed (chunks were answered before their flush),
        // and its hash is known: both at once, as a single upload's finish does (sink.ts). The hash
        // reads what is left after the cursor back from the page cache while the flush writes it out;
        // one after the other, the last chunk's answer waited for the sum of the two.
        hasher ??= this.ctx.deps.intake.follow(file);
        const following = hasher;
        const [, digest] = await Promise.all([
          (async () => {
            await rt?.flush?.idle();
            await flushFile(file);
          })(),
          following.digest(s.total_size),
        ]);
        this.syncStore.allFlushed(s.session_id);
        const hash = digest.hex;
        hasher = null;
        const got: Received = { size, hash, head: await readHead(file) };
        log.info({ session_id: s.session_id, bytes: size, chunks_hashed_ahead: hashedAhead, ms: Math.round(performance.now() - started) }, 'upload session hashed');
        const modified = s.file_modified_time === null ? null : { time: s.file_modified_time, offsetMinutes: s.file_modified_offset_minutes };
        const result = await this.committer.finalize(actor, repo, file, got, s.filename, s.receipt_id!, modified, s.client_hash ?? undefined);
        store.finishSession(s.session_id, 'completed', null, now());
        await rm(sessionDir(repo.path, s.session_id));
        return result;
      } catch (e) {
        hasher?.drop();
        const problem = toStoredProblem(e);
        if (problem.status < 500) {
          this.ctx.deps.db.transaction(() => {
            store.finishSession(s.session_id, 'failed', problem, now());
            store.updateReceipt(s.receipt_id!, { status: 'failed', problem }, now());
          })();
          await rm(sessionDir(repo.path, s.session_id));
        } else {
          // Back to uploading: resuming tries again (with the chunks the data file still holds).
          log.error({ err: e, session_id: s.session_id }, 'finishing an upload session failed');
          store.finishSession(s.session_id, 'uploading', problem, now());
          store.updateReceipt(s.receipt_id!, { status: 'uploading', problem }, now());
        }
        throw e;
      }
    });
  }
}

function sessionAnswer(s: SessionRow, received: number[], bytes: number, result: UploadResult | null): SessionAnswer {
  return {
    session_id: s.session_id,
    status: s.status,
    total_chunks: s.total_chunks,
    chunk_size: s.chunk_size || null,
    received_chunks: received,
    bytes_received: bytes,
    receipt_id: s.receipt_id!,
    problem: s.problem ? (JSON.parse(s.problem) as StoredProblem) : null,
    result,
  };
}

export function sessionNotFound(): NotFound {
  return new NotFound('No such upload session.', 'upload_session_not_found');
}

function assertReceiving(s: SessionRow): void {
  if (s.status === 'completed') throw new Conflict('This upload session is already complete.', 'session_completed');
  if (s.status === 'failed') throw new Conflict('This upload session failed; start a new one.', 'session_failed');
  if (s.status === 'merging') throw new Conflict('This upload session is being assembled; it takes no more chunks.', 'session_merging');
}

function wrongSize(index: number, got: string, expected: number): Invalid {
  return new Invalid(`Chunk ${index} has ${got} bytes; it must have ${expected}.`, [{ field: 'body.chunk', message: 'wrong chunk size' }], 'chunk_size_mismatch');
}
