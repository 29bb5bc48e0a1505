-- Photo events (features/events): a person's media items grouped by time and place (`events-v1`),
-- with stable ids across rebuilds, the person's corrections (which survive every rebuild), and the
-- per-owner rebuild state with its dirty ranges. Times are integer milliseconds since the epoch (UTC).
-- (The brief numbers this migration 0024; it is 0020 on this branch so that numbering has no gap.)

-- An event. `status`: 'active' (listed), 'redirected' (retired by a rebuild; `redirect_to` is its
-- successor, always one hop), 'retired' (retired with no successor: its photos are gone).
-- title_override, is_hidden and cover_media_item_id are the person's; everything else is computed.
CREATE TABLE photo_events (
  event_id            TEXT    PRIMARY KEY,
  owner_id            INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  status              TEXT    NOT NULL CHECK (status IN ('active', 'redirected', 'retired')),
  algorithm_version   TEXT    NOT NULL,
  start_at            INTEGER NOT NULL,
  end_at              INTEGER NOT NULL,
  timezone            TEXT,
  centroid_lat        REAL,
  centroid_lon        REAL,
  generated_title     TEXT    NOT NULL,
  title_override      TEXT,
  is_hidden           INTEGER NOT NULL DEFAULT 0 CHECK (is_hidden IN (0, 1)),
  cover_media_item_id TEXT,
  redirect_to         TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
) STRICT;
CREATE INDEX photo_events_owner_list ON photo_events (owner_id, status, start_at DESC, event_id);
CREATE INDEX photo_events_redirect ON photo_events (redirect_to) WHERE redirect_to IS NOT NULL;

