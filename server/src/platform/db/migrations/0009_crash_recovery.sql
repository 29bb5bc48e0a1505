-- Uploads committed into a repository that the catalog does not hold yet (features/uploads/
-- commit-intents.ts). The row is written before the file is linked to its final name, so after a
-- crash the owner, the receipt and the name the member gave are known from the commit itself,
-- never guessed by a scan. It goes away in the transaction that catalogues the file.
-- (repository_id, rel_path) is unique: the row also reserves the name against a concurrent upload.
CREATE TABLE upload_commits (
  receipt_id        TEXT    PRIMARY KEY,
  owner_id          INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  repository_id     TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  -- Repository-relative path (forward slashes) the upload is linked to.
  rel_path          TEXT    NOT NULL,
  content_hash      TEXT    NOT NULL,
  size              INTEGER NOT NULL,
  original_filename TEXT    NOT NULL,
  created_at        INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX upload_commits_path ON upload_commits (repository_id, rel_path);
