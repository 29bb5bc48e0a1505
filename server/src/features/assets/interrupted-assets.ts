/**
 * Start-up reconciliation of asset states with their processing jobs, after the job runner's
 * recovery and before its workers start: every asset leaves it in a final state (ready, failed) or
 * queued (pending, with a processing job waiting).
 *
 * Why: the pipeline marks an asset `processing` when its job starts and settles it when the job
 * ends. A crash cuts that off; the job goes back to the queue, or, cut off by too many crashes, is
 * discarded by the runner, and nothing else would ever settle the asset: it stayed `processing`
 * forever, its metadata edits answered 409 and stack detection for its repository waited on it.
 *
 * - `processing` with a job waiting → `pending` (nothing runs at start: it is queued, not running);
 * - `pending`/`processing` with no unfinished job:
 *     its last job was discarded or cancelled → `failed` with that job's reason (and its receipt);
 *     no job at all (or one that completed without settling it) → a new processing job.
 */
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { ACTIVE_STATES, sqlList } from '../../platform/jobs/registry.ts';
import { processAsset } from './assets.jobs.ts';
import { STATUS } from './status-codes.ts';

const ACTIVE = sqlList(ACTIVE_STATES);

export function settleInterruptedAssets(db: Db, jobs: JobQueue, now: number): { queued: number; failed: number; requeued: number } {
  return db
    .transaction(() => {
      const queued = db
        .prepare(
          `UPDATE assets SET state = 'pending', updated_at = @now
           WHERE state = 'processing' AND EXISTS (
             SELECT 1 FROM jobs WHERE kind = @kind AND unique_key = 'process:' || assets.asset_id AND state IN (${ACTIVE}))`,
        )
        .run({ now, kind: processAsset.kind }).changes;
      const orphans = db
        .prepare(
          `SELECT a.asset_id, a.owner_id,
             (SELECT json_object('state', j.state, 'last_error', j.last_error, 'receipt_id', json_extract(j.args, '$.receipt_id'))
              FROM jobs j WHERE j.kind = @kind AND j.unique_key = 'process:' || a.asset_id ORDER BY j.id DESC LIMIT 1) AS last_job
           FROM assets a
           WHERE a.state IN ('pending', 'processing') AND NOT EXISTS (
             SELECT 1 FROM jobs WHERE kind = @kind AND unique_key = 'process:' || a.asset_id AND state IN (${ACTIVE}))`,
        )
        .all({ kind: processAsset.kind }) as { asset_id: string; owner_id: number; last_job: string | null }[];
      let failed = 0;
      let requeued = 0;
      for (const o of orphans) {
        const last = o.last_job ? (JSON.parse(o.last_job) as { state: string; last_error: string | null; receipt_id: string | null }) : null;
        if (last && (last.state === 'discarded' || last.state === 'cancelled')) {
          const reason = last.state === 'cancelled' ? 'Processing was cancelled.' : (last.last_error ?? 'Processing stopped and was not retried.');
          db.prepare(`UPDATE assets SET state = 'failed', status = @status, last_error = @reason, updated_at = @now WHERE asset_id = @id`).run({
            status: JSON.stringify([STATUS.indexed, STATUS.failedTool]),
            reason,
            now,
            id: o.asset_id,
          });
          if (last.receipt_id) {
            const problem = { type: 'urn:hearth:problem:processing_failed', title: 'Processing failed', status: 422, detail: reason, code: 'processing_failed', retryable: true };
            db.prepare(
              `UPDATE upload_receipts SET status = 'failed', asset_id = @asset, problem = @problem, updated_at = @now
               WHERE receipt_id = @id AND status NOT IN ('completed', 'duplicate', 'failed')`,
            ).run({ asset: o.asset_id, problem: JSON.stringify(problem), now, id: last.receipt_id });
          }
          failed++;
        } else {
          db.prepare(`UPDATE assets SET state = 'pending', updated_at = @now WHERE asset_id = @id`).run({ now, id: o.asset_id });
          jobs.enqueue(processAsset, { asset_id: o.asset_id, receipt_id: last?.receipt_id ?? null }, { uniqueKey: `process:${o.asset_id}`, ownerId: o.owner_id });
          requeued++;
        }
      }
      return { queued, failed, requeued };
    })
    .immediate();
}
