-- Organising the library: albums, tags, stacks, species predictions.
-- Timestamps are integer milliseconds since the epoch (UTC).

-- Albums belong to one user. `album_type` 'bio' is a species album (its photos get species
-- recognition). The cover is chosen by the owner; when none is set (or it leaves the album) the
-- first asset by position stands in (`display_cover_asset_id` in the API).
CREATE TABLE albums (
  album_id       INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id       INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  album_name     TEXT    NOT NULL CHECK (length(album_name) BETWEEN 1 AND 200),
  album_type     TEXT    NOT NULL DEFAULT 'regular' CHECK (album_type IN ('regular', 'bio')),
  description    TEXT,
  cover_asset_id TEXT    REFERENCES assets (asset_id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX albums_owner ON albums (owner_id, updated_at DESC);

-- Ordered membership: positions are 0..n-1 without gaps within an album.
CREATE TABLE album_assets (
  album_id INTEGER NOT NULL REFERENCES albums (album_id) ON DELETE CASCADE,
  asset_id TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  added_at INTEGER NOT NULL,
  PRIMARY KEY (album_id, asset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX album_assets_position ON album_assets (album_id, position);
CREATE INDEX album_assets_asset ON album_assets (asset_id);

-- Tag names are shared across the household (case-insensitive, one row per name); which assets
-- carry a tag is per asset, so a member only ever sees tags on their own assets.
CREATE TABLE tags (
  tag_id     INTEGER PRIMARY KEY AUTOINCREMENT,
  tag_name   TEXT    NOT NULL COLLATE NOCASE UNIQUE CHECK (length(tag_name) BETWEEN 1 AND 100),
  created_at INTEGER NOT NULL
) STRICT;

-- source: manual (a person), zeroshot (classifier), bioclip (species), metadata (IPTC/XMP keywords).
CREATE TABLE asset_tags (
  asset_id   TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  tag_id     INTEGER NOT NULL REFERENCES tags (tag_id) ON DELETE CASCADE,
  source     TEXT    NOT NULL CHECK (source IN ('manual', 'zeroshot', 'bioclip', 'metadata')),
  confidence REAL    NOT NULL DEFAULT 1 CHECK (confidence >= 0 AND confidence <= 1),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (asset_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX asset_tags_tag ON asset_tags (tag_id, asset_id);

-- Stacks group media items for presentation (a burst, or a manual stack). A media item is in at most
-- one stack; positions are 0..n-1. `group_key` identifies an automatically detected stack, so that
-- detection run again finds it instead of creating another (null for manual stacks).
CREATE TABLE stacks (
  stack_id            TEXT    PRIMARY KEY,
  owner_id            INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  stack_kind          TEXT    NOT NULL CHECK (stack_kind IN ('burst', 'manual')),
  group_key           TEXT    UNIQUE,
  cover_media_item_id TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
) STRICT;
CREATE INDEX stacks_owner ON stacks (owner_id);

CREATE TABLE stack_members (
  stack_id      TEXT    NOT NULL REFERENCES stacks (stack_id) ON DELETE CASCADE,
  media_item_id TEXT    NOT NULL UNIQUE REFERENCES media_items (media_item_id) ON DELETE CASCADE,
  position      INTEGER NOT NULL CHECK (position >= 0),
  PRIMARY KEY (stack_id, media_item_id)
) STRICT, WITHOUT ROWID;

-- Species predictions of a photo (BioCLIP), best first by score.
CREATE TABLE species_predictions (
  asset_id   TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  label      TEXT    NOT NULL,
  score      REAL    NOT NULL CHECK (score >= 0 AND score <= 1),
  model_id   TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (asset_id, label)
) STRICT, WITHOUT ROWID;
