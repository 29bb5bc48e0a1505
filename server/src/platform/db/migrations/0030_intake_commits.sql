-- One door into the catalog (features/intake/door.ts): the crash-safety record of a commit is no
-- longer the uploads' own. Every source (an upload, an import, an approved folder) records its file
-- here before the file appears at its name; the transaction that catalogues the file takes the row.
-- `ref` (was `receipt_id`): the source's reference for this commit, the upload receipt for uploads.
-- `source`: who committed it ('upload', 'import', …). `facts`: the source's facts (JSON, SourceFacts),
-- kept so that a commit catalogued after a crash carries them. `source_ref`: the source's own id of
-- the item (JSON {source, id, version}), for re-runs.
ALTER TABLE upload_commits RENAME TO intake_commits;
ALTER TABLE intake_commits RENAME COLUMN receipt_id TO ref;
ALTER TABLE intake_commits ADD COLUMN source TEXT NOT NULL DEFAULT 'upload';
ALTER TABLE intake_commits ADD COLUMN facts TEXT;
ALTER TABLE intake_commits ADD COLUMN source_ref TEXT;
DROP INDEX upload_commits_path;
CREATE UNIQUE INDEX intake_commits_path ON intake_commits (repository_id, rel_path);
