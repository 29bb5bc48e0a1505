-- The camera make beside the model: a library filter ("all Canon photos") and its filter options,
-- indexed the way camera_model is (0006 for the options' skip scan, 0007 for the list walk).
ALTER TABLE assets ADD COLUMN camera_make TEXT GENERATED ALWAYS AS (CAST(json_extract(specific_metadata, '$.camera_make') AS TEXT)) VIRTUAL;

CREATE INDEX assets_owner_make ON assets (owner_id, camera_make) WHERE camera_make IS NOT NULL;
CREATE INDEX assets_list_make ON assets (owner_id, is_deleted, CAST(json_extract(specific_metadata, '$.camera_make') AS TEXT), upload_time DESC, coalesce(taken_time, upload_time));
