-- Search (issue 13, features/search channels/ocr.ts): each OCR line carries its asset's rowid, the key of the
-- search's allowed bitmap. The ocr channel reads the lines a query word matches (trigram index, 0016) and keeps
-- those whose asset the bitmap allows; before, every matching line probed its asset's row by asset_id to learn
-- the rowid (and the owner and Trash state, which the bitmap decides anyway): a common word ("exit", "total")
-- matches a line in thousands of photos, and those probes were most of the channel's time at 100k photos.
--
-- Kept current: the OCR store writes it with each line (features/ocr/ocr.store.ts); a line written by anything
-- else gets it from the trigger below. An asset's rowid does not change while it lives, and its lines go with
-- it when it is deleted for good (ON DELETE CASCADE, 0016). NULL only for a line whose asset is missing, which
-- the search never returns.
ALTER TABLE ocr_lines ADD COLUMN asset_rowid INTEGER;

UPDATE ocr_lines SET asset_rowid = (SELECT a.rowid FROM assets a WHERE a.asset_id = ocr_lines.asset_id);

CREATE TRIGGER ocr_lines_asset_rowid_insert AFTER INSERT ON ocr_lines WHEN new.asset_rowid IS NULL BEGIN
  UPDATE ocr_lines SET asset_rowid = (SELECT a.rowid FROM assets a WHERE a.asset_id = new.asset_id) WHERE line_id = new.line_id;
END;
CREATE TRIGGER ocr_lines_asset_rowid_update AFTER UPDATE OF asset_id ON ocr_lines BEGIN
  UPDATE ocr_lines SET asset_rowid = (SELECT a.rowid FROM assets a WHERE a.asset_id = new.asset_id) WHERE line_id = new.line_id;
END;
