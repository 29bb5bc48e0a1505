-- Invite links: an administrator hands a member a link (or its QR code) instead of a shared code.
-- Each is single-use and expires; only the SHA-256 of its code is kept, so a copied catalog cannot
-- be used to sign up. A used invite stays as a record of who joined through it.
CREATE TABLE invites (
  invite_id  INTEGER PRIMARY KEY AUTOINCREMENT,
  code_hash  TEXT    NOT NULL UNIQUE,
  -- Who it is for, as the administrator wrote it ("Grandma's tablet"); shown in the list only.
  note       TEXT,
  created_by INTEGER REFERENCES users (user_id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER,
  used_by    INTEGER REFERENCES users (user_id) ON DELETE SET NULL
) STRICT;
CREATE INDEX invites_pending ON invites (used_at, expires_at);
