/** SQL of location clusters (location-clusters.service.ts says the rules). */
import type { Db } from '../../platform/db/connection.ts';

export interface ClusterRow {
  cluster_id: number;
  repository_id: string;
  centroid_latitude: number;
  centroid_longitude: number;
  geohash: string;
  precision: number;
  photo_count: number;
  label: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  provider: string;
  geocode_status: 'pending' | 'disabled' | 'cached' | 'resolved' | 'failed';
  geocoded_at: number | null;
}

/**
 * The files a cluster counts: live, with a place position, and standing for their media item (a
 * RAW+JPEG pair or a live photo is one photo, at its primary; a file in no media item yet is its own).
 */
const MEMBERS = `FROM assets a LEFT JOIN place_cells c ON c.geohash7 = a.geohash7
  WHERE a.owner_id = @owner AND (@repo IS NULL OR a.repository_id = @repo) AND a.is_deleted = 0
    AND a.geohash7 IS NOT NULL AND a.geohash7 <> ''
    AND (a.media_item_id IS NULL OR EXISTS (SELECT 1 FROM media_items m WHERE m.media_item_id = a.media_item_id AND m.primary_asset_id = a.asset_id))`;

/** "Florence, Italy"; "Tuscany, Italy" away from towns; the country alone; null where no place was found. */
const LABEL = `CASE WHEN c.country IS NULL THEN NULL WHEN c.city IS NOT NULL THEN c.city || ', ' || c.country
  WHEN c.region IS NOT NULL THEN c.region || ', ' || c.country ELSE c.country END`;

export class LocationClustersStore {
  constructor(private readonly db: Db) {}

  /** Deletes and recreates the owner's clusters (in one repository, or all) with their memberships. */
  rebuild(owner: number, repo: string | null, now: number): { clusters: number; members: number } {
    const args = { owner, repo, now };
    return this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM location_clusters WHERE owner_id = @owner AND (@repo IS NULL OR repository_id = @repo)').run(args);
        const clusters = this.db
          .prepare(
            `INSERT INTO location_clusters (owner_id, repository_id, geohash, precision, centroid_latitude, centroid_longitude, photo_count,
               label, city, region, country, provider, geocode_status, geocoded_at, created_at)
             SELECT a.owner_id, a.repository_id, a.geohash7, 7, avg(a.gps_latitude), avg(a.gps_longitude), count(*),
               ${LABEL}, c.city, c.region, c.country, coalesce(c.provider, 'geonames-offline'),
               CASE WHEN c.geohash7 IS NULL THEN 'pending' ELSE 'resolved' END, c.geocoded_at, @now
             ${MEMBERS} GROUP BY a.repository_id, a.geohash7`,
          )
          .run(args).changes;
        const members = this.db
          .prepare(
            `INSERT INTO location_cluster_members (cluster_id, asset_id)
             SELECT l.cluster_id, a.asset_id ${MEMBERS.replace('FROM assets a', 'FROM assets a JOIN location_clusters l ON l.owner_id = a.owner_id AND l.repository_id = a.repository_id AND l.geohash = a.geohash7')}`,
          )
          .run(args).changes;
        return { clusters, members };
      })
      .immediate();
  }

  list(owner: number, repo: string | null, geohashPrefix: string | null, limit: number, offset: number): { total: number; rows: ClusterRow[] } {
    const where = `owner_id = @owner AND (@repo IS NULL OR repository_id = @repo) AND (@prefix IS NULL OR substr(geohash, 1, length(@prefix)) = @prefix)`;
    const args = { owner, repo, prefix: geohashPrefix, limit, offset };
    const total = this.db.prepare(`SELECT count(*) FROM location_clusters WHERE ${where}`).pluck().get(args) as number;
    const rows = this.db
      .prepare(
        `SELECT cluster_id, repository_id, centroid_latitude, centroid_longitude, geohash, precision, photo_count, label, city, region, country,
           provider, geocode_status, geocoded_at FROM location_clusters WHERE ${where} ORDER BY photo_count DESC, cluster_id LIMIT @limit OFFSET @offset`,
      )
      .all(args) as ClusterRow[];
    return { total, rows };
  }
}
