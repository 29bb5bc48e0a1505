/**
 * Stacks of media items: bursts detected at ingest and on request, manual stacks (see stacks.routes.ts).
 *
 * Rules: a stack belongs to one owner and groups that owner's media items (a media item is in at most
 * one stack); positions are 0..n-1; the cover is the first member unless one was chosen; a stack of
 * fewer than 2 members dissolves. Everything answers 404 for another user's asset, administrators
 * included (photos are private to their owner).
 *
 * Decisions where the contract is silent:
 * - createStack moves items that are already in another stack (rather than 409): making a stack is an
 *   explicit request, and the stack they leave is repaired (dissolved when one member is left).
 *   Assets in the Trash (409 `asset_in_trash`) and assets not processed yet (409 `asset_not_ready`,
 *   they have no media item) cannot be stacked. A RAW and its JPEG are one item and count once.
 * - removeAssetFromStack on an item in no stack answers 404 `stack_not_found` (like removing a tag
 *   that is not there).
 * - A detected burst that someone takes apart stays apart: its group key is kept (see stacks.store.ts)
 *   and detection does not create it again.
 * - Members whose files are all in the Trash stay members (restoring brings them back in place) but
 *   are not listed and not counted.
 * - detectRepositoryStacks is open to members (the contract marks it bearer, like scans): an
 *   administrator's run covers every owner's assets in the repository, a member's only their own.
 *   It runs synchronously and answers with counts.
 * - Detection at ingest: on `asset.ready` (the asset event bus, subscribed in container.ts) `afterAssetReady`
 *   queues one detection job per repository (a waiting job absorbs the rest of a batch; while one
 *   runs, exactly one follow-up is queued). The job waits while photos of the repository are still
 *   processing (at most 30 minutes after it was queued), so that a burst is detected whole.
 */
import type { Access, Permission } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Invalid, NotFound } from '../../platform/http/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { SnoozeError } from '../../platform/jobs/registry.ts';
import { AssetsStore, type AssetRow } from '../assets/index.ts';
import { detectStacks, type DetectCounts } from './detect.ts';
import { detectRepositoryStacksJob } from './stacks.jobs.ts';
import { StacksStore, type StackRef } from './stacks.store.ts';
import type { RepositoryLookup } from '../repositories/index.ts';

export interface StackView {
  stack_id: string;
  stack_kind: 'burst' | 'manual';
  member_count: number;
  cover_media_item_id: string;
  members: { media_item_id: string; position: number; primary_asset_id: string }[];
}

/** How long an ingest-time detection waits for the repository's photos to finish processing. */
const MAX_WAIT_MS = 30 * 60_000;
const WAIT_STEP_MS = 2_000;

