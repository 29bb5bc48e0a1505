/**
 * What the last stop (a crash, a kill -9, a power cut) left of uploads, settled when the server
 * starts, before it answers anything. At that moment no request is running, so nothing in staging
 * belongs to a request any more; only live chunk sessions (resumable by their clients) keep files.
 *
 * Before these, chunks of live sessions that were answered but not yet flushed when the machine
 * itself went down (another boot) stop counting (chunk-sync.ts): their clients send them again.
 *
 * In order (all synchronous, at construction of the uploads feature):
 *   1. commit records of uploads (features/intake/commits.store.ts): an upload whose file is at its name with its size was
 *      committed: it is catalogued for its uploader (step 5, after start). One whose file never got
 *      there is forgotten (its receipt fails in step 4, or its session goes on).
 *      A committed chunk session is completed: it must not be resumed into a second copy.
 *   2. every file in `.hearth/staging/` outside live sessions is removed (partial single uploads,
 *      batch files, data files of sessions that ended);
 *   3. live sessions keep their data file; chunks that were arriving (`*.partial`) are removed;
 *   4. receipts still `uploading` that neither a live session nor a committed upload continues are
 *      failed with the stable code `upload_interrupted` (retryable: send the file again).
 *   5. (async, `catalogueCommitted`) the committed uploads of step 1 go through the door, whose catalog
 *      write gives them to their uploader (it claims the record); the receipt follows. A scan or the
 *      watcher reaching the same file first does the same (the writer claims the record whoever writes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DomainError } from '../../platform/http/errors.ts';
import { SESSIONS_DIR, stagingRoot, type CommitRecord, type IntakeCommits } from '../intake/index.ts';
import { toStoredProblem, type UploadsContext } from './uploads.context.ts';

/** The problem kept on a receipt whose upload the server's stop cut off (clients may show `code`). */
export function interruptedProblem() {
  return toStoredProblem(
    new DomainError(503, 'upload_interrupted', 'The server stopped before this upload was complete; nothing was kept. Send the file again.', { retryable: true }),
  );
}

export interface UploadsRecovery {
  /** Committed uploads still to be catalogued (step 5). */
  committed: CommitRecord[];
  removedStagingEntries: number;
  failedReceipts: number;
  completedSessions: number;
}

export function settleInterruptedUploads(ctx: UploadsContext, intents: IntakeCommits): UploadsRecovery {
  const { store, now } = ctx;
  const db = ctx.deps.db;
  const at = now();
  const committed: CommitRecord[] = [];
  let completedSessions = 0;

  // 1. Commit records of uploads (the door recovers other sources' itself).
  for (const i of intents.all('upload')) {
    const repo = store.repository(i.repository_id);
    const abs = repo ? path.join(repo.path, ...i.rel_path.split('/')) : null;
    const st = abs ? statOrNull(abs) : null;
    if (abs && st?.isFile() && st.size === i.size) {
      committed.push(i);
      const session = db.prepare(`SELECT session_id FROM upload_sessions WHERE receipt_id = ? AND status IN ('pending', 'uploading', 'merging')`)
        .get(i.ref) as
        | { session_id: string }
        | undefined;
      if (session) {
        store.finishSession(session.session_id, 'completed', null, at);
        completedSessions++;
      }
      continue;
    }
    // The no-hard-link commit reserves the name with an empty file first: that placeholder is ours.
    if (abs && st?.isFile() && st.size === 0) fs.rmSync(abs, { force: true });
    intents.drop(i.ref);
  }

  // 2 and 3. Staging.
  let removed = 0;
  for (const repo of store.allRepositories()) {
    const root = stagingRoot(repo.path);
    for (const name of readdirOrEmpty(root)) {
      if (name === 'sessions') continue;
      fs.rmSync(path.join(root, name), { recursive: true, force: true });
      removed++;
    }
    const live = store.liveSessionIds(repo.repository_id);
    const sessionsRoot = path.join(repo.path, SESSIONS_DIR);
    for (const dir of readdirOrEmpty(sessionsRoot)) {
      const p = path.join(sessionsRoot, dir);
      if (!live.has(dir)) {
        fs.rmSync(p, { recursive: true, force: true });
        removed++;
        continue;
      }
      for (const name of readdirOrEmpty(p)) {
        if (!name.endsWith('.partial')) continue;
        fs.rmSync(path.join(p, name), { force: true });
        removed++;
      }
    }
  }

  // 4. Receipts nobody continues.
  const problem = JSON.stringify(interruptedProblem());
  const failed = db
    .prepare(
      `UPDATE upload_receipts SET status = 'failed', problem = @problem, updated_at = @at
       WHERE status = 'uploading'
         AND receipt_id NOT IN (SELECT ref FROM intake_commits WHERE source = 'upload')
         AND receipt_id NOT IN (SELECT receipt_id FROM upload_sessions WHERE receipt_id IS NOT NULL AND status IN ('pending', 'uploading', 'merging'))`,
    )
    .run({ problem, at }).changes;

  if (committed.length || removed || failed || completedSessions) {
    ctx.log.warn(
      { committed_uploads: committed.length, removed_staging_entries: removed, failed_receipts: failed, completed_sessions: completedSessions },
      'uploads interrupted by the last stop were settled',
    );
  }
  return { committed, removedStagingEntries: removed, failedReceipts: failed, completedSessions };
}

