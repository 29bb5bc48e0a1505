-- Places (issue 14, features/places): geohashes on assets, place names per geohash-7 cell from the offline
-- reverse geocoder (features/places/geocoder), a full-text index over those names for the search's `place`
-- channel, and location clusters per owner (rebuildLocationClusters).

-- Geohashes of the asset's position at precision 5 (~5 km) and 7 (~150 m). NULL: not computed yet (the
-- places sync job fills them); '' : the position is not a place ((0, 0): an empty GPS block).
ALTER TABLE assets ADD COLUMN geohash5 TEXT;
ALTER TABLE assets ADD COLUMN geohash7 TEXT;
CREATE INDEX assets_owner_geohash7 ON assets (owner_id, geohash7) WHERE geohash7 IS NOT NULL AND geohash7 <> '';
-- Rows whose geohashes are still to compute (the sync job's work list; small once caught up).
CREATE INDEX assets_geohash_pending ON assets (owner_id) WHERE geohash7 IS NULL AND gps_latitude IS NOT NULL AND gps_longitude IS NOT NULL;

-- A position changed by any writer that did not also write the geohashes (the ingest pipeline writes both)
-- makes them stale: cleared here, recomputed by the sync job. Pure SQL, so every connection and tool keeps it.
CREATE TRIGGER assets_geohash_stale AFTER UPDATE OF gps_latitude, gps_longitude ON assets
WHEN (OLD.gps_latitude IS NOT NEW.gps_latitude OR OLD.gps_longitude IS NOT NEW.gps_longitude) AND NEW.geohash7 IS OLD.geohash7
BEGIN
  UPDATE assets SET geohash5 = NULL, geohash7 = NULL WHERE rowid = NEW.rowid;
END;

-- The place a geohash-7 cell lies in (geocoded at the cell's centre). Geography, not anyone's data: shared by
-- every owner; who may see which cell comes from their assets. A cell far from any town keeps a row with no
-- names so it is not geocoded again.
CREATE TABLE place_cells (
  geohash7     TEXT    PRIMARY KEY,
  city         TEXT,
  region       TEXT,
  country      TEXT,
  country_code TEXT,
  distance_km  REAL,
  provider     TEXT    NOT NULL,
  geocoded_at  INTEGER NOT NULL
) STRICT;

-- Words of the place names for the search's place channel ("Lisbon", "Portugal", "Tuscany"), accents folded
-- ("Zurich" finds "Zürich").
CREATE VIRTUAL TABLE place_cells_fts USING fts5(city, region, country, content = 'place_cells', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER place_cells_fts_insert AFTER INSERT ON place_cells BEGIN
  INSERT INTO place_cells_fts (rowid, city, region, country) VALUES (new.rowid, new.city, new.region, new.country);
END;
CREATE TRIGGER place_cells_fts_delete AFTER DELETE ON place_cells BEGIN
  INSERT INTO place_cells_fts (place_cells_fts, rowid, city, region, country) VALUES ('delete', old.rowid, old.city, old.region, old.country);
END;
CREATE TRIGGER place_cells_fts_update AFTER UPDATE ON place_cells BEGIN
  INSERT INTO place_cells_fts (place_cells_fts, rowid, city, region, country) VALUES ('delete', old.rowid, old.city, old.region, old.country);
  INSERT INTO place_cells_fts (rowid, city, region, country) VALUES (new.rowid, new.city, new.region, new.country);
END;

-- Location clusters (the reference's rebuild): per owner and repository, one per geohash-7 cell of live
-- geotagged photos and videos, centroid = mean position, with the cell's place names.
CREATE TABLE location_clusters (
  cluster_id         INTEGER PRIMARY KEY,
  owner_id           INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  repository_id      TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  geohash            TEXT    NOT NULL,
  precision          INTEGER NOT NULL,
  centroid_latitude  REAL    NOT NULL,
  centroid_longitude REAL    NOT NULL,
  photo_count        INTEGER NOT NULL,
  label              TEXT,
  city               TEXT,
  region             TEXT,
  country            TEXT,
  provider           TEXT    NOT NULL,
  geocode_status     TEXT    NOT NULL CHECK (geocode_status IN ('pending', 'disabled', 'cached', 'resolved', 'failed')),
  geocoded_at        INTEGER,
  created_at         INTEGER NOT NULL,
  UNIQUE (owner_id, repository_id, geohash)
) STRICT;
CREATE INDEX location_clusters_owner ON location_clusters (owner_id, photo_count DESC, cluster_id);

CREATE TABLE location_cluster_members (
  cluster_id INTEGER NOT NULL REFERENCES location_clusters (cluster_id) ON DELETE CASCADE,
  asset_id   TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  PRIMARY KEY (cluster_id, asset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX location_cluster_members_asset ON location_cluster_members (asset_id);
