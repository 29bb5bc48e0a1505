-- A person's face count kept on the person (issue 25 point 4). The people list orders by it (named first, then by
-- how many faces): counted per request, that was a count over every face of the owner (100k faces: 7 ms on a
-- quiet machine, 25–35 ms while a people rebuild shares it), on the event loop of every People page load. The
-- triggers keep it whatever writes the faces: the detector, a move or merge by a member, a rebuild, a photo
-- deleted for good (its faces go by cascade), a person deleted (its faces are set to no one).
ALTER TABLE people ADD COLUMN face_count INTEGER NOT NULL DEFAULT 0;
UPDATE people SET face_count = (SELECT count(*) FROM faces f WHERE f.person_id = people.person_id);

CREATE TRIGGER people_face_count_insert AFTER INSERT ON faces WHEN NEW.person_id IS NOT NULL
BEGIN UPDATE people SET face_count = face_count + 1 WHERE person_id = NEW.person_id; END;
CREATE TRIGGER people_face_count_delete AFTER DELETE ON faces WHEN OLD.person_id IS NOT NULL
BEGIN UPDATE people SET face_count = face_count - 1 WHERE person_id = OLD.person_id; END;
CREATE TRIGGER people_face_count_move AFTER UPDATE OF person_id ON faces WHEN OLD.person_id IS NOT NEW.person_id
BEGIN
  UPDATE people SET face_count = face_count - 1 WHERE person_id = OLD.person_id;
  UPDATE people SET face_count = face_count + 1 WHERE person_id = NEW.person_id;
END;
