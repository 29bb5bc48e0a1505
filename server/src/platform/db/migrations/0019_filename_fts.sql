-- Search (issue 13, features/search channels/filename.ts): the `filename` channel finds file names that contain
-- the query's words anywhere ("beach" in "2019_beach_day.jpg"). A LIKE '%word%' cannot use a B-tree index, so it
-- read every file name of the owner per query (22/49 ms p50/p95 at 100k photos, ten times that at 1M). A trigram
-- full-text index finds any substring of three characters or more from the index, case-insensitively, costing in
-- proportion to the names that match; shorter words ("dc", "a7") are still read with LIKE (the channel says so).
--
-- External content: the names live once, in assets; the index holds only the trigrams, keyed by assets.rowid
-- (the rowid the search's allowed bitmap uses). Kept in sync by triggers on insert, rename and delete (a
-- deletion for good; moving to the Trash keeps the name, the channel filters is_deleted).
CREATE VIRTUAL TABLE assets_filename_fts USING fts5(original_filename, content = 'assets', content_rowid = 'rowid', tokenize = 'trigram');

INSERT INTO assets_filename_fts (assets_filename_fts) VALUES ('rebuild');

CREATE TRIGGER assets_filename_fts_insert AFTER INSERT ON assets BEGIN
  INSERT INTO assets_filename_fts (rowid, original_filename) VALUES (new.rowid, new.original_filename);
END;
CREATE TRIGGER assets_filename_fts_delete AFTER DELETE ON assets BEGIN
  INSERT INTO assets_filename_fts (assets_filename_fts, rowid, original_filename) VALUES ('delete', old.rowid, old.original_filename);
END;
CREATE TRIGGER assets_filename_fts_rename AFTER UPDATE OF original_filename ON assets BEGIN
  INSERT INTO assets_filename_fts (assets_filename_fts, rowid, original_filename) VALUES ('delete', old.rowid, old.original_filename);
  INSERT INTO assets_filename_fts (rowid, original_filename) VALUES (new.rowid, new.original_filename);
END;
