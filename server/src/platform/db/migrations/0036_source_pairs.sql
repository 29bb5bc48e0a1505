-- Files a source says belong together (issue 28): Google Takeout's edited copy (`IMG_1-edited.jpg`) of its original,
-- a Live Photo's motion clip (`IMG_1.MP4`, often without Apple's content identifier) beside its still, iCloud's
-- RAW alternative and live video of an original. The catalog keeps the statement, not its consequence: the media
-- item linker (features/assets/pipeline/media-items.ts) reads it every time it links, whichever file it links and
-- in whatever order they were processed, so the pipeline's own linking and stack detection never undo it.
-- `asset_id`: the file that belongs with another (the edit, the clip, the alternative); `partner_id`: the one it
-- belongs with (the original, the still), never itself paired (no chains); `said_as`: what the source said,
-- `edit` (an edited copy) or `companion` (another file of the same capture). `source`: who said it.
CREATE TABLE asset_source_pairs (
  asset_id   TEXT    PRIMARY KEY REFERENCES assets (asset_id) ON DELETE CASCADE,
  partner_id TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  said_as    TEXT    NOT NULL CHECK (said_as IN ('edit', 'companion')),
  source     TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  CHECK (asset_id <> partner_id)
) STRICT;
CREATE INDEX asset_source_pairs_partner ON asset_source_pairs (partner_id);

-- An import's cursor remembers which remote item a file said it belongs with (RemoteFacts.editOf / companionOf), so
-- that when that partner arrives later (later in the run, in a later run, from another Takeout part) the run that
-- brings it can state the pair (features/cloud-import/run-executor.ts).
ALTER TABLE import_cursors ADD COLUMN pair_with TEXT;
ALTER TABLE import_cursors ADD COLUMN pair_as TEXT CHECK (pair_as IN ('edit', 'companion'));
CREATE INDEX import_cursors_pair_with ON import_cursors (source_key, pair_with) WHERE pair_with IS NOT NULL;
