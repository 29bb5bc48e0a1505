-- Foundation: accounts, sessions, settings and repositories.
-- Timestamps are integer milliseconds since the epoch (UTC); the API serves them as ISO 8601.

CREATE TABLE users (
  user_id              INTEGER PRIMARY KEY AUTOINCREMENT,
  username             TEXT    NOT NULL COLLATE NOCASE UNIQUE,
  display_name         TEXT    NOT NULL,
  password_hash        TEXT    NOT NULL,
  role                 TEXT    NOT NULL CHECK (role IN ('admin', 'user')),
  is_active            INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  -- Bumped whenever every existing credential of the user must die (reset, deactivation).
  auth_version         INTEGER NOT NULL DEFAULT 1,
  -- Set by an administrator's access reset: the temporary password only opens the change form.
  must_change_password INTEGER NOT NULL DEFAULT 0 CHECK (must_change_password IN (0, 1)),
  avatar_asset_id      TEXT,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  last_login_at        INTEGER
) STRICT;

-- One row per signed-in device. Access tokens carry the session id, so revoking a session
-- ends its access tokens at once, not after they expire.
CREATE TABLE sessions (
  session_id    TEXT    PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  revoked_at    INTEGER,
  revoke_reason TEXT,
  user_agent    TEXT,
  ip            TEXT
) STRICT;
CREATE INDEX sessions_user ON sessions (user_id, revoked_at);

-- Refresh tokens are stored as SHA-256 hashes only. A used token stays as a tombstone so that a
-- replay can be recognised (and punished by revoking every session of the user).
CREATE TABLE refresh_tokens (
  token_hash TEXT    PRIMARY KEY,
  session_id TEXT    NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
  issued_at  INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
) STRICT;
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- One-time tokens that let a user with a temporary password set a new one.
CREATE TABLE password_change_tokens (
  token_hash TEXT    PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
) STRICT;

-- Durable administrator settings: one JSON value per key.
CREATE TABLE settings (
  key        TEXT    PRIMARY KEY,
  value      TEXT    NOT NULL CHECK (json_valid(value)),
  updated_at INTEGER NOT NULL,
  updated_by INTEGER REFERENCES users (user_id) ON DELETE SET NULL
) STRICT;

-- Repositories: folders holding media, each with a `.hearth-repo` marker. Exactly one is primary.
CREATE TABLE repositories (
  repository_id TEXT    PRIMARY KEY,
  name          TEXT    NOT NULL,
  path          TEXT    NOT NULL UNIQUE,
  role          TEXT    NOT NULL CHECK (role IN ('primary', 'regular')),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX repositories_one_primary ON repositories (role) WHERE role = 'primary';
