-- Indexes of the unified list (features/browse), each measured with `npm run bench:query` on
-- synthetic catalogs of 100k and 1M files. Rows of `assets` are large (EXIF blobs of 1–6 KB spill
-- into overflow pages), so a list query must be answered from one index without reading the table
-- for every row it looks at: these indexes cover the owner, the trash state, both sort keys and what
-- each filter tests.
--
-- Expressions rather than the 0006 generated columns: SQLite answers an indexed expression from the
-- index (a covering index), while reading a VIRTUAL generated column always reads the row. The
-- queries (browse.filter.ts) spell the expressions exactly as here; test/server/browse/
-- query-plans.test.ts checks that every filter's query plan uses them.
--
-- Measured (one full computation of a list, the same SQL without and with these indexes, 2-core
-- machine under load; bench catalogs .tmp/bench-query):
--   query              100k: without  with      1M: without   with
--   timeline                    28 ms   7 ms          339 ms   152 ms
--   timeline by date           115 ms   8 ms         8480 ms   131 ms
--   videos                     103 ms   5 ms         1226 ms   104 ms
--   liked                       94 ms   0.2 ms       1170 ms     2 ms
--   camera                     143 ms   7 ms         2116 ms    57 ms
--   date range (2 months)      110 ms   0.2 ms       1313 ms     2 ms
--   map box (home city)         51 ms   8 ms          833 ms   130 ms
--   folder (a year)             97 ms   2 ms         1820 ms    18 ms
--   file name contains         103 ms   7 ms         2283 ms   126 ms
--   album                       91 ms   0.1 ms       1594 ms     0.1 ms
--   tag                        119 ms  16 ms         1850 ms   272 ms
--   RAW+JPEG pairs             550 ms  22 ms         7279 ms   376 ms
--   live photos                150 ms  18 ms         1941 ms   330 ms
--   catalog shape (browse.shape.ts) 238 ms → 169 ms; 1M: 3202 ms → 2545 ms

-- The list in its two orders, covering type, liked, rating and the media item: the timeline and its
-- type / liked / rating / composition / stack variants walk one of these and nothing else.
CREATE INDEX assets_list_upload ON assets (owner_id, is_deleted, upload_time DESC, type, liked, rating, media_item_id);
CREATE INDEX assets_list_best ON assets (owner_id, is_deleted, coalesce(taken_time, upload_time) DESC, upload_time, type, liked, rating, media_item_id);

-- Filters with their own way in, each carrying both sort keys.
CREATE INDEX assets_list_camera ON assets (owner_id, is_deleted, CAST(json_extract(specific_metadata, '$.camera_model') AS TEXT), upload_time DESC, coalesce(taken_time, upload_time));
CREATE INDEX assets_list_liked ON assets (owner_id, is_deleted, liked, upload_time DESC, coalesce(taken_time, upload_time)) WHERE liked = 1;
CREATE INDEX assets_list_rated ON assets (owner_id, is_deleted, rating, upload_time DESC, coalesce(taken_time, upload_time)) WHERE rating > 0;
CREATE INDEX assets_list_gps ON assets (owner_id, is_deleted, gps_latitude, gps_longitude, upload_time, coalesce(taken_time, upload_time)) WHERE gps_latitude IS NOT NULL;
-- Folders: the files of folder F and below are the storage paths between 'F/' and 'F0'.
CREATE INDEX assets_list_path ON assets (owner_id, is_deleted, storage_path, repository_id, upload_time, coalesce(taken_time, upload_time));
-- File name search (`query`, `filter.filename`): LIKE '%…%' cannot seek, so it runs over this index.
CREATE INDEX assets_owner_filename ON assets (owner_id, is_deleted, original_filename, upload_time, coalesce(taken_time, upload_time));

-- From an asset id to what the list needs: album and tag filters start from album_assets /
-- asset_tags; the catalog shape (which file stands for a media item) reads the trash state of every
-- file of multi-file items.
CREATE INDEX assets_id_list ON assets (asset_id, owner_id, is_deleted, upload_time, coalesce(taken_time, upload_time));

-- RAW files (composition filters): a few percent of the catalog. The expression must appear as
-- written in the query for SQLite to use this partial index.
CREATE INDEX assets_owner_raw ON assets (owner_id, is_deleted, media_item_id) WHERE json_extract(specific_metadata, '$.is_raw') = 1;

-- Multi-file media items (RAW+JPEG, live photos, edits) and their files in position order.
CREATE INDEX media_item_components_later ON media_item_components (media_item_id) WHERE position > 0;
CREATE INDEX media_item_components_item ON media_item_components (media_item_id, position, asset_id);

-- Live photos of an owner (composition `live_photo`).
CREATE INDEX media_items_live ON media_items (owner_id, media_item_id) WHERE media_kind = 'live_photo';
