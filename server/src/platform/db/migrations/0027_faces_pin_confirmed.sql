-- A person a member named or corrected (`confirmed`) now pins its faces at that moment, and faces that join it
-- later are placed by the clustering rule like any other (features/faces/cluster.ts: the incremental step and
-- a rebuild give the same people whatever order photos arrive in). Faces that joined a confirmed person before
-- this rule existed were held by the old "confirmed freezes every face" rule: pin them, so the people a member
-- has already seen and named do not change on the next rebuild.
UPDATE faces SET assigned_by = 'user'
 WHERE assigned_by = 'auto'
   AND person_id IN (SELECT person_id FROM people WHERE confirmed = 1);
