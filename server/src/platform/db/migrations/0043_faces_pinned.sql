-- The people a member pinned faces to, per owner (features/faces/faces.store.ts, fixedPeople): the incremental
-- people pass asks for them on every photo with faces, and found them by reading every face of the owner
-- (20,000 rows at 20,000 faces). Pinned faces are few (placed by hand, or a person's when a member confirmed it):
-- this index holds only them.
CREATE INDEX faces_pinned ON faces (owner_id, person_id) WHERE assigned_by = 'user';
