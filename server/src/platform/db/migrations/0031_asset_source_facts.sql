-- Source facts (issue 26, features/assets/fact-precedence.ts): what a source said of a file when it handed it to the
-- one door (an importer's capture time and place, description, favourite, rating, album names), kept per asset so
-- that every re-read of the file and every re-run of the pipeline applies the same precedence rule:
-- a person's edit > source facts > embedded metadata > the file's own dates.
-- `source` / `source_id` / `version`: the source's own reference of the item (SourceFacts.sourceRef), null when it
-- gave none; `facts`: the SourceFacts JSON as the source gave it; `applied_at`: when the pipeline last applied the
-- one-shot facts (favourite, rating, description), null while they are new.
CREATE TABLE asset_source_facts (
  asset_id   TEXT    PRIMARY KEY REFERENCES assets (asset_id) ON DELETE CASCADE,
  source     TEXT    NOT NULL,
  source_id  TEXT,
  version    TEXT,
  facts      TEXT    NOT NULL,
  applied_at INTEGER,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX asset_source_facts_ref ON asset_source_facts (source, source_id);

-- `time_source` gains 'source' (the capture time came from the source's facts). A column's CHECK cannot be altered
-- in SQLite: the column is added again with the wider CHECK and its values copied (no trigger watches time_source,
-- so the copy journals no change), then the old one dropped.
ALTER TABLE assets RENAME COLUMN time_source TO time_source_before_0031;
ALTER TABLE assets ADD COLUMN time_source TEXT CHECK (time_source IN ('file', 'container', 'file_modified', 'user', 'source'));
UPDATE assets SET time_source = time_source_before_0031;
ALTER TABLE assets DROP COLUMN time_source_before_0031;

-- Uploaded assets name their file as their uploader did (a scan does not rename them after the stored file,
-- features/assets/ingest/catalog-writer.ts): the name an upload gave is now kept with its facts, for the assets
-- uploaded before this migration too (one row per asset, its first such receipt's time).
INSERT INTO asset_source_facts (asset_id, source, source_id, version, facts, applied_at, updated_at)
SELECT a.asset_id, 'upload', NULL, NULL, json_object('originalName', a.original_filename), min(r.updated_at), min(r.updated_at)
FROM upload_receipts r JOIN assets a ON a.asset_id = r.asset_id
WHERE r.status <> 'duplicate'
GROUP BY a.asset_id;
