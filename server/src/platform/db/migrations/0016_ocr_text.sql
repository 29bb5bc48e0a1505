-- OCR text of photos (issue 13 point 2, features/ocr). One row per asset that OCR has read, even when it
-- found no text (so an image without text is not read again at every rebuild), and one row per line.
--
-- Boxes are four corners normalised to 0..1 of the image OCR read, so any thumbnail size or the original
-- can draw them: JSON [[x,y],[x,y],[x,y],[x,y]], clockwise from the text's top-left.
CREATE TABLE ocr_results (
  asset_id           TEXT    PRIMARY KEY REFERENCES assets (asset_id) ON DELETE CASCADE,
  model_id           TEXT    NOT NULL,
  -- What was read: the medium thumbnail, or the original when the photo had none yet.
  source             TEXT    NOT NULL CHECK (source IN ('medium', 'original')),
  -- Upright size of the image read (the boxes' 1.0).
  image_width        INTEGER NOT NULL,
  image_height       INTEGER NOT NULL,
  processing_time_ms REAL    NOT NULL,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
) STRICT;

CREATE TABLE ocr_lines (
  line_id    INTEGER PRIMARY KEY,
  asset_id   TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  -- Reading order, from 0.
  line_no    INTEGER NOT NULL,
  -- NFKC-normalised as the recogniser's reading was (features/ocr/recognise.ts).
  text       TEXT    NOT NULL,
  box        TEXT    NOT NULL,
  confidence REAL    NOT NULL,
  model_id   TEXT    NOT NULL,
  UNIQUE (asset_id, line_no)
) STRICT;

-- Full text over the lines with the trigram tokenizer, chosen over unicode61 on the corpus's signs
-- (test/server/ocr-index/tokenizer-choice.test.ts): unicode61 makes one token of a run of CJK characters
-- ("ポイ捨て禁止" is one word, so "禁止" is never found) and of Latin words the recogniser ran together
-- ("Cleanhandswithsoap": PP-OCRv4's "ch" recogniser drops most spaces), while trigrams find any substring
-- of three characters or more, case-insensitively. Shorter queries (two-character Chinese and Japanese
-- words such as 禁止 or 港区, "No") cannot use it: the search reads those with LIKE (ocr.store.ts).
CREATE VIRTUAL TABLE ocr_lines_fts USING fts5(text, content = 'ocr_lines', content_rowid = 'line_id', tokenize = 'trigram');

-- Kept in sync by triggers (also when an asset's deletion cascades to its lines).
CREATE TRIGGER ocr_lines_fts_insert AFTER INSERT ON ocr_lines BEGIN
  INSERT INTO ocr_lines_fts (rowid, text) VALUES (new.line_id, new.text);
END;
CREATE TRIGGER ocr_lines_fts_delete AFTER DELETE ON ocr_lines BEGIN
  INSERT INTO ocr_lines_fts (ocr_lines_fts, rowid, text) VALUES ('delete', old.line_id, old.text);
END;
CREATE TRIGGER ocr_lines_fts_update AFTER UPDATE OF text ON ocr_lines BEGIN
  INSERT INTO ocr_lines_fts (ocr_lines_fts, rowid, text) VALUES ('delete', old.line_id, old.text);
  INSERT INTO ocr_lines_fts (rowid, text) VALUES (new.line_id, new.text);
END;
