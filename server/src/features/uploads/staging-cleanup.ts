/**
 * The `uploads.clean-staging` job's work: sessions idle past the staging age are failed (their
 * receipts too) and their staging removed; orphan staging files of that age (left by a crash or a
 * killed request) are removed. Nothing is written outside `.hearth/staging/` before a commit, so
 * this is all the tidying uploads need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DomainError } from '../../platform/http/errors.ts';
import type { ChunkSessions } from './chunk-sessions.ts';
import { SESSIONS_DIR, sessionDir, stagingRoot } from '../intake/index.ts';
import { toStoredProblem, type UploadsContext } from './uploads.context.ts';

const rm = (p: string) => fs.promises.rm(p, { recursive: true, force: true }).catch(() => undefined);

export async function cleanupStaging(ctx: UploadsContext, sessions: ChunkSessions): Promise<{ failed_sessions: number; removed_files: number }> {
  const { store, now, log } = ctx;
  const cutoff = now() - ctx.limits.stagingMaxAgeMs;
  let failedSessions = 0;
  let removed = 0;
  for (const s of store.idleSessions(cutoff)) {
    const repo = store.repository(s.repository_id);
    const problem = toStoredProblem(new DomainError(410, 'session_expired', 'The upload session was idle too long; its chunks were removed. Start again.'));
    ctx.deps.db.transaction(() => {
      store.finishSession(s.session_id, 'failed', problem, now());
      if (s.receipt_id) store.updateReceipt(s.receipt_id, { status: 'failed', problem }, now());
    })();
    await sessions.forget(s.session_id);
    if (repo) await rm(sessionDir(repo.path, s.session_id));
    failedSessions++;
  }
  for (const repo of store.allRepositories()) {
    const root = stagingRoot(repo.path);
    const live = store.liveSessionIds(repo.repository_id);
    // `imports/` belongs to the import runs (features/cloud-import tidies it): a run may go on for days. So does
    // `takeout-uploads/`: a 50 GB part from the browser may take longer than the staging age (cloud-import sweeps it).
    removed += await removeOlderThan(root, cutoff, (name) => name !== 'sessions' && name !== 'imports' && name !== 'takeout-uploads');
    const sessionsRoot = path.join(repo.path, SESSIONS_DIR);
    let dirs: string[] = [];
    try {
      dirs = await fs.promises.readdir(sessionsRoot);
    } catch {
      continue;
    }
    for (const d of dirs) {
      if (live.has(d)) {
        // A live session keeps its data; only partial chunks a crash left behind go.
        removed += await removeOlderThan(path.join(sessionsRoot, d), cutoff, (name) => name.endsWith('.partial'));
        continue;
      }
      const st = await fs.promises.stat(path.join(sessionsRoot, d)).catch(() => null);
      if (st && st.mtimeMs < cutoff) {
        await rm(path.join(sessionsRoot, d));
        removed++;
      }
    }
  }
  if (failedSessions || removed) log.info({ failed_sessions: failedSessions, removed_files: removed }, 'upload staging cleaned');
  return { failed_sessions: failedSessions, removed_files: removed };
}

async function removeOlderThan(dir: string, cutoff: number, which: (name: string) => boolean): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of names) {
    if (!which(name)) continue;
    const p = path.join(dir, name);
    const st = await fs.promises.lstat(p).catch(() => null);
    if (st && st.mtimeMs < cutoff) {
      await rm(p);
      n++;
    }
  }
  return n;
}