export class StacksService {
  readonly store: StacksStore;
  private readonly assets: AssetsStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly jobs: JobQueue,
    private readonly repositories: RepositoryLookup,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new StacksStore(db);
    this.assets = new AssetsStore(db);
  }

  // ------------------------------------------------------------------ reads

  getForAsset(actor: Actor, assetId: string): { asset_id: string; stack: StackView | null } {
    const asset = this.ownAsset(actor, assetId, 'read');
    const stack = asset.media_item_id ? this.store.stackOfItem(asset.media_item_id) : undefined;
    return { asset_id: asset.asset_id, stack: stack ? this.view(stack.stack_id) : null };
  }

  /** Where each of these media items sits in a stack (for asset and gallery views of other features). */
  refs(mediaItemIds: readonly string[]): Map<string, StackRef> {
    return this.store.refs(mediaItemIds);
  }

  // ------------------------------------------------------------------ changes

  removeAsset(actor: Actor, assetId: string): { message: string } {
    const asset = this.ownAsset(actor, assetId, 'change');
    const now = this.now();
    return this.db
      .transaction(() => {
        const stack = asset.media_item_id ? this.store.stackOfItem(asset.media_item_id) : undefined;
        if (!stack || !asset.media_item_id) throw new NotFound('This asset is in no stack.', 'stack_not_found');
        this.store.removeMember(asset.media_item_id);
        this.store.touch(stack.stack_id, now);
        const dissolved = this.store.normalize([stack.stack_id], now) > 0;
        return { message: dissolved ? 'Removed from the stack; the stack had one photo left and was dissolved.' : 'Removed from the stack.' };
      })
      .immediate();
  }

  create(actor: Actor, assetIds: string[]): StackView {
    const now = this.now();
    return this.db
      .transaction(() => {
        const items: string[] = [];
        const permitted = this.access.requireAll(actor, 'asset', assetIds, 'change', (i) => `body.asset_ids.${i}`);
        const rows = new Map(this.assets.byIds(permitted).map((r) => [r.asset_id, r]));
        for (const id of permitted) {
          const a = rows.get(id)!;
          if (a.is_deleted) throw new Conflict(`Asset ${id} is in the Trash; restore it first.`, 'asset_in_trash');
          if (!a.media_item_id) throw new Conflict(`Asset ${id} is not processed yet.`, 'asset_not_ready');
          if (!items.includes(a.media_item_id)) items.push(a.media_item_id);
        }
        if (items.length < 2) {
          throw new Invalid('A stack needs at least two different photos (a RAW and its JPEG are one).', [
            { field: 'body.asset_ids', message: 'must name at least two different media items', code: 'stack_too_small' },
          ], 'stack_too_small');
        }
        const left = this.store.stacksOfItems(items);
        const stackId = uuidv7(now);
        this.store.create({ stack_id: stackId, owner_id: actor.userId, stack_kind: 'manual', group_key: null, cover_media_item_id: null, created_at: now, updated_at: now });
        this.store.append(stackId, items, now);
        for (const s of left) this.store.touch(s, now);
        this.store.normalize(left, now);
        return this.view(stackId);
      })
      .immediate();
  }

  // ------------------------------------------------------------------ detection

  /** Synchronous detection over a repository (admins: every owner; members: their own assets). */
  detect(actor: Actor, repositoryId: string): DetectCounts {
    this.repositories.require(repositoryId);
    const owner = actor.role === 'admin' ? null : actor.userId;
    return this.db.transaction(() => detectStacks(this.db, repositoryId, owner, this.now())).immediate();
  }

  /**
   * Subscribed to `asset.ready` (container.ts): queues detection for the asset's repository (one
   * waiting job per repository), in the transaction that made the asset ready.
   */
  afterAssetReady(asset: Pick<AssetRow, 'repository_id'>): void {
    const first = this.jobs.enqueue(detectRepositoryStacksJob, { repository_id: asset.repository_id });
    if (!first.inserted && first.job.state === 'running') {
      // The running one may already have read the catalog: one follow-up per running job.
      this.jobs.enqueue(detectRepositoryStacksJob, { repository_id: asset.repository_id }, { uniqueKey: `repo:${asset.repository_id}:after:${first.job.id}` });
    }
  }

  /** The job: waits while the repository's photos are processing, then detects for every owner. */
  runDetectionJob(repositoryId: string, queuedAt: number): DetectCounts | { skipped: string } {
    if (!this.repositories.exists(repositoryId)) return { skipped: 'the repository is gone' };
    const busy = this.db
      .prepare("SELECT count(*) FROM assets WHERE repository_id = ? AND type = 'PHOTO' AND is_deleted = 0 AND state IN ('pending', 'processing')")
      .pluck()
      .get(repositoryId) as number;
    if (busy > 0 && this.now() - queuedAt < MAX_WAIT_MS) throw new SnoozeError(WAIT_STEP_MS, `waiting for ${busy} photo(s) to finish processing`);
    return this.db.transaction(() => detectStacks(this.db, repositoryId, null, this.now())).immediate();
  }

  // ------------------------------------------------------------------ helpers

  private ownAsset(actor: Actor, assetId: string, permission: Permission): AssetRow {
    const row = this.assets.byId(this.access.require(actor, 'asset', assetId, permission));
    if (!row) throw new NotFound('No such asset.', 'asset_not_found');
    return row;
  }

  private view(stackId: string): StackView {
    const stack = this.store.byId(stackId)!;
    const all = this.store.members(stackId, false);
    const listed = this.store.members(stackId, true);
    const cover = stack.cover_media_item_id ?? all[0]?.media_item_id ?? '';
    return {
      stack_id: stack.stack_id,
      stack_kind: stack.stack_kind,
      member_count: listed.length,
      cover_media_item_id: cover,
      members: listed.map((m) => ({ media_item_id: m.media_item_id, position: m.position, primary_asset_id: m.primary_asset_id })),
    };
  }
}
