/**
 * Duplicate groups: detection (detect.ts) per repository, listing, dismissal and merge (see
 * duplicates.routes.ts for the operations).
 *
 * Rules: a group belongs to one owner (edges never cross owners) and is seen only by them: another
 * member's group answers 404, administrators included (photos are private to their owner). Groups are
 * `pending` until their owner merges or dismisses them; only a pending group can be resolved (409
 * `duplicate_group_resolved` otherwise).
 *
 * Decisions where the contract is silent:
 * - Who detects: open to members (bearer in the contract). An administrator's run covers every owner's
 *   assets in the repository, a member's their own only (as stack detection). One run at a time per
 *   repository, on demand or by the job: a second one answers 409 `duplicate_detection_running`.
 * - Pending groups are replaced in one transaction, but a group found again with exactly the same
 *   members keeps its id (and first detection time), so a page or a link open on it stays valid across
 *   the detection that runs after every ingest.
 * - A person's decision stands: two assets that are members of one merged or dismissed group are never
 *   linked again by a later detection (detect.ts `resolvedTogether`). A dismissed set therefore never
 *   comes back as pending; a new copy of one of them arriving later does form a new group (with the
 *   members it is a copy of), because that copy is new. Merged duplicates are in the Trash (detection
 *   skips the Trash); one restored by its owner is not proposed against its keeper again either.
 * - Detection after ingest: on `asset.ready` one job per repository is queued 10 s ahead (debounced: a
 *   waiting job absorbs the rest of a batch; while one runs, one follow-up is queued). It waits while
 *   photos of the repository are still processing (their pHash is not there yet), at most 30 minutes.
 * - Merge (reference "Merge"): albums and tags of the duplicates are unioned onto the keeper; rating =
 *   max; liked = or; description = the keeper's if it has one, else the first non-empty duplicate's in
 *   group order; the duplicates go to the Trash as a person's deletion (`deleted_reason` user, the
 *   `asset.trashed` event: like deleteAsset, so a scan does not bring them back while their files stay,
 *   and restoring one is possible). Unlike the reference, the Trash move is in the same transaction as
 *   the union: any error leaves nothing applied. Owner's likes and ratings are the ones on the asset
 *   rows; other members' own marks (asset_user_marks) stay on the copies they were given to.
 * - `recovered_bytes`: the sizes of the files this merge moved to the Trash (the space comes back when
 *   the Trash is emptied or its retention period ends). Duplicates already in the Trash are merged
 *   (their metadata too) but count no bytes. Members left out of `duplicate_asset_ids` stay
 *   `candidate`s of the merged group: the person saw them and kept them.
 * - A pending group is listed (and counted in the summary) while at least two of its photos are in the
 *   library: a copy sent to the Trash by hand leaves nothing to merge. getDuplicateGroup still answers it.
 * - Faces: moved only when `policy.faces` is true and the group's method is `exact` (the same bytes, so
 *   the same face boxes). The composition root gives the faces feature's `DuplicateFacesHook` at construction; without
 *   one the flag is recorded in the group's merge policy and nothing is moved.
 */
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { DomainError, Invalid, NotFound } from '../../platform/http/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { SnoozeError } from '../../platform/jobs/registry.ts';
import { AssetsStore, assetRef, loadAssetExtras, toAsset, type AssetChangeBus, type AssetRow } from '../assets/index.ts';
import { DETECTION_VERSION, detectDuplicateGroups, type DetectionItem } from './detect.ts';
import { detectRepositoryDuplicatesJob } from './duplicates.jobs.ts';
import type { PhashBackfill, PhashBackfillResult } from './phash.backfill.ts';
import { DuplicatesStore, memberKey, type GroupFilter, type GroupRow } from './duplicates.store.ts';
import type { RepositoryLookup } from '../repositories/index.ts';

