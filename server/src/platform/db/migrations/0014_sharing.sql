-- Sharing in the household: partners, shared albums, per-member likes and ratings, public links.
-- Who may read what is decided in one place, platform/access/rules.ts; every rule there looks rows
-- up by key through the indexes below (test/server/access/access.test.ts checks the plans).

-- A member shares their library with another member: everything, or what was taken (else
-- uploaded) from `shared_from` on. The partner chooses whether those photos join their timeline.
-- Files in the sharer's Trash are never shared.
CREATE TABLE partner_shares (
  share_id         INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id         INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  partner_id       INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  shared_from      INTEGER,
  show_in_timeline INTEGER NOT NULL DEFAULT 0 CHECK (show_in_timeline IN (0, 1)),
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  CHECK (owner_id <> partner_id),
  UNIQUE (owner_id, partner_id)
) STRICT;
-- The access rule asks "does the owner of this asset share with me": (owner, partner) is the
-- UNIQUE index above; a partner's list of what they receive uses this one.
CREATE INDEX partner_shares_partner ON partner_shares (partner_id, owner_id);

-- Members of an album besides its owner. Viewers read it; contributors also add their own assets.
CREATE TABLE album_members (
  album_id INTEGER NOT NULL REFERENCES albums (album_id) ON DELETE CASCADE,
  user_id  INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  role     TEXT    NOT NULL CHECK (role IN ('viewer', 'contributor')),
  added_at INTEGER NOT NULL,
  PRIMARY KEY (album_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX album_members_user ON album_members (user_id, album_id);

-- Who put an asset into an album (shared albums show it per entry). Entries made before sharing
-- existed were made by the album's owner.
ALTER TABLE album_assets ADD COLUMN added_by INTEGER REFERENCES users (user_id) ON DELETE SET NULL;
UPDATE album_assets SET added_by = (SELECT al.owner_id FROM albums al WHERE al.album_id = album_assets.album_id);
-- "Is this asset in an album I own or am a member of" goes from the asset to its albums through
-- album_assets_asset (0005; covering: the table is WITHOUT ROWID, so the index holds album_id too).

-- Likes and ratings are each member's own. The owner's stay on the asset row (the list indexes of
-- 0007 cover them); a member who reads someone else's asset keeps theirs here.
CREATE TABLE asset_user_marks (
  user_id    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  asset_id   TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  liked      INTEGER NOT NULL DEFAULT 0 CHECK (liked IN (0, 1)),
  rating     INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, asset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX asset_user_marks_asset ON asset_user_marks (asset_id);

-- Public links to an album or a selection of assets. The key (128 random bits, base64url) is shown
-- once, when the link is made; only its SHA-256 is kept, like refresh tokens. A link past
-- `expires_at` or revoked answers exactly like a key that never existed.
CREATE TABLE share_links (
  link_id        INTEGER PRIMARY KEY AUTOINCREMENT,
  key_hash       TEXT    NOT NULL UNIQUE,
  created_by     INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  album_id       INTEGER REFERENCES albums (album_id) ON DELETE CASCADE,
  title          TEXT,
  expires_at     INTEGER,
  password_hash  TEXT,
  allow_download INTEGER NOT NULL DEFAULT 1 CHECK (allow_download IN (0, 1)),
  revoked_at     INTEGER,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX share_links_creator ON share_links (created_by, created_at DESC);
CREATE INDEX share_links_album ON share_links (album_id) WHERE album_id IS NOT NULL;

-- The selection of a link that is not an album, in the order it was given.
CREATE TABLE share_link_assets (
  link_id  INTEGER NOT NULL REFERENCES share_links (link_id) ON DELETE CASCADE,
  asset_id TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (link_id, asset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX share_link_assets_asset ON share_link_assets (asset_id);

-- The change journal (0012): no cache reads these tables. The browse lists read the caller's
-- partners when the request comes (features/browse) and key the kept list by them, so a changed
-- share makes that caller's next list anew and no one else's. Who may see an album's contents
-- changes with its members: journal it like an album given away, for any list that filters on albums.
CREATE TRIGGER change_album_members_insert AFTER INSERT ON album_members BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 32768); END;
CREATE TRIGGER change_album_members_update AFTER UPDATE ON album_members BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 32768); END;
CREATE TRIGGER change_album_members_delete AFTER DELETE ON album_members BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('d', NULL, 32768); END;
