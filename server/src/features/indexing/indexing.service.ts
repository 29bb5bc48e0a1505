/**
 * Asset index rebuilds and indexing stats.
 *
 * `rebuildAssetIndex` (admin) queues one `indexing.rebuild` job; that job picks up to `limit` assets
 * per requested task (newest first; with `missing_only`, only assets without an index entry for the
 * task) and queues one `indexing.index-asset` job per asset and task on the `ml` queue. The answer's
 * `receipt_id` is the rebuild job's id: getJob follows it, its result counts what it queued.
 *
 * Decisions where the contract is silent:
 * - No `tasks` means every enabled task; tasks turned off in the `ml` settings are reported in
 *   `disabled_tasks` and skipped. When every requested task is off, nothing can be queued: 409
 *   `index_tasks_disabled` rather than a receipt for no work.
 * - `reset_semantic` with `repository_id` is rejected (422 naming `body.reset_semantic`): the reset is
 *   global by contract. A reset without `semantic` in `tasks` is rejected (422 naming `body.tasks`).
 *   A reset wipes the semantic entries when the rebuild job runs, not before the answer.
 * - An unknown `repository_id` is 422 naming the field (it is a reference in the body, not the path).
 * - Stats: administrators see the whole installation (they run the index); members see counts over
 *   their own assets. Counts never reveal assets themselves.
 */
import type { SettingsStore } from '../../config/settings.ts';
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { Conflict, Invalid } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { ACTIVE_STATES, SnoozeError, sqlList, type JobContext } from '../../platform/jobs/registry.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { resolveInRepository } from '../assets/index.ts';
import type { RepositoriesService, RepositoryLookup } from '../repositories/index.ts';
import { INDEX_TASKS, INDEX_TASK_INFO, SEMANTIC_TASKS, isTaskEnabled, type IndexTask } from './index-tasks.ts';
import type { IndexerRegistry } from './indexers.ts';
import { indexAsset, rebuildIndex, type RebuildArgs } from './indexing.jobs.ts';

export interface RebuildRequest {
  limit: number;
  missing_only: boolean;
  repository_id: string | null;
  reset_semantic: boolean;
  tasks: IndexTask[] | undefined;
}

const ACTIVE = sqlList(ACTIVE_STATES);
/** How long an index job without a model waits before it looks again. */
const INDEX_WAIT_MS = 3_600_000;

