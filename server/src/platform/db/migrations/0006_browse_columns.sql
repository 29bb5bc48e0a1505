-- Columns and indexes the browse operations filter, group and sort on, so that a large library
-- (100k–1M assets) answers from indexes instead of parsing JSON row by row.
-- VIRTUAL generated columns cost no storage; their indexes hold the values.

-- Camera and lens as extracted into specific_metadata (filters, filter options, statistics).
ALTER TABLE assets ADD COLUMN camera_model TEXT GENERATED ALWAYS AS (CAST(json_extract(specific_metadata, '$.camera_model') AS TEXT)) VIRTUAL;
ALTER TABLE assets ADD COLUMN lens_model TEXT GENERATED ALWAYS AS (CAST(json_extract(specific_metadata, '$.lens_model') AS TEXT)) VIRTUAL;
-- The folder of the file inside its repository: `a/b` for `a/b/c.jpg`, '' for a file at the root.
-- rtrim(p, <every non-slash character of p>) cuts the file name and leaves the trailing slash.
ALTER TABLE assets ADD COLUMN folder_path TEXT GENERATED ALWAYS AS (
  CASE WHEN instr(storage_path, '/') = 0 THEN '' ELSE rtrim(rtrim(storage_path, replace(storage_path, '/', '')), '/') END
) VIRTUAL;
-- The moment a photo stands for: when it was taken, else when it entered the catalog.
ALTER TABLE assets ADD COLUMN best_time INTEGER GENERATED ALWAYS AS (coalesce(taken_time, upload_time)) VIRTUAL;

CREATE INDEX assets_owner_best_time ON assets (owner_id, is_deleted, best_time DESC);
CREATE INDEX assets_owner_camera ON assets (owner_id, camera_model) WHERE camera_model IS NOT NULL;
CREATE INDEX assets_owner_lens ON assets (owner_id, lens_model) WHERE lens_model IS NOT NULL;
CREATE INDEX assets_repo_folder ON assets (repository_id, folder_path);
CREATE INDEX assets_owner_gps ON assets (owner_id, gps_latitude, gps_longitude) WHERE gps_latitude IS NOT NULL;
CREATE INDEX assets_owner_liked ON assets (owner_id, is_deleted) WHERE liked = 1;
CREATE INDEX assets_owner_rating ON assets (owner_id, rating, is_deleted) WHERE rating > 0;