/** Step 5: catalogues committed uploads for their uploaders. Never throws (each failure is logged). */
export async function catalogueCommitted(ctx: UploadsContext, intents: IntakeCommits, committed: readonly CommitRecord[]): Promise<void> {
  const { store, now, log } = ctx;
  for (const i of committed) {
    try {
      if (!ctx.deps.db.open) return;
      const repo = store.repository(i.repository_id);
      if (!repo) continue;
      const abs = path.join(repo.path, ...i.rel_path.split('/'));
      // Same size is not enough: the link may never have happened and another file be at that name.
      const hash = await fs.promises
        .stat(abs)
        .then((st) => ctx.deps.intake.hashFile(abs, st.size))
        .then((h) => h.hash, () => null);
      if (!ctx.deps.db.open) return;
      if (!intents.get(i.ref)) continue; // already catalogued meanwhile (by a scan or the watcher)
      if (hash !== i.content_hash) {
        const problem = interruptedProblem();
        ctx.deps.db.transaction(() => {
          intents.drop(i.ref);
          store.updateReceipt(i.ref, { status: 'failed', problem }, now());
          ctx.deps.db.prepare(`UPDATE upload_sessions SET status = 'failed', problem = ? WHERE receipt_id = ?`).run(JSON.stringify(problem), i.ref);
        })();
        continue;
      }
      // The writer claims the record: owner, name and receipt come from it.
      const out = await ctx.deps.door.admit({ source: 'upload', ownerId: i.owner_id, repository: repo, file: { kind: 'in-place', relPath: i.rel_path, hash }, ref: i.ref });
      if (!ctx.deps.db.open) return;
      intents.drop(i.ref);
      if ('assetId' in out) settleReceipt(ctx, i.ref, out.assetId);
      else store.updateReceipt(i.ref, { status: 'failed', problem: toStoredProblem(new DomainError(415, 'unsupported_media_type', `${i.original_filename} cannot be catalogued: ${out.reason}.`)) }, now());
      log.info({ receipt_id: i.ref, outcome: out.outcome }, 'an upload committed before the last stop was catalogued for its uploader');
    } catch (e) {
      if (ctx.deps.db.open) log.error({ err: e, receipt_id: i.ref }, 'cataloguing an upload committed before the last stop failed');
    }
  }
}

/**
 * A committed upload is now the asset `assetId`: its receipt follows its asset from here (the pipeline completes it);
 * a terminal one stays as it is. Called in the catalog write's transaction (the change `commit` of asset.ingested or
 * asset.moved, wired in the composition root) and by start-up recovery.
 */
export function settleReceipt(ctx: Pick<UploadsContext, 'store' | 'now'>, receiptId: string, assetId: string): void {
  ctx.store.settleReceipt(receiptId, assetId, ctx.now());
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

function readdirOrEmpty(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