export class IndexingService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
    private readonly settings: Pick<SettingsStore, 'section'>,
    private readonly repositories: RepositoryLookup & Pick<RepositoriesService, 'byId'>,
    readonly indexers: IndexerRegistry,
  ) {}

  requestRebuild(actor: Actor, req: RebuildRequest) {
    const requested: IndexTask[] = req.tasks ? [...new Set(req.tasks)] : [...INDEX_TASKS];
    if (req.reset_semantic && req.repository_id) {
      throw new Invalid('A semantic reset wipes every semantic vector; it cannot be limited to one repository.', [
        { field: 'body.reset_semantic', message: 'cannot be combined with repository_id' },
      ], 'semantic_reset_not_scopable');
    }
    if (req.reset_semantic && !requested.includes('semantic')) {
      throw new Invalid('A semantic reset must rebuild the semantic index: include "semantic" in tasks.', [
        { field: 'body.tasks', message: 'must include "semantic" when reset_semantic is true' },
      ], 'semantic_reset_needs_semantic');
    }
    // A named exception to RepositoryLookup.require: an unknown repository in this body answered 422 and still does.
    if (req.repository_id && !this.repositories.exists(req.repository_id)) {
      throw new Invalid('No such repository.', [{ field: 'body.repository_id', message: 'unknown repository' }], 'repository_not_found');
    }
    const disabled = requested.filter((t) => !isTaskEnabled(this.settings, t));
    const tasks = requested.filter((t) => !disabled.includes(t));
    if (!tasks.length) {
      throw new Conflict(`Every requested task is turned off in the ML settings (${disabled.join(', ')}).`, 'index_tasks_disabled');
    }
    const args: RebuildArgs = {
      tasks,
      limit: req.limit,
      missing_only: req.missing_only,
      repository_id: req.repository_id,
      reset_semantic: req.reset_semantic,
    };
    const { job } = this.jobs.enqueue(rebuildIndex, args, { ownerId: actor.userId });
    const waiting = tasks.filter((t) => !this.indexers.available(t));
    return {
      status: 'queued' as const,
      receipt_id: String(job.id),
      requested_tasks: requested,
      disabled_tasks: disabled,
      limit: req.limit,
      missing_only: req.missing_only,
      repository_id: req.repository_id,
      message:
        `Queued a rebuild of ${tasks.join(', ')} for up to ${req.limit} assets per task` +
        (req.reset_semantic ? ', after wiping the semantic index' : '') +
        '.' +
        (waiting.length ? ` No model is installed yet for ${waiting.join(', ')}: those jobs wait until one is.` : ''),
    };
  }

  /** The `indexing.rebuild` job: optional reset, then one index job per picked asset and task. */
  runRebuild(args: RebuildArgs, ctx: Pick<JobContext, 'progress'>) {
    const queued: Record<string, number> = {};
    this.db
      .transaction(() => {
        if (args.reset_semantic) {
          for (const t of SEMANTIC_TASKS) this.indexers.get(t)?.reset?.();
          this.db.prepare(`DELETE FROM asset_index_entries WHERE task IN (${sqlList(SEMANTIC_TASKS)})`).run();
        }
        args.tasks.forEach((task, i) => {
          const ids = this.pick(task, args);
          const results = this.jobs.enqueueMany(
            indexAsset,
            ids.map((asset_id) => ({ args: { asset_id, task } })),
          );
          queued[task] = results.filter((r) => r.inserted).length;
          ctx.progress((i + 1) / args.tasks.length, `${task}: ${queued[task]} queued`);
        });
      })
      .immediate();
    return { queued };
  }

  /**
   * The `indexing.index-asset` job. Without a model (or with the task turned off) the job waits as
   * `scheduled`, its reason shown, and tries again later: never failed for lack of a model.
   */
  async runIndexAsset(args: { asset_id: string; task: IndexTask }, ctx: Pick<JobContext, 'signal'>) {
    const asset = this.db.prepare('SELECT asset_id, type, repository_id, storage_path, is_deleted FROM assets WHERE asset_id = ?').get(args.asset_id) as
      | { asset_id: string; type: 'PHOTO' | 'VIDEO' | 'AUDIO'; repository_id: string; storage_path: string; is_deleted: number }
      | undefined;
    if (!asset || asset.is_deleted) return { skipped: 'asset deleted' };
    if (!isTaskEnabled(this.settings, args.task)) {
      throw new SnoozeError(INDEX_WAIT_MS, `Waiting: ${INDEX_TASK_INFO[args.task].label} is turned off in the ML settings.`);
    }
    if (!this.indexers.available(args.task)) await this.indexers.settled();
    const indexer = this.indexers.get(args.task);
    if (!indexer) throw new SnoozeError(INDEX_WAIT_MS, `Waiting: no model is installed for ${INDEX_TASK_INFO[args.task].label}.`);
    const repo = this.repositories.byId(asset.repository_id);
    if (!repo) return { skipped: 'repository removed' };
    await indexer.index({ asset_id: asset.asset_id, type: asset.type, file: resolveInRepository(repo.path, asset.storage_path) }, ctx.signal);
    this.db
      .prepare(
        `INSERT INTO asset_index_entries (asset_id, task, model_id, indexed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (asset_id, task) DO UPDATE SET model_id = excluded.model_id, indexed_at = excluded.indexed_at`,
      )
      .run(asset.asset_id, args.task, indexer.modelId, Date.now());
    return { indexed: indexer.modelId };
  }

  /**
   * After processing (`asset.ready`: new, replaced or reprocessed content), one index job per task that
   * applies to the asset's type, is turned on and has its model: work is queued with the change, in its
   * transaction. Tasks without a model queue nothing here (their assets are picked by a rebuild once a model
   * is installed, `missing_only`), so a library without models fills no queue with jobs that can only wait.
   */
  afterAssetReady(e: { asset_id: string }): void {
    // Every asset of an import passes here: with no task on (models off or missing) the catalog is not read.
    const on = INDEX_TASKS.filter((t) => this.indexers.available(t) && isTaskEnabled(this.settings, t));
    if (on.length === 0) return;
    const row = prepared(this.db, 'SELECT type FROM assets WHERE asset_id = ? AND is_deleted = 0').get(e.asset_id) as { type: string } | undefined;
    if (!row) return;
    const tasks = on.filter((t) => INDEX_TASK_INFO[t].assetType === row.type);
    if (tasks.length) this.jobs.enqueueMany(indexAsset, tasks.map((task) => ({ args: { asset_id: e.asset_id, task } })));
  }

  /**
   * Runs now the jobs of `task` that were waiting for its model (called when its indexer is registered), so
   * they do not sit out the rest of their wait.
   */
  wakeWaiting(task: IndexTask): number {
    const n = this.db
      .prepare(
        `UPDATE jobs SET run_at = @now WHERE kind = '${indexAsset.kind}' AND state = 'scheduled' AND json_extract(args, '$.task') = @task AND run_at > @now`,
      )
      .run({ task, now: Date.now() }).changes;
    if (n) this.jobs.wake(indexAsset.queue);
    return n;
  }

  private pick(task: IndexTask, args: RebuildArgs): string[] {
    const where = [`a.type = @type`, `a.is_deleted = 0`, `a.state = 'ready'`];
    if (args.repository_id) where.push('a.repository_id = @repo');
    if (args.missing_only) where.push('NOT EXISTS (SELECT 1 FROM asset_index_entries e WHERE e.asset_id = a.asset_id AND e.task = @task)');
    const rows = this.db
      .prepare(`SELECT a.asset_id FROM assets a WHERE ${where.join(' AND ')} ORDER BY a.upload_time DESC, a.asset_id DESC LIMIT @limit`)
      .all({ type: INDEX_TASK_INFO[task].assetType, repo: args.repository_id, task, limit: args.limit }) as { asset_id: string }[];
    return rows.map((r) => r.asset_id);
  }

  stats(actor: Actor, repositoryId: string | undefined) {
    if (repositoryId) this.repositories.require(repositoryId);
    const scope = ['a.is_deleted = 0'];
    if (actor.role !== 'admin') scope.push('a.owner_id = @owner');
    if (repositoryId) scope.push('a.repository_id = @repo');
    const params = { owner: actor.userId, repo: repositoryId ?? null };
    const inScope = scope.join(' AND ');

    const totals = this.db
      .prepare(`SELECT count(*) FILTER (WHERE a.type = 'PHOTO') AS photos, count(*) FILTER (WHERE a.type = 'VIDEO') AS videos FROM assets a WHERE ${inScope}`)
      .get(params) as { photos: number; videos: number };
    const indexed = new Map(
      (
        this.db
          .prepare(`SELECT e.task, count(*) AS n FROM asset_index_entries e JOIN assets a ON a.asset_id = e.asset_id WHERE ${inScope} GROUP BY e.task`)
          .all(params) as { task: string; n: number }[]
      ).map((r) => [r.task, r.n]),
    );
    const queued = new Map(
      (
        this.db
          .prepare(
            `SELECT json_extract(j.args, '$.task') AS task, count(*) AS n FROM jobs j
               JOIN assets a ON a.asset_id = json_extract(j.args, '$.asset_id')
              WHERE j.kind = '${indexAsset.kind}' AND j.state IN (${ACTIVE}) AND ${inScope}
              GROUP BY 1`,
          )
          .all(params) as { task: string; n: number }[]
      ).map((r) => [r.task, r.n]),
    );
    const rebuilds = this.db.prepare(`SELECT count(*) AS n FROM jobs WHERE kind = '${rebuildIndex.kind}' AND state IN (${ACTIVE})`).get() as { n: number };

    const tasks = Object.fromEntries(
      INDEX_TASKS.map((t) => [
        t,
        {
          indexed_count: indexed.get(t) ?? 0,
          queued_jobs: queued.get(t) ?? 0,
          total_count: INDEX_TASK_INFO[t].assetType === 'PHOTO' ? totals.photos : totals.videos,
        },
      ]),
    ) as Record<IndexTask, { indexed_count: number; queued_jobs: number; total_count: number }>;
    return { photo_total: totals.photos, video_total: totals.videos, reindex_jobs: rebuilds.n, tasks };
  }
}