-- Membership: a media item is in at most one event. origin 'segment' (the segmentation put it there)
-- or 'added' (the person added it).
CREATE TABLE photo_event_members (
  event_id      TEXT    NOT NULL REFERENCES photo_events (event_id) ON DELETE CASCADE,
  media_item_id TEXT    NOT NULL REFERENCES media_items (media_item_id) ON DELETE CASCADE,
  position      INTEGER NOT NULL CHECK (position >= 0),
  origin        TEXT    NOT NULL CHECK (origin IN ('segment', 'added')),
  PRIMARY KEY (event_id, media_item_id)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX photo_event_members_item ON photo_event_members (media_item_id);
CREATE INDEX photo_event_members_position ON photo_event_members (event_id, position);

-- The person's corrections of membership: 'include' (added to that event) or 'exclude' (taken out of it).
CREATE TABLE photo_event_item_labels (
  media_item_id TEXT    NOT NULL REFERENCES media_items (media_item_id) ON DELETE CASCADE,
  event_id      TEXT    NOT NULL,
  owner_id      INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  label         TEXT    NOT NULL CHECK (label IN ('include', 'exclude')),
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (media_item_id, event_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX photo_event_item_labels_event ON photo_event_item_labels (event_id);

-- Pairwise constraints of the segmentation: 'cannot_link' (a split: a boundary between the two),
-- 'must_link' (never a boundary between them). `event_id` / `created_event_id`: the events the
-- correction was made on (resetEvent of either drops it).
CREATE TABLE photo_event_links (
  owner_id         INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  a_media_item_id  TEXT    NOT NULL REFERENCES media_items (media_item_id) ON DELETE CASCADE,
  b_media_item_id  TEXT    NOT NULL REFERENCES media_items (media_item_id) ON DELETE CASCADE,
  kind             TEXT    NOT NULL CHECK (kind IN ('must_link', 'cannot_link')),
  event_id         TEXT    NOT NULL,
  created_event_id TEXT,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (a_media_item_id, b_media_item_id, kind)
) STRICT, WITHOUT ROWID;
CREATE INDEX photo_event_links_owner ON photo_event_links (owner_id);

-- Rebuild state per owner. `revision` counts changes to what the events are made of (asset times and
-- places, corrections); `source_revision` is the revision the last published rebuild read;
-- `published_revision` counts publishes. A run holds `running_run_id` until `lease_expires_at`.
CREATE TABLE photo_event_owner_state (
  owner_id            INTEGER PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  algorithm_version   TEXT    NOT NULL DEFAULT 'events-v1',
  initialized         INTEGER NOT NULL DEFAULT 0 CHECK (initialized IN (0, 1)),
  paused              INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  revision            INTEGER NOT NULL DEFAULT 0,
  source_revision     INTEGER NOT NULL DEFAULT 0,
  published_revision  INTEGER NOT NULL DEFAULT 0,
  queued_run_id       INTEGER,
  running_run_id      TEXT,
  lease_expires_at    INTEGER,
  last_success_run_id TEXT,
  last_failure_run_id TEXT,
  last_error_code     TEXT,
  updated_at          INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Time ranges of an owner's timeline that changed since the last rebuild; a run claims them
-- (`claimed_by` = its run id) and deletes only the ones it claimed.
CREATE TABLE photo_event_dirty_ranges (
  range_id   INTEGER PRIMARY KEY,
  owner_id   INTEGER NOT NULL,
  from_at    INTEGER NOT NULL,
  to_at      INTEGER NOT NULL,
  claimed_by TEXT
) STRICT;
CREATE INDEX photo_event_dirty_ranges_owner ON photo_event_dirty_ranges (owner_id, claimed_by);

-- Every writer of the catalog (ingest, the pipeline, the Trash, the asset API, a scan) marks the range it
-- touched: the triggers see each change to what an event is made of, whoever makes it.
CREATE TRIGGER photo_events_dirty_asset_update AFTER UPDATE ON assets
WHEN (NEW.media_item_id IS NOT NULL OR OLD.media_item_id IS NOT NULL) AND (
  OLD.taken_time IS NOT NEW.taken_time OR OLD.upload_time IS NOT NEW.upload_time OR OLD.capture_offset_minutes IS NOT NEW.capture_offset_minutes
  OR OLD.gps_latitude IS NOT NEW.gps_latitude OR OLD.gps_longitude IS NOT NEW.gps_longitude
  OR OLD.is_deleted IS NOT NEW.is_deleted OR OLD.media_item_id IS NOT NEW.media_item_id OR OLD.owner_id IS NOT NEW.owner_id)
BEGIN
  INSERT INTO photo_event_dirty_ranges (owner_id, from_at, to_at)
  VALUES (NEW.owner_id, min(coalesce(OLD.taken_time, OLD.upload_time), coalesce(NEW.taken_time, NEW.upload_time)),
                        max(coalesce(OLD.taken_time, OLD.upload_time), coalesce(NEW.taken_time, NEW.upload_time)));
  INSERT INTO photo_event_owner_state (owner_id, revision, updated_at) VALUES (NEW.owner_id, 1, 0)
  ON CONFLICT (owner_id) DO UPDATE SET revision = revision + 1;
END;

CREATE TRIGGER photo_events_dirty_asset_delete AFTER DELETE ON assets WHEN OLD.media_item_id IS NOT NULL
BEGIN
  INSERT INTO photo_event_dirty_ranges (owner_id, from_at, to_at)
  VALUES (OLD.owner_id, coalesce(OLD.taken_time, OLD.upload_time), coalesce(OLD.taken_time, OLD.upload_time));
  INSERT INTO photo_event_owner_state (owner_id, revision, updated_at) VALUES (OLD.owner_id, 1, 0)
  ON CONFLICT (owner_id) DO UPDATE SET revision = revision + 1;
END;

-- Lists filtering on `event_id` (features/browse) start over when event membership changes: the events
-- store writes one ('d', NULL, 65536) journal entry ('events' in platform/cache/change-journal.ts) per
-- publish or correction, not one per member row (a rebuild rewrites thousands).

-- Libraries that exist before this migration get their first rebuild (the scheduler finds them pending).
INSERT INTO photo_event_owner_state (owner_id, revision, updated_at) SELECT DISTINCT owner_id, 1, 0 FROM media_items;
