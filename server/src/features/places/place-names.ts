/**
 * Keeps every geotagged asset's geohashes and the names of its geohash-7 cell in the catalog.
 *
 * - Geohashes are written by the ingest pipeline with the position (features/assets/pipeline). A
 *   position written any other way (an older catalog before migration 0023, a tool, a test's SQL)
 *   leaves them NULL (the migration's trigger clears stale ones); `sync` computes those.
 * - Cell names come from the offline reverse geocoder at the cell's centre (a cell is ~150 m: the
 *   town cannot differ from the photo's own). Each cell is named once, whoever's photos it holds:
 *   geography is not anyone's data; only the assets joined to a cell say whose it is.
 * - `sync` runs as the `places.name-places` job: queued when an asset with an unnamed position becomes
 *   ready, at start when anything is pending, and first thing in a cluster rebuild. The gazetteer
 *   loads at its first run (about a second; once per process).
 */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import type { AssetsStore } from '../assets/index.ts';
import { geohashCenter, geohashFields } from './geohash.ts';
import { GEOCODER_PROVIDER, type ReverseGeocoder } from './geocoder/reverse-geocoder.ts';

const BATCH = 2_000;

export interface SyncCounts {
  geohashed: number;
  named_cells: number;
}

export class PlaceNames {
  constructor(
    private readonly db: Db,
    private readonly geocoder: ReverseGeocoder,
    /** Geohashes are columns of the assets table: written by its store. */
    private readonly assets: Pick<AssetsStore, 'setGeohashes'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether anything waits for `sync`: positions without geohashes, or cells without names. */
  pending(): boolean {
    return this.db.prepare(`SELECT 1 FROM assets INDEXED BY assets_geohash_pending ${PENDING} LIMIT 1`).get() !== undefined || this.unnamedCells(1).length > 0;
  }

  /** Whether this asset's place is still to compute (the `asset.ready` check: most assets need nothing). */
  pendingFor(assetId: string): boolean {
    // Kept prepared (platform/db/prepared.ts): asked once per file that ingest makes ready.
    return (
      prepared(
        this.db,
        `SELECT 1 FROM assets a WHERE a.asset_id = ? AND a.gps_latitude IS NOT NULL AND a.gps_longitude IS NOT NULL
           AND (a.geohash7 IS NULL OR (a.geohash7 <> '' AND NOT EXISTS (SELECT 1 FROM place_cells c WHERE c.geohash7 = a.geohash7)))`,
      ).get(assetId) !== undefined
    );
  }

  /** As `sync`, with the gazetteer's files read asynchronously first when cells wait for names (the job's way). */
  async syncAsync(): Promise<SyncCounts> {
    if (!this.geocoder.isLoaded && this.pending()) await this.geocoder.loadAsync();
    return this.sync();
  }

  /** Computes missing geohashes, then names every cell not named yet. */
  sync(): SyncCounts {
    let geohashed = 0;
    const pick = this.db.prepare(`SELECT rowid, gps_latitude, gps_longitude FROM assets INDEXED BY assets_geohash_pending ${PENDING} LIMIT ${BATCH}`).raw();
    // Set with the position read (AssetsStore.setGeohashes), so a position changed meanwhile is not given the old one's geohash.
    for (;;) {
      const rows = pick.all() as [number, number, number][];
      if (!rows.length) break;
      const changed = this.assets.setGeohashes(rows.map(([rowid, lat, lon]) => ({ rowid, lat, lon, ...geohashFields(lat, lon) })));
      geohashed += changed;
      if (changed === 0) break; // every row moved under us: the next run takes them
    }
    let named = 0;
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO place_cells (geohash7, city, region, country, country_code, distance_km, provider, geocoded_at)
       VALUES (@geohash7, @city, @region, @country, @country_code, @distance_km, @provider, @at)`,
    );
    for (;;) {
      const cells = this.unnamedCells(BATCH);
      if (!cells.length) break;
      const at = this.now();
      const named0 = named;
      this.db.transaction(() => {
        for (const geohash7 of cells) {
          const { lat, lon } = geohashCenter(geohash7);
          const p = this.geocoder.lookup(lat, lon);
          named += insert.run({
            geohash7,
            city: p?.city ?? null,
            region: p?.region ?? null,
            country: p?.country ?? null,
            country_code: p?.country_code ?? null,
            distance_km: p?.distance_km ?? null,
            provider: GEOCODER_PROVIDER,
            at,
          }).changes;
        }
      })();
      if (named === named0) break;
    }
    return { geohashed, named_cells: named };
  }

  private unnamedCells(limit: number): string[] {
    return this.db
      .prepare(
        `SELECT DISTINCT a.geohash7 FROM assets a INDEXED BY assets_owner_geohash7
         WHERE a.geohash7 IS NOT NULL AND a.geohash7 <> '' AND NOT EXISTS (SELECT 1 FROM place_cells c WHERE c.geohash7 = a.geohash7) LIMIT ?`,
      )
      .pluck()
      .all(limit) as string[];
  }
}

const PENDING = 'WHERE geohash7 IS NULL AND gps_latitude IS NOT NULL AND gps_longitude IS NOT NULL';
