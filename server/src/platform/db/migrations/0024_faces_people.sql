-- Faces and people (issue 14 point 1, features/faces). Additive.
--
-- A person is a face cluster of one owner (the reference's person = face cluster): its name, whether it is
-- hidden, the face chosen as its cover, and `confirmed` (a person a member named or corrected: a rebuild never
-- deletes it, even when it ends up with no face).
CREATE TABLE people (
  person_id     INTEGER PRIMARY KEY AUTOINCREMENT,
  owner_id      INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name          TEXT,
  hidden        INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
  confirmed     INTEGER NOT NULL DEFAULT 0 CHECK (confirmed IN (0, 1)),
  -- Chosen by a member (null: the best face is the cover). Not a foreign key: faces refer to people.
  cover_face_id INTEGER,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX people_owner ON people (owner_id, person_id);

-- One row per photo the face task has read (also when it found none: the marker that keeps it from being read
-- again by the same model version).
CREATE TABLE face_results (
  asset_id     TEXT    PRIMARY KEY REFERENCES assets (asset_id) ON DELETE CASCADE,
  model_id     TEXT    NOT NULL,
  image_width  INTEGER NOT NULL,
  image_height INTEGER NOT NULL,
  face_count   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
) STRICT;

-- Boxes and landmarks are normalised to 0..1 of the upright image; the embedding is 128 float32 (512 bytes),
-- L2-normalised. `assigned_by` 'user': a member put this face with this person (moved, merged, confirmed):
-- rebuilds never move it.
CREATE TABLE faces (
  face_id     INTEGER PRIMARY KEY AUTOINCREMENT,
  asset_id    TEXT    NOT NULL REFERENCES assets (asset_id) ON DELETE CASCADE,
  owner_id    INTEGER NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  face_no     INTEGER NOT NULL,
  model_id    TEXT    NOT NULL,
  x           REAL    NOT NULL,
  y           REAL    NOT NULL,
  w           REAL    NOT NULL,
  h           REAL    NOT NULL,
  landmarks   TEXT    NOT NULL,
  score       REAL    NOT NULL,
  embedding   BLOB    NOT NULL,
  person_id   INTEGER REFERENCES people (person_id) ON DELETE SET NULL,
  assigned_by TEXT    NOT NULL DEFAULT 'auto' CHECK (assigned_by IN ('auto', 'user')),
  UNIQUE (asset_id, face_no)
) STRICT;
CREATE INDEX faces_owner ON faces (owner_id, face_id);
CREATE INDEX faces_person ON faces (person_id, asset_id) WHERE person_id IS NOT NULL;

-- "Not this person": the face never joins that person again, automatically.
CREATE TABLE face_rejections (
  face_id   INTEGER NOT NULL REFERENCES faces (face_id) ON DELETE CASCADE,
  person_id INTEGER NOT NULL REFERENCES people (person_id) ON DELETE CASCADE,
  PRIMARY KEY (face_id, person_id)
) STRICT;

-- The change journal (0012): a face found, removed or moved to another person changes the lists filtered by
-- person (`people`, bit 17 of platform/cache/change-journal.ts DEPS).
CREATE TRIGGER change_faces_insert AFTER INSERT ON faces BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', NEW.asset_id, 131072); END;
CREATE TRIGGER change_faces_update AFTER UPDATE OF person_id ON faces WHEN OLD.person_id IS NOT NEW.person_id
BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', NEW.asset_id, 131072); END;
CREATE TRIGGER change_faces_delete AFTER DELETE ON faces BEGIN INSERT INTO change_journal (kind, key, deps) VALUES ('a', OLD.asset_id, 131072); END;
