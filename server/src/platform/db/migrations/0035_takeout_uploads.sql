-- Google Takeout parts uploaded from the browser (features/cloud-import, takeout-uploads.service.ts): one row per part
-- while it streams into the repository's staging folder (`received` bytes of `size` so far, sequential), and after
-- it was moved into `<repository>/Takeout/` (`status` 'complete', `part_path` where it went) so that a client whose
-- answer was lost learns where the part is. Rows idle for a day are swept with their partial file.
CREATE TABLE takeout_uploads (
  upload_id     TEXT    PRIMARY KEY,
  owner_id      INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  repository_id TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  filename      TEXT    NOT NULL,
  size          INTEGER NOT NULL CHECK (size > 0),
  received      INTEGER NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= size),
  status        TEXT    NOT NULL CHECK (status IN ('uploading', 'complete')),
  part_path     TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX takeout_uploads_owner ON takeout_uploads (owner_id, repository_id, status);
CREATE INDEX takeout_uploads_idle ON takeout_uploads (updated_at);
