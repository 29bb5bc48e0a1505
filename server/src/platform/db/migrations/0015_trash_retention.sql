-- The Trash's retention job (features/assets/trash) looks for items trashed before a time, for every
-- member, hourly: a small partial index keeps that a range read instead of a walk of the whole catalog.
CREATE INDEX assets_trashed_at ON assets (deleted_at) WHERE is_deleted = 1;
