-- Host actions (issue 29, features/host-actions): a member asks the home machine to open a local folder as a
-- repository; the person at that machine approves it through the host channel (a local socket), never the network.
-- `host_path` is the folder the person chose: it stays on the server (never in an answer, an event or a log line a
-- member reads). `idempotency_key` and `request_hash` make a repeated create answer the original action; `version`
-- bumps on every change (`expected_version` is checked against it). `conflict` and `problem` are JSON objects.
CREATE TABLE host_actions (
  action_id        TEXT    PRIMARY KEY,
  owner_id         INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  idempotency_key  TEXT    NOT NULL,
  request_hash     TEXT    NOT NULL,
  kind             TEXT    NOT NULL CHECK (kind IN ('open_repository')),
  name             TEXT    NOT NULL,
  purpose          TEXT    NOT NULL,
  code             TEXT    NOT NULL,
  status           TEXT    NOT NULL CHECK (status IN ('pending', 'presented', 'running', 'needs_decision', 'completed', 'failed', 'cancelled', 'expired')),
  version          INTEGER NOT NULL DEFAULT 1,
  request_id       TEXT,
  expected_version INTEGER,
  host_path        TEXT,
  conflict         TEXT    CHECK (conflict IS NULL OR json_valid(conflict)),
  problem          TEXT    CHECK (problem IS NULL OR json_valid(problem)),
  cancel_reason    TEXT    CHECK (cancel_reason IS NULL OR cancel_reason IN ('member_cancelled', 'host_denied')),
  repository_id    TEXT,
  root_id          TEXT,
  expires_at       INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  completed_at     INTEGER,
  UNIQUE (owner_id, idempotency_key)
) STRICT;
CREATE INDEX host_actions_owner ON host_actions (owner_id, created_at);
CREATE INDEX host_actions_due ON host_actions (status, expires_at);
