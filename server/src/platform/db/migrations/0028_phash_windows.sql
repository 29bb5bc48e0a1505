-- Window pHashes of photos (issue 24, features/duplicates): the pHashes of nine windows of each photo, 93 % of
-- a side (corners, sides, centre; adapters/media/phash.ts PHASH_WINDOWS), concatenated: 144 hex digits. They let
-- detection find copies cropped by up to ~10 %, to which the whole-frame pHash is blind. Additive: NULL until
-- computed, by ingest for new photos and by the duplicates backfill job (from the small thumbnail) for the
-- photos already in the catalog.
ALTER TABLE assets ADD COLUMN phash_windows TEXT;
-- The backfill finds what lacks windows without a scan of every asset.
CREATE INDEX assets_phash_windows_missing ON assets (type) WHERE phash_windows IS NULL AND phash IS NOT NULL AND type = 'PHOTO';
