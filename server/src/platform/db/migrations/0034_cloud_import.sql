-- Cloud import (issue 28): members' credentials at import providers, the sources bound to repositories, import
-- runs with their counters, the per-file cursors that make a second run fetch only what changed, and the run's
-- record of every file it handled (its report lists the skipped and failed ones).

-- A member's account at a provider. `sealed_state` holds the provider's secrets and session, sealed with the
-- install's key (platform/crypto/sealed.ts) bound to the credential id: never returned. `identity_hash` is a
-- SHA-256 of the provider's identity of the account (URL + user, Apple ID), so one member has one credential per
-- account. `problem`: why it is `error` or `disconnected` (a stored problem object).
CREATE TABLE cloud_credentials (
  credential_id      TEXT    PRIMARY KEY,
  owner_id           INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  provider           TEXT    NOT NULL,
  identity_hash      TEXT    NOT NULL,
  display_name       TEXT    NOT NULL,
  status             TEXT    NOT NULL CHECK (status IN ('connected', 'pending_challenge', 'disconnected', 'error')),
  public_config      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(public_config)),
  sealed_state       TEXT    NOT NULL,
  problem            TEXT             CHECK (problem IS NULL OR json_valid(problem)),
  session_expires_at INTEGER,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  UNIQUE (owner_id, provider, identity_hash)
) STRICT;

-- A source bound to a repository: a credential and the part of its account to import (`remote_scope`, JSON of
-- the provider's scope fields; `scope_key` its canonical form). Removing the credential unbinds it.
CREATE TABLE cloud_sources (
  source_id          TEXT    PRIMARY KEY,
  repository_id      TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  credential_id      TEXT    NOT NULL REFERENCES cloud_credentials (credential_id) ON DELETE CASCADE,
  owner_id           INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  provider           TEXT    NOT NULL,
  remote_scope       TEXT    NOT NULL CHECK (json_valid(remote_scope)),
  scope_key          TEXT    NOT NULL,
  enabled            INTEGER NOT NULL DEFAULT 1,
  last_import_run_id TEXT,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  UNIQUE (repository_id, credential_id, scope_key)
) STRICT;
CREATE INDEX cloud_sources_credential ON cloud_sources (credential_id);

-- An import run. `source_key` names what it imports (a bound source's id; for archives, the archive set) so that
-- only one run per repository and source is active at a time (the partial unique index). Counters are flushed
-- while it runs. `credential_id` stays after the credential is removed (the run is history).
CREATE TABLE import_runs (
  run_id           TEXT    PRIMARY KEY,
  source_key       TEXT    NOT NULL,
  source_id        TEXT,
  credential_id    TEXT,
  repository_id    TEXT    NOT NULL REFERENCES repositories (repository_id) ON DELETE CASCADE,
  owner_id         INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  provider         TEXT    NOT NULL,
  remote_scope     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(remote_scope)),
  status           TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted')),
  total_seen       INTEGER NOT NULL DEFAULT 0,
  downloaded_count INTEGER NOT NULL DEFAULT 0,
  imported_count   INTEGER NOT NULL DEFAULT 0,
  unchanged_count  INTEGER NOT NULL DEFAULT 0,
  skipped_count    INTEGER NOT NULL DEFAULT 0,
  failed_count     INTEGER NOT NULL DEFAULT 0,
  downloaded_bytes INTEGER NOT NULL DEFAULT 0,
  problem          TEXT             CHECK (problem IS NULL OR json_valid(problem)),
  job_id           INTEGER,
  created_at       INTEGER NOT NULL,
  started_at       INTEGER,
  finished_at      INTEGER,
  updated_at       INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX import_runs_one_active ON import_runs (repository_id, source_key) WHERE status IN ('queued', 'running');
CREATE INDEX import_runs_owner ON import_runs (owner_id, created_at);
CREATE INDEX import_runs_source ON import_runs (source_key, created_at);

-- Per source and remote item: the version last brought in and what it became. A run fetches an item again only
-- when its version changed (remote id + ETag, or size and time).
CREATE TABLE import_cursors (
  source_key   TEXT    NOT NULL,
  remote_id    TEXT    NOT NULL,
  version      TEXT    NOT NULL,
  asset_id     TEXT,
  content_hash TEXT,
  run_id       TEXT    NOT NULL,
  updated_at   INTEGER NOT NULL,
  PRIMARY KEY (source_key, remote_id)
) STRICT, WITHOUT ROWID;

-- Every file a run handled: a resumed run passes over the ones done, and the report lists the skipped and
-- failed ones with their reasons. `partial_bytes` is not kept here: a download resumes from its staging file.
CREATE TABLE import_run_files (
  run_id      TEXT    NOT NULL REFERENCES import_runs (run_id) ON DELETE CASCADE,
  remote_id   TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  folder      TEXT    NOT NULL DEFAULT '',
  outcome     TEXT    NOT NULL CHECK (outcome IN ('imported', 'unchanged', 'skipped', 'failed')),
  reason_code TEXT,
  reason      TEXT,
  asset_id    TEXT,
  size        INTEGER,
  at          INTEGER NOT NULL,
  PRIMARY KEY (run_id, remote_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX import_run_files_report ON import_run_files (run_id, outcome) WHERE outcome IN ('skipped', 'failed');
