-- The change journal: what changed in the catalog, written by triggers in the catalog itself, so that
-- a write from any connection, worker thread or process is seen by the server's caches as the rows it
-- touched (platform/cache/change-journal.ts reads it; features/browse/catalog-tracker.ts applies it).
--
-- One row per change: `kind` names what changed and `key` which one:
--   'r' an asset row (key: assets.rowid)         'a' an asset by id (album and tag links, trash state)
--   'i' a media item (key: media_item_id)        's' a stack (key: stack_id)
--   'f' a folder summary (key: repository_id || x'1f' || owner_id || x'1f' || folder_path)
--   'd' no item, only dependencies moved (a tag or an album renamed, deleted or given away)
-- `deps` is a bit set of the kinds of data the change touches (bit order as `DEPS` in
-- platform/cache/change-journal.ts): a cached list whose dependencies did not move is still exact.
--
-- `seq` is the rowid: max + 1, so seqs are contiguous; the journal is pruned from its oldest end only
-- (the newest row always stays), so a reader that finds the oldest seq past its own position knows
-- it missed changes and starts over. Pruning runs inside the writers' own transactions, every 4096th
-- change, keeping the last 65536: bounded size, no writer of its own.
--
-- Triggers only insert into a rowid table (no conflict is possible, so no policy of the statement
-- that fired them can make them fail) and are cheap: a change that touches nothing cached (an
-- asset's processing status, its hash, its thumbnails) writes nothing.
CREATE TABLE change_journal (
  seq  INTEGER PRIMARY KEY,
  kind TEXT    NOT NULL,
  key  ANY,
  deps INTEGER NOT NULL
) STRICT;

CREATE TRIGGER change_journal_prune AFTER INSERT ON change_journal WHEN NEW.seq % 4096 = 0
BEGIN
  DELETE FROM change_journal WHERE seq <= NEW.seq - 65536;
END;

-- deps bits: rows 1, trash 2, shape 4, media 8, time 16, type 32, liked 64, rating 128, meta 256,
-- gps 512, name 1024, path 2048, albums 4096, tags 8192, tag_names 16384, album_owners 32768.

CREATE TRIGGER change_assets_insert AFTER INSERT ON assets
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('r', NEW.rowid, 1);
  INSERT INTO change_journal (kind, key, deps) VALUES ('f', NEW.repository_id || char(31) || NEW.owner_id || char(31) || NEW.folder_path, 0);
END;

CREATE TRIGGER change_assets_delete AFTER DELETE ON assets
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('r', OLD.rowid, 1);
  INSERT INTO change_journal (kind, key, deps) VALUES ('f', OLD.repository_id || char(31) || OLD.owner_id || char(31) || OLD.folder_path, 0);
END;

-- A row changed in what a list, the map or the statistics read. `IS NOT` compares NULLs as values.
CREATE TRIGGER change_assets_update AFTER UPDATE ON assets
WHEN OLD.owner_id IS NOT NEW.owner_id OR OLD.is_deleted IS NOT NEW.is_deleted OR OLD.upload_time IS NOT NEW.upload_time
  OR OLD.taken_time IS NOT NEW.taken_time OR OLD.capture_offset_minutes IS NOT NEW.capture_offset_minutes OR OLD.type IS NOT NEW.type
  OR OLD.liked IS NOT NEW.liked OR OLD.rating IS NOT NEW.rating OR OLD.specific_metadata IS NOT NEW.specific_metadata
  OR OLD.gps_latitude IS NOT NEW.gps_latitude OR OLD.gps_longitude IS NOT NEW.gps_longitude OR OLD.original_filename IS NOT NEW.original_filename
  OR OLD.storage_path IS NOT NEW.storage_path OR OLD.repository_id IS NOT NEW.repository_id OR OLD.media_item_id IS NOT NEW.media_item_id
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('r', NEW.rowid,
      (OLD.owner_id IS NOT NEW.owner_id) * 1
    | (OLD.is_deleted IS NOT NEW.is_deleted) * 2
    | (OLD.media_item_id IS NOT NEW.media_item_id) * 8
    | (OLD.upload_time IS NOT NEW.upload_time OR OLD.taken_time IS NOT NEW.taken_time OR OLD.capture_offset_minutes IS NOT NEW.capture_offset_minutes) * 16
    | (OLD.type IS NOT NEW.type) * 32
    | (OLD.liked IS NOT NEW.liked) * 64
    | (OLD.rating IS NOT NEW.rating) * 128
    | (OLD.specific_metadata IS NOT NEW.specific_metadata) * 256
    | (OLD.gps_latitude IS NOT NEW.gps_latitude OR OLD.gps_longitude IS NOT NEW.gps_longitude) * 512
    | (OLD.original_filename IS NOT NEW.original_filename) * 1024
    | (OLD.storage_path IS NOT NEW.storage_path OR OLD.repository_id IS NOT NEW.repository_id) * 2048);
END;

-- The trash state of an asset: which media item stands for it may change (its siblings are redone).
CREATE TRIGGER change_assets_trash AFTER UPDATE OF is_deleted ON assets WHEN OLD.is_deleted IS NOT NEW.is_deleted
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('a', NEW.asset_id, 2);
END;

-- What a folder summary counts (features/folders): its files by type, state, time and trash state.
CREATE TRIGGER change_assets_folder AFTER UPDATE ON assets
WHEN OLD.is_deleted IS NOT NEW.is_deleted OR OLD.type IS NOT NEW.type OR OLD.state IS NOT NEW.state OR OLD.taken_time IS NOT NEW.taken_time
  OR OLD.upload_time IS NOT NEW.upload_time OR OLD.storage_path IS NOT NEW.storage_path OR OLD.repository_id IS NOT NEW.repository_id
  OR OLD.owner_id IS NOT NEW.owner_id
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('f', OLD.repository_id || char(31) || OLD.owner_id || char(31) || OLD.folder_path, 0);
  INSERT INTO change_journal (kind, key, deps)
    SELECT 'f', NEW.repository_id || char(31) || NEW.owner_id || char(31) || NEW.folder_path, 0
    WHERE NEW.repository_id IS NOT OLD.repository_id OR NEW.owner_id IS NOT OLD.owner_id OR NEW.folder_path IS NOT OLD.folder_path;
END;

-- Media items: a later component (position > 0) changes which file stands for the item ('shape').
CREATE TRIGGER change_components_insert AFTER INSERT ON media_item_components
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('i', NEW.media_item_id, CASE WHEN NEW.position > 0 THEN 12 ELSE 8 END);
END;
CREATE TRIGGER change_components_update AFTER UPDATE ON media_item_components
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('i', OLD.media_item_id, 12);
  INSERT INTO change_journal (kind, key, deps) SELECT 'i', NEW.media_item_id, 12 WHERE NEW.media_item_id IS NOT OLD.media_item_id;
END;
CREATE TRIGGER change_components_delete AFTER DELETE ON media_item_components
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('i', OLD.media_item_id, 12);
END;
CREATE TRIGGER change_media_items_update AFTER UPDATE ON media_items
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('i', NEW.media_item_id, 8);
END;
CREATE TRIGGER change_media_items_delete AFTER DELETE ON media_items
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('i', OLD.media_item_id, 8);
END;

-- Stacks and their members ('shape').
CREATE TRIGGER change_stacks_insert AFTER INSERT ON stacks BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('s', NEW.stack_id, 4); END;
CREATE TRIGGER change_stacks_update AFTER UPDATE ON stacks
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('s', OLD.stack_id, 4);
  INSERT INTO change_journal (kind, key, deps) SELECT 's', NEW.stack_id, 4 WHERE NEW.stack_id IS NOT OLD.stack_id;
END;
CREATE TRIGGER change_stacks_delete AFTER DELETE ON stacks BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('s', OLD.stack_id, 4); END;
CREATE TRIGGER change_stack_members_insert AFTER INSERT ON stack_members BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('s', NEW.stack_id, 4); END;
CREATE TRIGGER change_stack_members_update AFTER UPDATE ON stack_members
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('s', OLD.stack_id, 4);
  INSERT INTO change_journal (kind, key, deps) SELECT 's', NEW.stack_id, 4 WHERE NEW.stack_id IS NOT OLD.stack_id;
END;
CREATE TRIGGER change_stack_members_delete AFTER DELETE ON stack_members BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('s', OLD.stack_id, 4); END;

-- Album and tag links of an asset; albums and tags themselves (lists filtering on them start over).
CREATE TRIGGER change_album_assets_insert AFTER INSERT ON album_assets BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', NEW.asset_id, 4096); END;
CREATE TRIGGER change_album_assets_update AFTER UPDATE ON album_assets
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('a', OLD.asset_id, 4096);
  INSERT INTO change_journal (kind, key, deps) SELECT 'a', NEW.asset_id, 4096 WHERE NEW.asset_id IS NOT OLD.asset_id;
END;
CREATE TRIGGER change_album_assets_delete AFTER DELETE ON album_assets BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', OLD.asset_id, 4096); END;
CREATE TRIGGER change_albums_owner AFTER UPDATE OF owner_id ON albums BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 32768); END;
CREATE TRIGGER change_albums_delete AFTER DELETE ON albums BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 32768); END;
CREATE TRIGGER change_asset_tags_insert AFTER INSERT ON asset_tags BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', NEW.asset_id, 8192); END;
CREATE TRIGGER change_asset_tags_update AFTER UPDATE ON asset_tags
BEGIN
  INSERT INTO change_journal (kind, key, deps) VALUES ('a', OLD.asset_id, 8192);
  INSERT INTO change_journal (kind, key, deps) SELECT 'a', NEW.asset_id, 8192 WHERE NEW.asset_id IS NOT OLD.asset_id;
END;
CREATE TRIGGER change_asset_tags_delete AFTER DELETE ON asset_tags BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', OLD.asset_id, 8192); END;
CREATE TRIGGER change_tags_update AFTER UPDATE ON tags BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 16384); END;
CREATE TRIGGER change_tags_delete AFTER DELETE ON tags BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 16384); END;
