-- The asset index: which asset has been indexed by which ML task (semantic vectors, OCR text, faces,
-- species, video vectors), with which model. The task's own results live in the task's tables; this
-- row says "done with this model", so a rebuild can pick what is missing and a model upgrade can
-- tell what is stale.
CREATE TABLE asset_index_entries (
  asset_id   TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  task       TEXT    NOT NULL CHECK (task IN ('semantic', 'ocr', 'face', 'bioclip', 'video_semantic')),
  model_id   TEXT    NOT NULL,
  indexed_at INTEGER NOT NULL,
  PRIMARY KEY (asset_id, task)
) STRICT, WITHOUT ROWID;
CREATE INDEX asset_index_entries_task ON asset_index_entries (task, asset_id);
-- Index jobs are looked up by their task and asset (stats, "already queued").
CREATE INDEX jobs_index_task ON jobs (json_extract(args, '$.task')) WHERE kind = 'indexing.index-asset';