/** Filled by the faces feature: moves the duplicates' faces (and their people) onto the keeper. */
export interface DuplicateFacesHook {
  /** Runs inside the merge's transaction; answers how many faces moved. */
  reparentFaces(keeperAssetId: string, duplicateAssetIds: readonly string[]): number;
}

export interface MergePolicy {
  albums: boolean;
  tags: boolean;
  rating: boolean;
  liked: boolean;
  description: boolean;
  faces: boolean;
}

export interface MergeRequest {
  keeper_asset_id: string;
  duplicate_asset_ids?: string[];
  policy?: Partial<MergePolicy>;
}

export interface DetectionCounts {
  assets_affected: number;
  exact_groups: number;
  generated_at: string;
  groups: number;
  mixed_groups: number;
  phash_groups: number;
}

const DEFAULT_POLICY: MergePolicy = { albums: true, tags: true, rating: true, liked: true, description: true, faces: false };
/** The ingest-time detection runs this long after the first photo of a batch became ready (the rest of the batch joins it). */
export const DETECT_DEBOUNCE_MS = 10_000;
const MAX_WAIT_MS = 30 * 60_000;
const WAIT_STEP_MS = 5_000;
/** Assets read per query by a detection (it yields to the event loop between pages). */
const READ_PAGE = 20_000;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What duplicates works with beyond the catalog, given by the composition root (container.ts). */
export interface DuplicatesParts {
  repositories: RepositoryLookup;
  /** The pHash backfill (phash.backfill.ts), run by its job. */
  phashes: PhashBackfill;
  /** How faces follow a merge of exact copies (features/faces); null: the flag is recorded, nothing moves. */
  faces: DuplicateFacesHook | null;
}

