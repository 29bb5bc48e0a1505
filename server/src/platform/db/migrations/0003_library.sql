-- The library: assets, logical media items, repository scans, uploads.
-- Timestamps are integer milliseconds since the epoch (UTC). Paths inside a repository are
-- repository-relative with forward slashes.

-- Repository reachability: active, offline (path unreadable), error (marker missing or wrong).
ALTER TABLE repositories ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'offline', 'error'));
ALTER TABLE repositories ADD COLUMN status_detail TEXT;
-- Whose assets files found by scanning become (uploads keep their uploader).
ALTER TABLE repositories ADD COLUMN default_owner_id INTEGER REFERENCES users (user_id) ON DELETE SET NULL;

-- One row per file. Media files are never rewritten; derivatives live in the data folder.
CREATE TABLE assets (
  asset_id               TEXT    PRIMARY KEY,               -- UUID v7
  owner_id               INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  repository_id          TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  storage_path           TEXT    NOT NULL,                  -- repository-relative
  type                   TEXT    NOT NULL CHECK (type IN ('PHOTO', 'VIDEO', 'AUDIO')),
  original_filename      TEXT    NOT NULL,
  mime_type              TEXT    NOT NULL,
  file_size              INTEGER NOT NULL,
  hash                   TEXT,                              -- BLAKE3, 64 hex; null until hashed
  file_mtime             INTEGER,                           -- mtime seen when last indexed
  width                  INTEGER,
  height                 INTEGER,
  duration               REAL,
  taken_time             INTEGER,                           -- UTC instant of capture
  capture_offset_minutes INTEGER,                           -- local offset at capture, when known
  upload_time            INTEGER NOT NULL,                  -- when it entered the catalog
  gps_latitude           REAL,
  gps_longitude          REAL,
  liked                  INTEGER NOT NULL DEFAULT 0 CHECK (liked IN (0, 1)),
  rating                 INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
  description            TEXT,
  is_deleted             INTEGER NOT NULL DEFAULT 0 CHECK (is_deleted IN (0, 1)),
  deleted_at             INTEGER,
  content_id             TEXT,                              -- Apple live photo / pairing identifier
  phash                  TEXT,                              -- 16 hex
  specific_metadata      TEXT    CHECK (specific_metadata IS NULL OR json_valid(specific_metadata)),
  exif_raw               TEXT    CHECK (exif_raw IS NULL OR json_valid(exif_raw)),
  -- Processing: pending → processing → ready | failed; `status` holds the contract's integer codes.
  state                  TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'processing', 'ready', 'failed')),
  status                 TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(status)),
  last_error             TEXT,
  media_item_id          TEXT,
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL,
  UNIQUE (repository_id, storage_path)
) STRICT;
CREATE INDEX assets_owner_time ON assets (owner_id, is_deleted, taken_time DESC);
CREATE INDEX assets_owner_upload ON assets (owner_id, is_deleted, upload_time DESC);
CREATE INDEX assets_hash ON assets (repository_id, hash, file_size);
CREATE INDEX assets_content_id ON assets (owner_id, content_id) WHERE content_id IS NOT NULL;
CREATE INDEX assets_media_item ON assets (media_item_id);
CREATE INDEX assets_state ON assets (state);

-- Logical media items: a RAW+JPEG pair, a live photo (still + motion), or a single file.
CREATE TABLE media_items (
  media_item_id    TEXT    PRIMARY KEY,
  owner_id         INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  media_kind       TEXT    NOT NULL CHECK (media_kind IN ('photo', 'video', 'audio', 'live_photo')),
  primary_asset_id TEXT    NOT NULL,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
) STRICT;

CREATE TABLE media_item_components (
  media_item_id TEXT    NOT NULL REFERENCES media_items (media_item_id) ON DELETE CASCADE,
  asset_id      TEXT    NOT NULL UNIQUE REFERENCES assets (asset_id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  relation      TEXT    NOT NULL CHECK (relation IN ('original', 'raw_original', 'jpeg_original', 'live_photo_still', 'live_photo_video', 'edited_version', 'alternative')),
  PRIMARY KEY (media_item_id, asset_id)
) STRICT;

-- Scans of a repository (periodic, manual, or on start), with what they found.
CREATE TABLE repository_scans (
  scan_id       TEXT    PRIMARY KEY,
  repository_id TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  mode          TEXT    NOT NULL CHECK (mode IN ('periodic', 'manual', 'startup')),
  status        TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  complete_walk INTEGER NOT NULL DEFAULT 0 CHECK (complete_walk IN (0, 1)),
  files_seen    INTEGER NOT NULL DEFAULT 0,
  added         INTEGER NOT NULL DEFAULT 0,
  updated       INTEGER NOT NULL DEFAULT 0,
  moved         INTEGER NOT NULL DEFAULT 0,
  deleted       INTEGER NOT NULL DEFAULT 0,
  skipped       INTEGER NOT NULL DEFAULT 0,
  failed        INTEGER NOT NULL DEFAULT 0,
  error         TEXT,
  requested_by  INTEGER REFERENCES users (user_id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  started_at    INTEGER,
  finished_at   INTEGER
) STRICT;
CREATE INDEX repository_scans_repo ON repository_scans (repository_id, created_at DESC);
CREATE UNIQUE INDEX repository_scans_one_running ON repository_scans (repository_id) WHERE status IN ('queued', 'running');

-- Chunked upload sessions: durable, so a dropped connection or a restart resumes.
CREATE TABLE upload_sessions (
  session_id      TEXT    PRIMARY KEY,
  owner_id        INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  repository_id   TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  filename        TEXT    NOT NULL,
  content_type    TEXT,
  total_size      INTEGER NOT NULL,
  total_chunks    INTEGER NOT NULL,
  chunk_size      INTEGER NOT NULL,
  received_chunks TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(received_chunks)),
  bytes_received  INTEGER NOT NULL DEFAULT 0,
  client_hash     TEXT,
  status          TEXT    NOT NULL CHECK (status IN ('pending', 'uploading', 'merging', 'completed', 'failed')),
  problem         TEXT    CHECK (problem IS NULL OR json_valid(problem)),
  receipt_id      TEXT,
  created_at      INTEGER NOT NULL,
  last_activity   INTEGER NOT NULL
) STRICT;
CREATE INDEX upload_sessions_owner ON upload_sessions (owner_id, last_activity DESC);

-- Receipts: one per uploaded file, followed to a final state (the file is in the catalog, or why not).
CREATE TABLE upload_receipts (
  receipt_id   TEXT    PRIMARY KEY,
  owner_id     INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  file_name    TEXT    NOT NULL,
  size         INTEGER,
  content_hash TEXT,
  asset_id     TEXT,
  status       TEXT    NOT NULL CHECK (status IN ('uploading', 'processing', 'queued', 'completed', 'duplicate', 'failed')),
  problem      TEXT    CHECK (problem IS NULL OR json_valid(problem)),
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX upload_receipts_owner ON upload_receipts (owner_id, created_at DESC);
