/**
 * The Trash beyond the contract's soft delete (deleteAsset) and restore (restoreAsset): what is in it,
 * deleting items for good ("Delete permanently", "Empty trash") and the retention period after which
 * items go by themselves. Extension operations (server/operations.extensions.md): the original system
 * had no permanent delete; issue 12 asks for one.
 *
 * Decisions (gaps in the contract):
 * - Only the owner deletes for good, and only their items in the Trash (access permission `own`):
 *   someone else's asset answers 404 naming the field (403 `asset_read_only` when it is shared with the
 *   caller), one not in the Trash 409 `asset_not_in_trash` naming it; in both cases nothing is deleted.
 * - A Trash tile stands for a media item: deleting one asset deletes the other components of its item
 *   that are in the Trash with it (the RAW of a RAW+JPEG pair, the clip of a live photo). Components
 *   still in the library are never touched: the library keeps showing them.
 * - Emptying the Trash carries the count the person confirmed (`expected_count`): if the Trash holds
 *   a different number of files by then (something was trashed or restored in another tab), nothing is
 *   deleted and 409 `trash_changed` names the field, so nothing goes that was not confirmed.
 * - Files are removed from the household's folder (permanent-deletion.ts); failures are reported per
 *   asset and keep their row.
 * - Retention (`trash.retention_days` of the system settings, default 30, 0 = keep): an hourly job
 *   deletes, for every member, what went to the Trash longer ago than that, whatever the reason it went
 *   there (deleted by a person, or its file went missing).
 */
import type { Access } from '../../../platform/access/index.ts';
import type { SettingsStore } from '../../../config/settings.ts';
import type { Actor } from '../../../platform/http/context.ts';
import { DomainError } from '../../../platform/http/errors.ts';
import type { Logger } from '../../../platform/logger.ts';
import { AssetsStore } from '../assets.store.ts';
import type { PermanentDeletion, DeletionOutcome } from './permanent-deletion.ts';
import type { TrashStore } from './trash.store.ts';

const DAY_MS = 86_400_000;
/** At most this many files per retention run (the next hourly run goes on). */
const PURGE_BATCH = 5_000;

export class TrashService {
  private timer: NodeJS.Timeout | null = null;
  private first: NodeJS.Timeout | null = null;

  constructor(
    private readonly assets: AssetsStore,
    private readonly store: TrashStore,
    private readonly access: Access,
    private readonly settings: Pick<SettingsStore, 'section'>,
    private readonly deletion: PermanentDeletion,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  summary(actor: Actor) {
    const { count, oldest } = this.store.summary(actor.userId);
    const days = this.settings.section('trash').retention_days;
    return {
      count,
      retention_days: days,
      oldest_deleted_at: oldest === null ? null : new Date(oldest).toISOString(),
      next_deletion_at: oldest === null || days === 0 ? null : new Date(oldest + days * DAY_MS).toISOString(),
    };
  }

  deletePermanently(actor: Actor, assetIds: readonly string[]): DeletionOutcome {
    const ids = [...new Set(assetIds.map((id) => id.toLowerCase()))];
    const fieldOf = (id: string) => `body.asset_ids.${assetIds.findIndex((x) => x.toLowerCase() === id)}`;
    const permitted = this.access.requireAll(actor, 'asset', ids, 'own', (i) => fieldOf(ids[i]!));
    const rows = this.assets.byIds(permitted);
    const live = rows.filter((r) => !r.is_deleted);
    if (live.length) {
      throw new DomainError(409, 'asset_not_in_trash', `Only items in the Trash can be deleted permanently; move ${live.length === 1 ? 'it' : 'them'} to the Trash first. Nothing was deleted.`, {
        errors: live.map((r) => ({ field: fieldOf(r.asset_id), message: `${r.original_filename} is not in the Trash` })),
      });
    }
    const companions = this.store.trashedCompanions(permitted);
    const outcome = this.deletion.run([...rows, ...companions], 'user');
    this.log.info({ by: actor.userId, deleted: outcome.deleted.length, failed: outcome.failed.length }, 'deleted permanently from the Trash');
    return outcome;
  }

  empty(actor: Actor, expectedCount: number): DeletionOutcome {
    const rows = this.store.allOf(actor.userId);
    if (rows.length !== expectedCount) {
      throw new DomainError(
        409,
        'trash_changed',
        `The Trash now holds ${rows.length} file${rows.length === 1 ? '' : 's'}, not the ${expectedCount} you confirmed; nothing was deleted. Look again and confirm.`,
        { errors: [{ field: 'body.expected_count', message: `the Trash holds ${rows.length}` }] },
      );
    }
    const outcome = this.deletion.run(rows, 'user');
    this.log.info({ by: actor.userId, deleted: outcome.deleted.length, failed: outcome.failed.length }, 'Trash emptied');
    return outcome;
  }

  /** The retention job: deletes what went to the Trash longer ago than the retention period. */
  purgeExpired(): { retention_days: number; deleted: number; failed: number } {
    const days = this.settings.section('trash').retention_days;
    if (days === 0) return { retention_days: 0, deleted: 0, failed: 0 };
    const rows = this.store.trashedBefore(this.now() - days * DAY_MS, PURGE_BATCH);
    const outcome = this.deletion.run(rows, 'retention');
    if (rows.length) this.log.info({ retention_days: days, deleted: outcome.deleted.length, failed: outcome.failed.length }, 'Trash retention: expired items deleted');
    return { retention_days: days, deleted: outcome.deleted.length, failed: outcome.failed.length };
  }

  /** Queues the retention job a minute after start, then hourly (the job is unique: never two at once). */
  startRetention(enqueue: () => void, everyMs = 3_600_000): void {
    const tick = () => {
      try {
        enqueue();
      } catch (e) {
        this.log.warn({ err: e }, 'could not queue the Trash retention job');
      }
    };
    this.first = setTimeout(tick, 60_000);
    this.first.unref();
    this.timer = setInterval(tick, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.first) clearTimeout(this.first);
    if (this.timer) clearInterval(this.timer);
    this.first = this.timer = null;
  }
}
