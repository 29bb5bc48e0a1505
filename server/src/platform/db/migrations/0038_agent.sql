-- The assistant (issue 30, features/agent): conversation threads, their messages and runs, refs (immutable
-- snapshots of asset ids that tools pass instead of data), effects waiting for the member's yes, and pins
-- (results kept on the board). Every row has its owner; the access layer decides who sees what (platform/access).

-- A conversation. `status` follows its latest run (the reference's thread states). `mode` is the last one asked.
CREATE TABLE agent_threads (
  thread_id  TEXT    PRIMARY KEY,
  owner_id   INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  title      TEXT    NOT NULL,
  mode       TEXT    NOT NULL CHECK (mode IN ('free', 'review', 'organize', 'analyze', 'curate')),
  status     TEXT    NOT NULL CHECK (status IN ('active', 'awaiting_confirmation', 'completed', 'cancelled', 'failed')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX agent_threads_owner ON agent_threads (owner_id, updated_at);

-- What was said, in order: the member's words, the assistant's answers and the tools' receipts (`tool`:
-- `{name, ref_id?, count?, status, ...}` as JSON, never asset data).
CREATE TABLE agent_messages (
  message_id INTEGER PRIMARY KEY,
  thread_id  TEXT    NOT NULL REFERENCES agent_threads (thread_id) ON DELETE CASCADE,
  owner_id   INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  run_id     TEXT,
  role       TEXT    NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content    TEXT    NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX agent_messages_thread ON agent_messages (thread_id, message_id);

-- One answer to one message (and its resumes). At most one active run per thread (the partial unique index).
CREATE TABLE agent_runs (
  run_id     TEXT    PRIMARY KEY,
  thread_id  TEXT    NOT NULL REFERENCES agent_threads (thread_id) ON DELETE CASCADE,
  owner_id   INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  status     TEXT    NOT NULL CHECK (status IN ('running', 'cancel_requested', 'awaiting_confirmation', 'cancelled', 'completed', 'failed')),
  mode       TEXT    NOT NULL,
  error      TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX agent_runs_one_active ON agent_runs (thread_id) WHERE status IN ('running', 'cancel_requested', 'awaiting_confirmation');

-- Refs: `ref_id` is short (`r<seq>`) and unique within its thread. `plan` is the envelope of the tool call that
-- made it (replayed by a live pin); `asset_ids` the ordered snapshot (at most 10,000: `truncated`).
CREATE TABLE agent_refs (
  thread_id    TEXT    NOT NULL REFERENCES agent_threads (thread_id) ON DELETE CASCADE,
  ref_id       TEXT    NOT NULL,
  owner_id     INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  op           TEXT    NOT NULL,
  plan         TEXT    NOT NULL CHECK (json_valid(plan)),
  asset_ids    TEXT    NOT NULL CHECK (json_valid(asset_ids)),
  count        INTEGER NOT NULL,
  truncated    INTEGER NOT NULL CHECK (truncated IN (0, 1)),
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (thread_id, ref_id)
) STRICT;
CREATE INDEX agent_refs_expiry ON agent_refs (expires_at);

-- An effect waiting for (or past) its confirmation. `effect_key` is the idempotency key (SHA-256 of owner,
-- thread, run, tool, payload and ids); `asset_ids` the membership snapshot confirmed; `receipt` set at commit.
CREATE TABLE agent_effects (
  effect_id  TEXT    PRIMARY KEY,
  thread_id  TEXT    NOT NULL REFERENCES agent_threads (thread_id) ON DELETE CASCADE,
  run_id     TEXT    NOT NULL,
  owner_id   INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  effect_key TEXT    NOT NULL,
  tool_name  TEXT    NOT NULL,
  payload    TEXT    NOT NULL CHECK (json_valid(payload)),
  asset_ids  TEXT    NOT NULL CHECK (json_valid(asset_ids)),
  status     TEXT    NOT NULL CHECK (status IN ('pending', 'committed', 'rejected', 'cancelled', 'failed')),
  receipt    TEXT    CHECK (receipt IS NULL OR json_valid(receipt)),
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  UNIQUE (owner_id, effect_key)
) STRICT;
CREATE INDEX agent_effects_thread ON agent_effects (thread_id, status);

-- Pins: a ref kept on the member's board. `live` replays `plan` when read; `frozen` serves `asset_ids`.
-- The thread may go; the pin stays (thread_id is kept as a plain value).
CREATE TABLE agent_pins (
  pin_id                      TEXT    PRIMARY KEY,
  owner_id                    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  thread_id                   TEXT,
  ref_id                      TEXT,
  title                       TEXT    NOT NULL,
  widget                      TEXT    NOT NULL CHECK (widget IN ('cover_card', 'number_card', 'spark_card', 'mosaic_card')),
  mode                        TEXT    NOT NULL CHECK (mode IN ('live', 'frozen')),
  op                          TEXT    NOT NULL,
  plan                        TEXT    NOT NULL CHECK (json_valid(plan)),
  asset_ids                   TEXT    NOT NULL CHECK (json_valid(asset_ids)),
  count                       INTEGER NOT NULL,
  truncated                   INTEGER NOT NULL CHECK (truncated IN (0, 1)),
  layout_x                    INTEGER NOT NULL,
  layout_y                    INTEGER NOT NULL,
  layout_w                    INTEGER NOT NULL,
  layout_h                    INTEGER NOT NULL,
  last_successful_refresh_at  INTEGER,
  created_at                  INTEGER NOT NULL,
  seq                         INTEGER NOT NULL
) STRICT;
CREATE INDEX agent_pins_owner ON agent_pins (owner_id, seq);
