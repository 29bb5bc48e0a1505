-- Where an asset's capture time and place come from, what the file itself says, and a person's corrections
-- (issue 24; features/assets/capture, features/assets/corrections).
--
-- taken_time / capture_offset_minutes / gps_latitude / gps_longitude stay the EFFECTIVE values every reader uses
-- (timeline, map, places, events, search, statistics): a person's correction when there is one, else what the
-- file offers. The file's own values are kept beside them (file_*), so "Restore the file's date/place" and a
-- re-read of the file never lose either side.

-- The file's own modification time: the disk's for files found by scanning and watching, the uploading device's
-- for uploads (the client's `last_modified`); null when unknown (an upload that did not send it). With the zone
-- the device was in, when it said so (the web client sends its own).
ALTER TABLE assets ADD COLUMN file_modified_time INTEGER;
ALTER TABLE assets ADD COLUMN file_modified_offset_minutes INTEGER;

-- What the file offers: its metadata's capture time ('file': EXIF/XMP of a photo; 'container': a video's or audio
-- file's container), else its modification time ('file_modified'); null = no date at all.
ALTER TABLE assets ADD COLUMN file_taken_time INTEGER;
ALTER TABLE assets ADD COLUMN file_capture_offset_minutes INTEGER;
ALTER TABLE assets ADD COLUMN file_time_source TEXT CHECK (file_time_source IN ('file', 'container', 'file_modified'));
ALTER TABLE assets ADD COLUMN file_gps_latitude REAL;
ALTER TABLE assets ADD COLUMN file_gps_longitude REAL;

-- Where the effective values come from: the file's sources above, or 'user' (a person's correction, which wins
-- over every other source and survives re-processing). place_source 'user' with no position = a person cleared it.
ALTER TABLE assets ADD COLUMN time_source TEXT CHECK (time_source IN ('file', 'container', 'file_modified', 'user'));
ALTER TABLE assets ADD COLUMN place_source TEXT CHECK (place_source IN ('file', 'user'));

-- What the catalog holds today is what the files said (nobody could correct anything before).
UPDATE assets SET
  file_taken_time = taken_time,
  file_capture_offset_minutes = capture_offset_minutes,
  file_time_source = CASE WHEN taken_time IS NULL THEN NULL WHEN type = 'PHOTO' THEN 'file' ELSE 'container' END,
  time_source = CASE WHEN taken_time IS NULL THEN NULL WHEN type = 'PHOTO' THEN 'file' ELSE 'container' END,
  file_gps_latitude = gps_latitude,
  file_gps_longitude = gps_longitude,
  place_source = CASE WHEN gps_latitude IS NOT NULL AND gps_longitude IS NOT NULL THEN 'file' END;

-- Files found on disk: the modification time seen when they were indexed. Uploads stored the file at arrival, so
-- their disk time says nothing about the photo: left unknown.
UPDATE assets SET file_modified_time = file_mtime
WHERE file_mtime IS NOT NULL AND NOT EXISTS (SELECT 1 FROM upload_receipts r WHERE r.asset_id = assets.asset_id);

-- Processed files without a date in them get the modification time now (new ones get it from the pipeline).
UPDATE assets SET taken_time = file_modified_time, file_taken_time = file_modified_time, time_source = 'file_modified', file_time_source = 'file_modified'
WHERE taken_time IS NULL AND file_modified_time IS NOT NULL AND state = 'ready';

-- A person's corrections of capture times or places, one per save (one asset or many), kept so each can be
-- undone: the values every asset had before it. An undo puts those back on the assets no later correction of
-- the same kind has changed since (asset-corrections.service.ts).
CREATE TABLE asset_corrections (
  correction_id TEXT    PRIMARY KEY,                 -- UUID v7
  owner_id      INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  kind          TEXT    NOT NULL CHECK (kind IN ('time', 'place')),
  created_at    INTEGER NOT NULL,
  undone_at     INTEGER
) STRICT;
CREATE INDEX asset_corrections_owner ON asset_corrections (owner_id, created_at DESC);

CREATE TABLE asset_correction_items (
  correction_id TEXT NOT NULL REFERENCES asset_corrections (correction_id) ON DELETE CASCADE,
  asset_id      TEXT NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  previous      TEXT NOT NULL CHECK (json_valid(previous)),  -- the asset's columns of that kind before the correction
  PRIMARY KEY (correction_id, asset_id)
) STRICT;
CREATE INDEX asset_correction_items_asset ON asset_correction_items (asset_id);

-- A chunked upload's `last_modified` (createUploadSession), kept until its file is committed.
ALTER TABLE upload_sessions ADD COLUMN file_modified_time INTEGER;
ALTER TABLE upload_sessions ADD COLUMN file_modified_offset_minutes INTEGER;
