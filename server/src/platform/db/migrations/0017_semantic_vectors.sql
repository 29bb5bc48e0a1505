-- Semantic (CLIP) vectors of photos and video frames (issue 13 points 2 and 3, features/semantic). This table is
-- the source of truth; whatever index search keeps in memory is rebuilt from it at start and follows its changes.
--
-- One row per photo (frame_ts_ms = -1) or per sampled video frame (its timestamp in ms), per model: vectors of
-- different models are never compared, so a model change re-embeds without mixing them. `embedding` is the
-- L2-normalised float32[512] vector, little-endian (4·512 = 2,048 bytes), the layout sqlite-vec's vec_f32() and
-- vec_distance_cosine() read, so an exact scan can run in SQL. Re-indexing an asset replaces all its rows in one
-- transaction (features/semantic/semantic.store.ts), so a restart or a kill never leaves duplicates: the
-- UNIQUE key below would refuse them anyway.
CREATE TABLE semantic_vectors (
  vector_id   INTEGER PRIMARY KEY,
  asset_id    TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  model_id    TEXT    NOT NULL,
  frame_ts_ms INTEGER NOT NULL DEFAULT -1 CHECK (frame_ts_ms >= -1),
  embedding   BLOB    NOT NULL CHECK (length(embedding) = 2048),
  created_at  INTEGER NOT NULL,
  UNIQUE (asset_id, model_id, frame_ts_ms)
) STRICT;
-- The in-memory index loads one model's vectors in vector_id order (and follows inserts by vector_id).
CREATE INDEX semantic_vectors_model ON semantic_vectors (model_id, vector_id);
