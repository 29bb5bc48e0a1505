-- Duplicate groups (issue 14 point 3, features/duplicates): copies of one photo found by content hash
-- (exact) and by perceptual hash (near), per owner and repository. Detection replaces a repository's
-- pending groups; merged and dismissed groups stay as the record of what a person decided, and their
-- members are never proposed to each other again (features/duplicates/duplicates.service.ts).
CREATE TABLE duplicate_groups (
  group_id                    TEXT    PRIMARY KEY,          -- UUID v7
  owner_id                    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  repository_id               TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  status                      TEXT    NOT NULL CHECK (status IN ('pending', 'merged', 'dismissed')),
  method                      TEXT    NOT NULL CHECK (method IN ('exact', 'phash', 'mixed')),
  detection_version           TEXT    NOT NULL,
  -- The sorted member ids: a group found again with the same members keeps its id across detections.
  member_key                  TEXT    NOT NULL,
  recommended_keeper_asset_id TEXT,
  keeper_asset_id             TEXT,
  -- The merge's policy as applied (JSON), null until merged.
  merge_policy                TEXT    CHECK (merge_policy IS NULL OR json_valid(merge_policy)),
  detected_at                 INTEGER NOT NULL,
  resolved_at                 INTEGER,
  created_at                  INTEGER NOT NULL,
  updated_at                  INTEGER NOT NULL
) STRICT;
CREATE INDEX duplicate_groups_owner ON duplicate_groups (owner_id, status, repository_id, detected_at DESC);
CREATE INDEX duplicate_groups_repository ON duplicate_groups (repository_id, owner_id, status, member_key);

-- role: `keeper` (recommended, or chosen at merge), `candidate` (pending), `duplicate` (merged into the keeper).
-- file_size is the size when detected (what merging recovers).
CREATE TABLE duplicate_group_members (
  group_id  TEXT    NOT NULL REFERENCES duplicate_groups (group_id) ON DELETE CASCADE,
  asset_id  TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  role      TEXT    NOT NULL CHECK (role IN ('keeper', 'candidate', 'duplicate')),
  position  INTEGER NOT NULL,                               -- keeper order: 0 is the recommended keeper
  file_size INTEGER NOT NULL,
  PRIMARY KEY (group_id, asset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX duplicate_group_members_asset ON duplicate_group_members (asset_id, group_id);

-- The evidence: one row per linked pair (asset_id_a < asset_id_b).
CREATE TABLE duplicate_group_edges (
  group_id   TEXT    NOT NULL REFERENCES duplicate_groups (group_id) ON DELETE CASCADE,
  asset_id_a TEXT    NOT NULL,
  asset_id_b TEXT    NOT NULL,
  method     TEXT    NOT NULL CHECK (method IN ('exact', 'phash')),
  distance   INTEGER NOT NULL,
  confidence REAL    NOT NULL,
  PRIMARY KEY (group_id, asset_id_a, asset_id_b)
) STRICT, WITHOUT ROWID;

-- When detection last ran over an owner's assets in a repository (the summary's last_detected_at).
CREATE TABLE duplicate_detections (
  repository_id TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  owner_id      INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  detected_at   INTEGER NOT NULL,
  PRIMARY KEY (repository_id, owner_id)
) STRICT, WITHOUT ROWID;
