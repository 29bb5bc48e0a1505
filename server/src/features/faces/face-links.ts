/**
 * What other features ask of faces, wired by the composition root (container.ts):
 *
 * - `carryFacesOnMerge` — duplicates (features/duplicates, its DuplicateFacesHook): merging exact copies
 *   with `policy.faces` keeps who is in the photo. An exact copy has the same pixels, so its faces sit in the
 *   same boxes as the keeper's: each face of a copy that has a person gives that person to the keeper's face
 *   in the same place (IoU ≥ 0.5), unless the keeper's face was already placed by a member (a member's
 *   choice on the keeper wins); a member's choice on the copy is kept as a member's choice, with its "not
 *   this person" marks. A copy's face with no counterpart on the keeper (the keeper not read yet) moves to the
 *   keeper as it is (the face task, reading the keeper later, replaces the keeper's faces: the person then
 *   comes back from clustering). Runs inside the merge's transaction.
 * - `peopleOfItems` — photo events (features/photo-events, relations `contains_person`): the owner's people seen
 *   in the given media items, with the number of items each appears in. Hidden people are left out: a
 *   person a member hid is not offered as a relation.
 */
import type { Db } from '../../platform/db/connection.ts';

interface FaceBox {
  face_id: number;
  face_no: number;
  x: number;
  y: number;
  w: number;
  h: number;
  person_id: number | null;
  assigned_by: 'auto' | 'user';
}

const SAME_PLACE_IOU = 0.5;

function iou(a: FaceBox, b: FaceBox): number {
  const ix = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = ix * iy;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

/** Gives the keeper the people of its exact copies' faces; answers how many faces it changed or moved. */
export function carryFacesOnMerge(db: Db, keeperAssetId: string, copyAssetIds: readonly string[]): number {
  const facesOf = db.prepare('SELECT face_id, face_no, x, y, w, h, person_id, assigned_by FROM faces WHERE asset_id = ? ORDER BY face_no');
  const assign = db.prepare('UPDATE faces SET person_id = ?, assigned_by = ? WHERE face_id = ?');
  const copyRejections = db.prepare('INSERT OR IGNORE INTO face_rejections (face_id, person_id) SELECT ?, person_id FROM face_rejections WHERE face_id = ?');
  const move = db.prepare('UPDATE faces SET asset_id = ?, face_no = ? WHERE face_id = ?');
  const keeper = facesOf.all(keeperAssetId) as FaceBox[];
  let nextNo = keeper.reduce((n, f) => Math.max(n, f.face_no + 1), 0);
  let changed = 0;
  for (const copyId of copyAssetIds) {
    for (const face of facesOf.all(copyId) as FaceBox[]) {
      const twin = keeper.map((k) => ({ k, o: iou(k, face) })).filter((m) => m.o >= SAME_PLACE_IOU).sort((a, b) => b.o - a.o)[0]?.k;
      if (!twin) {
        move.run(keeperAssetId, nextNo++, face.face_id);
        keeper.push({ ...face });
        changed++;
        continue;
      }
      copyRejections.run(twin.face_id, face.face_id);
      if (face.person_id === null || twin.assigned_by === 'user') continue;
      if (twin.person_id === face.person_id && twin.assigned_by === face.assigned_by) continue;
      // The copy's person wins over the keeper's automatic one only when a member chose it, or the keeper has none.
      if (face.assigned_by === 'user' || twin.person_id === null) {
        assign.run(face.person_id, face.assigned_by, twin.face_id);
        twin.person_id = face.person_id;
        twin.assigned_by = face.assigned_by;
        changed++;
      }
    }
  }
  return changed;
}

/** The owner's (not hidden) people in these media items, with how many of the items each is in. */
export function peopleOfItems(db: Db, ownerId: number, mediaItemIds: readonly string[]): { person_id: number; distinct_media_items: number }[] {
  if (!mediaItemIds.length) return [];
  return db
    .prepare(
      `SELECT f.person_id AS person_id, COUNT(DISTINCT a.media_item_id) AS distinct_media_items
         FROM json_each(?) j
         JOIN assets a ON a.media_item_id = j.value AND a.is_deleted = 0
         JOIN faces f ON f.asset_id = a.asset_id
         JOIN people p ON p.person_id = f.person_id AND p.owner_id = ? AND p.hidden = 0
        GROUP BY f.person_id
        ORDER BY distinct_media_items DESC, f.person_id`,
    )
    .all(JSON.stringify(mediaItemIds), ownerId) as { person_id: number; distinct_media_items: number }[];
}
