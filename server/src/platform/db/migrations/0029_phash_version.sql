-- The recipe of each stored pHash (issue 25, adapters/media/phash.ts PHASH_VERSION): version 1 was libvips'
-- greyscale + lanczos3 reduce to 32×32, version 2 an area average in JavaScript. Hashes of two recipes lie a few
-- bits apart, so detection never compares them (features/duplicates/detect.ts); the duplicates feature's pHash
-- backfill recomputes every older hash (and its window hashes) from the small thumbnail, in the background.
-- New rows default to the current version (ingest also writes it); the hashes already stored are version 1.
ALTER TABLE assets ADD COLUMN phash_version INTEGER NOT NULL DEFAULT 2;
UPDATE assets SET phash_version = 1 WHERE phash IS NOT NULL;
-- The backfill finds hashes of an older recipe without a scan of every asset.
CREATE INDEX assets_phash_stale ON assets (phash_version) WHERE phash IS NOT NULL AND phash_version < 2;
