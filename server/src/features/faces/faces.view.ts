/** The faces of a photo as getAsset's `face_result` shows them (faces.routes.ts FaceResultSchema). */
import type { Db } from '../../platform/db/connection.ts';
import type { FaceRow } from './faces.store.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export interface FaceView {
  face_id: number;
  bounding_box: { x: number; y: number; width: number; height: number };
  confidence: number;
  person_id: number | null;
  person_name: string | null;
  is_primary: boolean;
}

export function faceView(db: Db, f: FaceRow): FaceView {
  const name = f.person_id == null ? null : ((db.prepare('SELECT name FROM people WHERE person_id = ?').get(f.person_id) as { name: string | null } | undefined)?.name ?? null);
  return { face_id: f.face_id, bounding_box: { x: f.x, y: f.y, width: f.w, height: f.h }, confidence: f.score, person_id: f.person_id, person_name: name, is_primary: false };
}

/** null while the face task has not read the photo; the largest face is `is_primary`. */
export function faceResult(db: Db, assetId: string) {
  const run = db.prepare('SELECT model_id, updated_at FROM face_results WHERE asset_id = ?').get(assetId) as { model_id: string; updated_at: number } | undefined;
  if (!run) return null;
  const faces = (db.prepare('SELECT * FROM faces WHERE asset_id = ? ORDER BY face_no').all(assetId) as FaceRow[]).map((f) => faceView(db, f));
  let primary = -1;
  faces.forEach((f, i) => {
    const area = (v: FaceView) => v.bounding_box.width * v.bounding_box.height;
    if (primary < 0 || area(f) > area(faces[primary]!)) primary = i;
  });
  if (primary >= 0) faces[primary]!.is_primary = true;
  return { model_id: run.model_id, created_at: iso(run.updated_at), updated_at: iso(run.updated_at), total_faces: faces.length, faces };
}
