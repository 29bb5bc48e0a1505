-- Search (issue 13, features/search channels/filename.ts and text.ts): the `filename` channel finds file names
-- that contain the query's words anywhere ("beach" in "2019_beach_day.jpg"), the `text` channel the descriptions
-- people wrote. A LIKE '%word%' cannot use a B-tree index: per query it read every file name of the owner, and
-- every described row of the table (scattered over the table's pages: the slowest part of the text channel at
-- 100k photos, and ten times that at 1M). A trigram full-text index finds any substring of three characters or
-- more from the index, case-insensitively, costing in proportion to the rows that match; shorter words ("dc",
-- "a7") are still read with LIKE (the channels say so).
--
-- External content: the words live once, in assets; the index holds only the trigrams, keyed by assets.rowid
-- (the rowid the search's allowed bitmap uses). Kept in sync by triggers on insert, on a change of either
-- column (rename, description edited) and on deletion for good (moving to the Trash keeps the row; the
-- channels filter is_deleted).
CREATE VIRTUAL TABLE assets_words_fts USING fts5(original_filename, description, content = 'assets', content_rowid = 'rowid', tokenize = 'trigram');

INSERT INTO assets_words_fts (assets_words_fts) VALUES ('rebuild');

CREATE TRIGGER assets_words_fts_insert AFTER INSERT ON assets BEGIN
  INSERT INTO assets_words_fts (rowid, original_filename, description) VALUES (new.rowid, new.original_filename, new.description);
END;
CREATE TRIGGER assets_words_fts_delete AFTER DELETE ON assets BEGIN
  INSERT INTO assets_words_fts (assets_words_fts, rowid, original_filename, description) VALUES ('delete', old.rowid, old.original_filename, old.description);
END;
CREATE TRIGGER assets_words_fts_update AFTER UPDATE OF original_filename, description ON assets BEGIN
  INSERT INTO assets_words_fts (assets_words_fts, rowid, original_filename, description) VALUES ('delete', old.rowid, old.original_filename, old.description);
  INSERT INTO assets_words_fts (rowid, original_filename, description) VALUES (new.rowid, new.original_filename, new.description);
END;
