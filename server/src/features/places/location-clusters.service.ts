/**
 * Location clusters (listLocationClusters, rebuildLocationClusters), as the reference builds them:
 * per owner and repository, one cluster per geohash-7 cell (~150 m) of live geotagged photos and
 * videos, centroid = mean position, photo_count, its members; labelled with the cell's place names
 * from the offline geocoder (provider `geonames-offline`, geocode_status `resolved`).
 *
 * Decisions where the contract is silent:
 * - Ownership: a person's clusters are built from and shown to that person only, administrators
 *   included (as the map's points): another member's places never show.
 * - A rebuild is a queued job (`places.rebuild-location-clusters`) for the caller's clusters, in every
 *   repository or the one named; the receipt is the contract's {message, receipt_id, repository_id,
 *   status: "queued"}, receipt_id the job id (getJob follows it). While one of the caller's rebuilds
 *   is queued or running, another is 409 `location_rebuild_running` (not a second run).
 * - Photos and videos both count (a household's trip has both); a RAW+JPEG pair or a live photo
 *   counts once. (0, 0) and positions far from any town still cluster; the latter without names
 *   (label null, status `resolved`: geocoding ran and found no place).
 * - Clusters are a snapshot of the last rebuild (the reference's model); place names and search
 *   (features/search channel `place`) do not wait for one.
 * - List order: most photos first, then cluster id. `geohash` filters by prefix (a precision-5 cell
 *   lists the clusters inside it); anything but geohash characters is 422.
 */
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Invalid } from '../../platform/http/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { RepositoryLookup } from '../repositories/index.ts';
import { LocationClustersStore, type ClusterRow } from './location-clusters.store.ts';
import type { PlaceNames } from './place-names.ts';
import { rebuildLocationClustersJob } from './places.jobs.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function clusterView(r: ClusterRow) {
  return { ...r, cluster_id: String(r.cluster_id), geocoded_at: iso(r.geocoded_at) };
}

export class LocationClustersService {
  private readonly store: LocationClustersStore;

  constructor(
    db: Db,
    private readonly jobs: JobQueue,
    private readonly names: PlaceNames,
    private readonly repositories: RepositoryLookup,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new LocationClustersStore(db);
  }

  list(actor: Actor, q: { limit: number; offset: number; repository_id?: string | undefined; geohash?: string | undefined }) {
    const { total, rows } = this.store.list(actor.userId, q.repository_id ?? null, q.geohash ?? null, q.limit, q.offset);
    return { clusters: rows.map(clusterView), limit: q.limit, offset: q.offset, total };
  }

  requestRebuild(actor: Actor, repositoryId: string | null) {
    // A named exception to RepositoryLookup.require: this operation answered 422 for an unknown repository and still does.
    if (repositoryId !== null && !this.repositories.exists(repositoryId)) {
      throw new Invalid('No such repository.', [{ field: 'body.repository_id', message: 'unknown repository', code: 'repository_not_found' }], 'repository_not_found');
    }
    const { job, inserted } = this.jobs.enqueue(rebuildLocationClustersJob, { owner_id: actor.userId, repository_id: repositoryId }, { ownerId: actor.userId });
    if (!inserted) {
      throw new Conflict(`A rebuild of your location clusters is already ${job.state === 'running' ? 'running' : 'queued'} (job ${job.id}); wait for it to finish.`, 'location_rebuild_running');
    }
    return {
      status: 'queued' as const,
      receipt_id: String(job.id),
      repository_id: repositoryId,
      message: `Queued a rebuild of your location clusters in ${repositoryId === null ? 'every repository' : 'the repository'}.`,
    };
  }

  /** The job: place names first (so every cluster is named), then the clusters. */
  async runRebuild(args: { owner_id: number; repository_id: string | null }) {
    const synced = await this.names.syncAsync();
    return { ...synced, ...this.store.rebuild(args.owner_id, args.repository_id, this.now()) };
  }
}