export class DuplicatesService {
  readonly store: DuplicatesStore;
  private readonly assets: AssetsStore;
  /** Repositories a detection is running for (on demand or the job). */
  private readonly running = new Set<string>();
  private readonly repositories: RepositoryLookup;
  private readonly faces: DuplicateFacesHook | null;
  /** pHashes of an older recipe, and window pHashes of photos catalogued before them. */
  readonly phashes: PhashBackfill;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly jobs: JobQueue,
    private readonly changes: AssetChangeBus,
    parts: DuplicatesParts,
    private readonly now: () => number = Date.now,
  ) {
    this.repositories = parts.repositories;
    this.phashes = parts.phashes;
    this.faces = parts.faces;
    this.store = new DuplicatesStore(db);
    this.assets = new AssetsStore(db);
  }

  // ------------------------------------------------------------------ detection

  /** On demand: administrators over every owner, members over their own assets. */
  async detect(actor: Actor, repositoryId: string): Promise<DetectionCounts> {
    this.repositories.require(repositoryId, 'body.repository_id');
    if (this.running.has(repositoryId)) {
      throw new DomainError(409, 'duplicate_detection_running', 'Duplicates are being detected in this repository right now; try again when it is done.', {
        errors: [{ field: 'body.repository_id', message: 'a detection is running' }],
        retryAfterSeconds: 5,
        retryable: true,
      });
    }
    return this.run(repositoryId, actor.role === 'admin' ? null : actor.userId);
  }

  /**
   * The pHash backfill job: recomputes, then queues a detection of every repository whose hashes changed
   * (detection left their older hashes out until now).
   */
  async runPhashBackfill(signal: AbortSignal, progress: (fraction: number, message: string) => void): Promise<PhashBackfillResult> {
    const result = await this.phashes.run(signal, progress);
    for (const repositoryId of result.repositories) this.jobs.enqueue(detectRepositoryDuplicatesJob, { repository_id: repositoryId });
    return result;
  }

  /**
   * Subscribed to `asset.ready` (container.ts): queues detection for the asset's repository, in the
   * transaction that made the asset ready (one waiting job per repository).
   */
  afterAssetReady(asset: { repository_id: string }): void {
    const first = this.jobs.enqueue(detectRepositoryDuplicatesJob, { repository_id: asset.repository_id }, { delayMs: DETECT_DEBOUNCE_MS });
    if (!first.inserted && first.job.state === 'running') {
      this.jobs.enqueue(
        detectRepositoryDuplicatesJob,
        { repository_id: asset.repository_id },
        { delayMs: DETECT_DEBOUNCE_MS, uniqueKey: `repo:${asset.repository_id}:after:${first.job.id}` },
      );
    }
  }

  /** The job: waits while the repository's photos are processing (or a detection runs), then detects for every owner. */
  async runDetectionJob(repositoryId: string, queuedAt: number): Promise<DetectionCounts | { skipped: string }> {
    if (!this.repositories.exists(repositoryId)) return { skipped: 'the repository is gone' };
    if (this.running.has(repositoryId)) throw new SnoozeError(WAIT_STEP_MS, 'a detection is running for this repository');
    const busy = this.db
      .prepare("SELECT count(*) FROM assets WHERE repository_id = ? AND type = 'PHOTO' AND is_deleted = 0 AND state IN ('pending', 'processing')")
      .pluck()
      .get(repositoryId) as number;
    if (busy > 0 && this.now() - queuedAt < MAX_WAIT_MS) throw new SnoozeError(WAIT_STEP_MS, `waiting for ${busy} photo(s) to finish processing`);
    return this.run(repositoryId, null);
  }

  /**
   * Reads the repository, pairs (yielding to the event loop now and then: a large library takes seconds),
   * then replaces the pending groups in one transaction. Written against what was read: a photo trashed
   * meanwhile loses its membership when its row is read at merge time (merge checks the Trash itself).
   */
  private async run(repositoryId: string, ownerId: number | null): Promise<DetectionCounts> {
    this.running.add(repositoryId);
    try {
      const items: DetectionItem[] = [];
      for (let after = 0; ; ) {
        const page = this.store.detectionItems(repositoryId, ownerId, after, READ_PAGE);
        for (const it of page) items.push(it);
        if (page.length < READ_PAGE) break;
        after = page[page.length - 1]!.rowid;
        await new Promise((r) => setImmediate(r));
      }
      const resolved = this.store.resolvedMemberships(repositoryId, ownerId);
      const resolvedTogether = (a: DetectionItem, b: DetectionItem) => {
        const ga = resolved.get(a.asset_id);
        const gb = ga && resolved.get(b.asset_id);
        return !!gb && ga.some((g) => gb.includes(g));
      };
      await new Promise((r) => setImmediate(r));
      const groups = await detectDuplicateGroups(items, { resolvedTogether, pause: () => new Promise((r) => setImmediate(r)) });
      const now = this.now();
      this.db
        .transaction(() => {
          const before = this.store.pendingByKey(repositoryId, ownerId);
          const kept = new Set<string>();
          for (const g of groups) {
            const key = memberKey(g.members.map((m) => m.asset_id));
            const existing = before.get(key);
            if (existing) kept.add(existing);
            this.store.saveDetected(existing ?? uuidv7(now), !!existing, repositoryId, DETECTION_VERSION, g, now);
          }
          this.store.deleteGroups([...before.values()].filter((id) => !kept.has(id)));
          this.store.markDetected(repositoryId, ownerId === null ? this.store.ownersIn(repositoryId) : [ownerId], now);
        })
        .immediate();
      const by = (m: string) => groups.filter((g) => g.method === m).length;
      return {
        assets_affected: groups.reduce((n, g) => n + g.members.length, 0),
        exact_groups: by('exact'),
        generated_at: new Date(now).toISOString(),
        groups: groups.length,
        mixed_groups: by('mixed'),
        phash_groups: by('phash'),
      };
    } finally {
      this.running.delete(repositoryId);
    }
  }

  // ------------------------------------------------------------------ reads

  list(actor: Actor, f: GroupFilter, limit: number, offset: number) {
    const { rows, total } = this.store.list(this.access.scope(actor, 'duplicate_group', 'read', 'g'), f, limit, offset);
    return { groups: this.views(actor, rows), limit, offset, total };
  }

  get(actor: Actor, groupId: string) {
    return this.views(actor, [this.ownGroup(actor, groupId)])[0]!;
  }

  summary(actor: Actor, repositoryId: string | null) {
    const s = this.store.summary(this.access.scope(actor, 'duplicate_group', 'read', 'g'), repositoryId);
    return {
      dismissed_groups: s.dismissed,
      last_detected_at: iso(s.last_detected_at),
      merged_groups: s.merged,
      pending_assets: s.pending_assets,
      pending_groups: s.pending,
      recoverable_assets: s.recoverable_assets,
      recoverable_bytes: s.recoverable_bytes,
    };
  }

  // ------------------------------------------------------------------ resolution

  dismiss(actor: Actor, groupId: string): { message: string } {
    return this.db
      .transaction(() => {
        const g = this.pendingGroup(actor, groupId);
        this.store.resolve(g.group_id, 'dismissed', null, null, this.now());
        return { message: 'Dismissed: these photos will not be proposed as duplicates of each other again.' };
      })
      .immediate();
  }

  merge(actor: Actor, groupId: string, req: MergeRequest) {
    const policy: MergePolicy = { ...DEFAULT_POLICY, ...req.policy };
    return this.db
      .transaction(() => {
        const g = this.pendingGroup(actor, groupId);
        const memberIds = this.store.members([g.group_id]).map((m) => m.asset_id);
        const rows = new Map(this.assets.byIds(this.access.permitted(actor, 'asset', memberIds, 'change')).map((r) => [r.asset_id, r]));
        const keeperId = req.keeper_asset_id.toLowerCase();
        const keeper = rows.get(keeperId);
        if (!keeper) {
          throw new Invalid('The keeper must be one of the group’s photos.', [{ field: 'body.keeper_asset_id', message: 'not a member of this group', code: 'keeper_not_member' }], 'keeper_not_member');
        }
        if (keeper.is_deleted) {
          throw new DomainError(409, 'asset_in_trash', 'The keeper is in the Trash; restore it or choose another keeper.', { errors: [{ field: 'body.keeper_asset_id', message: 'in the Trash' }] });
        }
        const duplicates = this.chosenDuplicates(req, memberIds, rows, keeperId);
        const now = this.now();
        const dupIds = duplicates.map((d) => d.asset_id);
        if (policy.albums) this.store.unionAlbums(keeperId, dupIds, keeper.owner_id, now);
        if (policy.tags) this.store.unionTags(keeperId, dupIds, now);
        const patch: Partial<AssetRow> = {};
        if (policy.rating) {
          const best = Math.max(keeper.rating, ...duplicates.map((d) => d.rating));
          if (best !== keeper.rating) patch.rating = best;
        }
        if (policy.liked && !keeper.liked && duplicates.some((d) => d.liked)) patch.liked = 1;
        if (policy.description && !keeper.description?.trim()) {
          const text = duplicates.map((d) => d.description?.trim()).find((t) => t);
          if (text) patch.description = text;
        }
        if (Object.keys(patch).length) this.assets.update(keeperId, patch, now);
        if (policy.faces && g.method === 'exact') this.faces?.reparentFaces(keeperId, dupIds);
        let recovered = 0;
        for (const d of duplicates) {
          if (d.is_deleted) continue;
          this.assets.update(d.asset_id, { is_deleted: 1, deleted_at: now, deleted_reason: 'user' }, now);
          this.changes.emit('asset.trashed', { ...assetRef(d), reason: 'user' });
          recovered += d.file_size;
        }
        this.store.setRoles(g.group_id, keeperId, dupIds);
        this.store.resolve(g.group_id, 'merged', keeperId, policy, now);
        return { group_id: g.group_id, keeper_asset_id: keeperId, merged_duplicates: dupIds, recovered_bytes: recovered };
      })
      .immediate();
  }

  // ------------------------------------------------------------------ helpers

  /** The duplicates a merge takes: the ones named (members, not the keeper), else every other member. */
  private chosenDuplicates(req: MergeRequest, memberIds: string[], rows: Map<string, AssetRow>, keeperId: string): AssetRow[] {
    const named = req.duplicate_asset_ids?.map((id) => id.toLowerCase());
    const ids = named ?? memberIds.filter((id) => id !== keeperId);
    const errors = (named ?? [])
      .map((id, i) => ({ id, i }))
      .filter(({ id }) => id === keeperId || !rows.has(id))
      .map(({ id, i }) => ({
        field: `body.duplicate_asset_ids.${i}`,
        message: id === keeperId ? 'is the keeper' : 'not a member of this group',
        code: id === keeperId ? 'duplicate_is_keeper' : 'duplicate_not_member',
      }));
    if (errors.length) throw new Invalid('Every duplicate must be another photo of the group.', errors, errors[0]!.code);
    const unique = [...new Set(ids)].filter((id) => rows.has(id));
    if (!unique.length) {
      throw new Invalid('Nothing to merge: the group has no other photo left.', [{ field: 'body.duplicate_asset_ids', message: 'no duplicate to merge', code: 'nothing_to_merge' }], 'nothing_to_merge');
    }
    // Group order (keeper order), so "the first non-empty description" is well defined.
    return memberIds.filter((id) => unique.includes(id)).map((id) => rows.get(id)!);
  }

  private ownGroup(actor: Actor, groupId: string): GroupRow {
    const row = this.store.byId(this.access.require(actor, 'duplicate_group', groupId.toLowerCase(), 'read'));
    if (!row) throw new NotFound('No such duplicate group.', 'duplicate_group_not_found');
    return row;
  }

  private pendingGroup(actor: Actor, groupId: string): GroupRow {
    const g = this.store.byId(this.access.require(actor, 'duplicate_group', groupId.toLowerCase(), 'change'));
    if (!g) throw new NotFound('No such duplicate group.', 'duplicate_group_not_found');
    if (g.status !== 'pending') throw new DomainError(409, 'duplicate_group_resolved', `This group was already ${g.status}.`);
    return g;
  }

  private views(actor: Actor, groups: GroupRow[]) {
    const ids = groups.map((g) => g.group_id);
    const members = this.store.members(ids);
    const edges = this.store.edges(ids);
    const assetIds = members.map((m) => m.asset_id);
    const rows = new Map(this.assets.byIds(this.access.permitted(actor, 'asset', assetIds, 'read')).map((r) => [r.asset_id, r]));
    const extras = loadAssetExtras(this.assets, assetIds);
    return groups.map((g) => {
      const mine = members.filter((m) => m.group_id === g.group_id && rows.has(m.asset_id));
      const recommended = g.recommended_keeper_asset_id;
      const total = mine.reduce((n, m) => n + m.file_size, 0);
      const keeperSide = g.keeper_asset_id ?? recommended;
      return {
        group_id: g.group_id,
        repository_id: g.repository_id,
        status: g.status,
        method: g.method,
        detection_version: g.detection_version,
        detected_at: iso(g.detected_at)!,
        resolved_at: iso(g.resolved_at),
        keeper_asset_id: g.keeper_asset_id,
        recommended_keeper_asset_id: recommended,
        asset_count: mine.length,
        total_size: total,
        recoverable_bytes:
          g.status === 'pending' ? mine.filter((m) => m.asset_id !== keeperSide && !rows.get(m.asset_id)!.is_deleted).reduce((n, m) => n + m.file_size, 0) : 0,
        assets: mine.map((m) => ({ asset: toAsset(rows.get(m.asset_id)!, extras.get(m.asset_id)), file_size: m.file_size, role: m.role })),
        edges: edges.filter((e) => e.group_id === g.group_id).map(({ group_id: _g, ...e }) => e),
      };
    });
  }
}
