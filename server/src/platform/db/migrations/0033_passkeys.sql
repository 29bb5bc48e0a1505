-- Passkeys (issue 27, point 2): WebAuthn credentials and their one-time ceremonies.

-- A registered passkey. `credential_id` is the authenticator's id (base64url), `public_key` its COSE key.
-- `sign_count` is the authenticator's signature counter: an assertion whose counter does not go up
-- (when either is non-zero) is refused, as a cloned authenticator would show. `rp_id` is the host name
-- it was made for: a passkey made at https://hearth.lan works there only.
CREATE TABLE passkeys (
  passkey_id    INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  credential_id TEXT    NOT NULL UNIQUE,
  public_key    BLOB    NOT NULL,
  sign_count    INTEGER NOT NULL DEFAULT 0,
  transports    TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(transports)),
  label         TEXT    NOT NULL,
  rp_id         TEXT    NOT NULL,
  backed_up     INTEGER NOT NULL DEFAULT 0,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER
) STRICT;
CREATE INDEX passkeys_user ON passkeys (user_id);

-- A ceremony under way (`challenge_token`, stored hashed): what it is for, for whom, the challenge the
-- authenticator must sign, and the origin and relying party id it began at (the answer must come from
-- the same). Single use, a few minutes. `mfa_challenge` ties a passkey second step to its sign-in;
-- `stage` ties a registration's passkey to its stage (registration_stages).
CREATE TABLE webauthn_ceremonies (
  token_hash    TEXT    PRIMARY KEY,
  purpose       TEXT    NOT NULL CHECK (purpose IN ('login', 'enrol', 'step_up', 'register')),
  user_id       INTEGER REFERENCES users (user_id) ON DELETE CASCADE,
  mfa_challenge TEXT,
  stage         TEXT,
  challenge     TEXT    NOT NULL,
  origin        TEXT    NOT NULL,
  rp_id         TEXT    NOT NULL,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  used_at       INTEGER
) STRICT;
CREATE INDEX webauthn_ceremonies_user ON webauthn_ceremonies (user_id);

-- A registration under way where the household asks every new account for a second factor (staged
-- registration): the account is created only when its second factor is enrolled. Until then nothing
-- else holds the name or the password; an abandoned stage expires and is pruned. `totp_secret` is the
-- TOTP seed shown by beginStagedTotpSetup, sealed with the install's key and bound to this stage.
CREATE TABLE registration_stages (
  token_hash    TEXT    PRIMARY KEY,
  username      TEXT    NOT NULL,
  display_name  TEXT    NOT NULL,
  password_hash TEXT    NOT NULL,
  invite_code   TEXT,
  setup_code    TEXT,
  totp_secret   TEXT,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL
) STRICT;
