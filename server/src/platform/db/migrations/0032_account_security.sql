-- Account security (issue 27): TOTP, recovery codes, sign-in challenges and step-up proofs.
-- Every token below is stored as a SHA-256 hash only, and every row is bound to its account, so a
-- copied catalog holds nothing that signs anyone in. Timestamps are integer milliseconds UTC.

-- How each session was signed in (JSON array: "password", "totp", "recovery_code"); NULL for
-- sessions older than this migration, which were all opened with a password.
ALTER TABLE sessions ADD COLUMN auth_methods TEXT;

-- An enabled authenticator. `secret` is the base32 seed sealed with the install's key
-- (platform/crypto/sealed.ts, bound to the user id). `last_step` is the TOTP time step of the last
-- accepted code: a code of that step or an earlier one is refused, so each code works once.
CREATE TABLE totp_credentials (
  user_id    INTEGER PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  secret     TEXT    NOT NULL,
  last_step  INTEGER NOT NULL,
  enabled_at INTEGER NOT NULL
) STRICT;

-- An enrolment under way: the secret shown once by beginTotpSetup, waiting for its first code.
-- One per account (a new setup replaces the previous one).
CREATE TABLE totp_setups (
  token_hash TEXT    PRIMARY KEY,
  user_id    INTEGER NOT NULL UNIQUE REFERENCES users (user_id) ON DELETE CASCADE,
  secret     TEXT    NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;

-- Ten codes shown once; `code_hash` is an HMAC with the install's key. A used code stays with
-- `used_at` set (it is refused, and the count left is what has none).
CREATE TABLE recovery_codes (
  user_id      INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  code_hash    TEXT    NOT NULL,
  generated_at INTEGER NOT NULL,
  used_at      INTEGER,
  PRIMARY KEY (user_id, code_hash)
) STRICT;

-- The second step of a sign-in (`mfa_token`): single use, short-lived, one account.
CREATE TABLE mfa_challenges (
  token_hash TEXT    PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
) STRICT;
CREATE INDEX mfa_challenges_user ON mfa_challenges (user_id);

-- Step-up proofs (`security_token`): made by verifyRecentSecurity for one account and one action,
-- spent by that action.
CREATE TABLE security_proofs (
  token_hash TEXT    PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  action     TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
) STRICT;
CREATE INDEX security_proofs_user ON security_proofs (user_id);
