/**
 * Reconciliation of asset states with their processing jobs, so that every asset is in a final
 * state (ready, failed) or queued (pending, with a processing job waiting):
 * - while Hearth runs, in the transaction that gives a processing job up (cancelled, discarded after
 *   its last attempt or an expired lease, by any route) or puts it back (retryNow): the queue's
 *   outcome hooks, registered by `settleAssetsWithTheirJobs`;
 * - at start, after the job runner's recovery and before its workers start (`settleInterruptedAssets`),
 *   for catalogs an earlier version left unsettled.
 *
 * Why: the pipeline marks an asset `processing` when its job starts and settles it when the job
 * ends. A crash, a cancel or an expired lease cuts that off; the job goes back to the queue or is
 * given up, and nothing else would settle the asset: it stayed `processing` (until the next start,
 * or forever), its metadata edits answered 409 and stack detection for its repository waited on it.
 */
import type { Db } from '../../../platform/db/connection.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import { ACTIVE_STATES, sqlList, type Job } from '../../../platform/jobs/registry.ts';
import { assetRef, type AssetChangeBus } from '../asset-changes.ts';
import { processAsset } from './assets.jobs.ts';

type AssetKey = { asset_id: string; owner_id: number; repository_id: string };
import { STATUS } from './status-codes.ts';
import { WAITS_FOR_TOOL } from './waiting-for-tools.ts';

const ACTIVE = sqlList(ACTIVE_STATES);
const HAS_UNFINISHED_JOB = `EXISTS (SELECT 1 FROM jobs WHERE kind = @kind AND unique_key = 'process:' || a.asset_id AND state IN (${ACTIVE}))`;

/** Every processing job given up or put back while Hearth runs settles its asset in the same transaction. */
export function settleAssetsWithTheirJobs(db: Db, jobs: JobQueue, changes: AssetChangeBus, now: () => number = Date.now): void {
  const assetOf = (job: Job) => (job.args as { asset_id?: unknown } | null)?.asset_id;
  jobs.onOutcome(processAsset.kind, {
    givenUp: (job) => {
      const id = assetOf(job);
      if (typeof id === 'string') settleAsset(db, jobs, changes, id, now());
    },
    // Run again by hand: the asset is queued again (`asset.requeued`: an upload's receipt is processing again) until
    // the run settles it.
    revived: (job) => {
      const id = assetOf(job);
      if (typeof id !== 'string') return;
      const row = db
        .prepare(`UPDATE assets SET state = 'pending', last_error = NULL, updated_at = @now WHERE asset_id = @id AND state IN ('failed', 'processing') RETURNING asset_id, owner_id, repository_id`)
        .get({ now: now(), id }) as AssetKey | undefined;
      if (row) changes.emit('asset.requeued', assetRef(row));
    },
  });
}

/**
 * Settles one asset that is `pending` or `processing` with no unfinished processing job (others are
 * left alone): its last job was discarded or cancelled → `failed` with that job's reason (and its
 * receipt); no job at all (or one that completed without settling it) → a new processing job.
 */
function settleAsset(db: Db, jobs: JobQueue, changes: AssetChangeBus, assetId: string, now: number): 'failed' | 'requeued' | null {
  const o = db
    .prepare(
      `SELECT a.asset_id, a.owner_id, a.repository_id,
         (SELECT json_object('state', j.state, 'last_error', j.last_error, 'receipt_id', json_extract(j.args, '$.receipt_id'))
          FROM jobs j WHERE j.kind = @kind AND j.unique_key = 'process:' || a.asset_id ORDER BY j.id DESC LIMIT 1) AS last_job
       FROM assets a
       WHERE a.asset_id = @id AND a.state IN ('pending', 'processing') AND NOT ${HAS_UNFINISHED_JOB}`,
    )
    .get({ kind: processAsset.kind, id: assetId }) as (AssetKey & { last_job: string | null }) | undefined;
  if (!o) return null;
  const last = o.last_job ? (JSON.parse(o.last_job) as { state: string; last_error: string | null; receipt_id: string | null }) : null;
  if (last && (last.state === 'discarded' || last.state === 'cancelled')) {
    const reason = last.state === 'cancelled' ? 'Processing was cancelled.' : (last.last_error ?? 'Processing stopped and was not retried.');
    db.prepare(`UPDATE assets SET state = 'failed', status = @status, last_error = @reason, updated_at = @now WHERE asset_id = @id`).run({
      status: JSON.stringify([STATUS.indexed, STATUS.failedTool]),
      reason,
      now,
      id: o.asset_id,
    });
    changes.emit('asset.failed', { ...assetRef(o), reason, retryable: true });
    return 'failed';
  }
  db.prepare(`UPDATE assets SET state = 'pending', updated_at = @now WHERE asset_id = @id`).run({ now, id: o.asset_id });
  jobs.enqueue(processAsset, { asset_id: o.asset_id, receipt_id: last?.receipt_id ?? null }, { uniqueKey: `process:${o.asset_id}`, ownerId: o.owner_id });
  return 'requeued';
}

/**
 * At start: `processing` with a job waiting → `pending` (nothing runs at start: it is queued, not
 * running); `pending`/`processing` with no unfinished job → settled as `settleAsset` says.
 */
export function settleInterruptedAssets(db: Db, jobs: JobQueue, changes: AssetChangeBus, now: number): { queued: number; failed: number; requeued: number } {
  return db
    .transaction(() => {
      const queued = db
        .prepare(`UPDATE assets AS a SET state = 'pending', updated_at = @now WHERE a.state = 'processing' AND ${HAS_UNFINISHED_JOB}`)
        .run({ now, kind: processAsset.kind }).changes;
      const orphans = db
        // Files waiting for ffprobe/ffmpeg are queued only once the tools are there (waiting-for-tools.ts).
        .prepare(`SELECT a.asset_id FROM assets a WHERE a.state IN ('pending', 'processing') AND NOT ${HAS_UNFINISHED_JOB} AND NOT ${WAITS_FOR_TOOL}`)
        .pluck()
        .all({ kind: processAsset.kind }) as string[];
      let failed = 0;
      let requeued = 0;
      for (const id of orphans) {
        const outcome = settleAsset(db, jobs, changes, id, now);
        if (outcome === 'failed') failed++;
        else if (outcome === 'requeued') requeued++;
      }
      return { queued, failed, requeued };
    })
    .immediate();
}
