-- Why an asset is in the Trash: `user` (someone deleted it) or `missing` (its file disappeared from
-- the repository). Watching and scanning bring a `missing` asset back when its file returns, but
-- never take a user's deletion back just because the file is still there or changed on disk.
ALTER TABLE assets ADD COLUMN deleted_reason TEXT CHECK (deleted_reason IS NULL OR deleted_reason IN ('user', 'missing'));
UPDATE assets SET deleted_reason = 'missing' WHERE is_deleted = 1;
