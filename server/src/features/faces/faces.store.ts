/**
 * Faces and people in the catalog (migration 0024_faces_people.sql): a photo's faces replaced in one
 * transaction, and the clustering's writes (incremental after each photo, full on a rebuild) that never undo
 * what a member decided: faces a member placed (`assigned_by = 'user'`) stay, rejections are obeyed, named or
 * corrected people are kept, and chosen covers stay while their face is still the person's.
 */
import type { Db } from '../../platform/db/connection.ts';
import { centroid, clusterFaces, clusterFacesIndexed, CLUSTER_PARAMS, cosine, type ClusterFace } from './cluster.ts';
import { iou } from './detect.ts';
import type { FaceAnalysis } from './pipeline.ts';

export interface FaceRow {
  face_id: number;
  asset_id: string;
  owner_id: number;
  face_no: number;
  model_id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  landmarks: string;
  score: number;
  embedding: Buffer;
  person_id: number | null;
  assigned_by: 'auto' | 'user';
}

export interface PersonRow {
  person_id: number;
  owner_id: number;
  name: string | null;
  hidden: number;
  confirmed: number;
  cover_face_id: number | null;
  created_at: number;
  updated_at: number;
}

export const toVector = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export class FacesStore {
  constructor(private readonly db: Db) {}

  /** The model version that read the asset's faces (undefined: never read). */
  resultModel(assetId: string): string | undefined {
    return (this.db.prepare('SELECT model_id FROM face_results WHERE asset_id = ?').get(assetId) as { model_id: string } | undefined)?.model_id;
  }

  /**
   * Replaces the asset's faces with `analysis` in one transaction, then places its new faces among the owner's
   * people (incremental clustering). A face found again (IoU ≥ 0.5 with an old one) keeps what a member
   * decided about the old one: its person when a member placed it, and its rejections. False when the asset is
   * gone meanwhile.
   */
  replace(assetId: string, analysis: FaceAnalysis, modelId: string, now = Date.now()): boolean {
    return this.db
      .transaction(() => {
        const asset = this.db.prepare('SELECT owner_id FROM assets WHERE asset_id = ?').get(assetId) as { owner_id: number } | undefined;
        if (!asset) return false;
        const old = this.db.prepare('SELECT * FROM faces WHERE asset_id = ?').all(assetId) as FaceRow[];
        const oldRejections = new Map<number, number[]>();
        for (const f of old) {
          oldRejections.set(f.face_id, (this.db.prepare('SELECT person_id FROM face_rejections WHERE face_id = ?').all(f.face_id) as { person_id: number }[]).map((r) => r.person_id));
        }
        this.db.prepare('DELETE FROM faces WHERE asset_id = ?').run(assetId);
        const insert = this.db.prepare(
          `INSERT INTO faces (asset_id, owner_id, face_no, model_id, x, y, w, h, landmarks, score, embedding, person_id, assigned_by)
           VALUES (@asset_id, @owner_id, @face_no, @model_id, @x, @y, @w, @h, @landmarks, @score, @embedding, @person_id, @assigned_by)`,
        );
        const reject = this.db.prepare('INSERT OR IGNORE INTO face_rejections (face_id, person_id) VALUES (?, ?)');
        const fresh: number[] = [];
        analysis.faces.forEach((f, i) => {
          const before = old.find((o) => iou(o, f.box) >= 0.5);
          const kept = before?.assigned_by === 'user' && before.person_id != null;
          const id = Number(
            insert.run({
              asset_id: assetId,
              owner_id: asset.owner_id,
              face_no: i,
              model_id: modelId,
              ...f.box,
              landmarks: JSON.stringify(f.landmarks),
              score: f.score,
              embedding: toBlob(f.embedding),
              person_id: kept ? before.person_id : null,
              assigned_by: kept ? 'user' : 'auto',
            }).lastInsertRowid,
          );
          if (before) for (const p of oldRejections.get(before.face_id) ?? []) reject.run(id, p);
          // A chosen cover on the old face moves to the face found again.
          if (before) this.db.prepare('UPDATE people SET cover_face_id = ? WHERE cover_face_id = ?').run(id, before.face_id);
          if (!kept) fresh.push(id);
        });
        this.db
          .prepare(
            `INSERT INTO face_results (asset_id, model_id, image_width, image_height, face_count, updated_at) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (asset_id) DO UPDATE SET model_id = excluded.model_id, image_width = excluded.image_width,
               image_height = excluded.image_height, face_count = excluded.face_count, updated_at = excluded.updated_at`,
          )
          .run(assetId, modelId, analysis.width, analysis.height, analysis.faces.length, now);
        this.placeNewFaces(asset.owner_id, fresh, now);
        this.dropEmptyPeople(asset.owner_id);
        return true;
      })
      .immediate();
  }

  /**
   * Incremental clustering after one asset's faces were found (`fresh`: their ids): each fresh face joins the
   * person whose centroid is nearest within the threshold (never one it was rejected from). The fresh faces
   * left, with the unplaced faces linked to one of them through neighbours within the threshold (which try the
   * centroids first too), are clustered among themselves, and groups that reach the minimum size become new people.
   *
   * Only a fresh face can change what an unplaced face would do (a face with no neighbour gains one only
   * through it), so the other unplaced faces, thousands in a large library (strangers seen once), are not
   * clustered again on every photo: the cost is the fresh faces × (people + unplaced faces), not the unplaced
   * faces squared. An old unplaced face that a person's centroid has drifted towards joins at the next full
   * rebuild.
   */
  placeNewFaces(ownerId: number, fresh: readonly number[], now = Date.now()): void {
    if (!fresh.length) return;
    const unplaced = this.db.prepare('SELECT face_id, score, embedding FROM faces WHERE owner_id = ? AND person_id IS NULL').all(ownerId) as Pick<FaceRow, 'face_id' | 'score' | 'embedding'>[];
    const isFresh = new Set(fresh);
    if (!unplaced.some((f) => isFresh.has(f.face_id))) return;
    const centroids = this.centroids(ownerId);
    const rejections = this.rejectionsOf(ownerId);
    const assign = this.db.prepare("UPDATE faces SET person_id = ?, assigned_by = 'auto' WHERE face_id = ?");
    /** Joins the nearest person by centroid, or returns the face for the clustering. */
    const join = (f: Pick<FaceRow, 'face_id' | 'score'>, v: Float32Array): ClusterFace | null => {
      let best: number | null = null;
      let bestSim: number = CLUSTER_PARAMS.threshold;
      for (const [pid, c] of centroids) {
        const s = cosine(v, c);
        if (s >= bestSim && !rejections.get(f.face_id)?.has(pid)) {
          best = pid;
          bestSim = s;
        }
      }
      if (best == null) return { id: f.face_id, score: f.score, embedding: v, rejects: rejections.get(f.face_id) };
      assign.run(best, f.face_id);
      return null;
    };
    const left: ClusterFace[] = [];
    for (const f of unplaced) {
      if (!isFresh.has(f.face_id)) continue;
      const c = join(f, toVector(f.embedding));
      if (c) left.push(c);
    }
    if (!left.length) return;
    // The unplaced faces linked to a fresh one through neighbours within the threshold: groups form only inside
    // such a chain, so clustering the chains of the fresh faces gives what clustering every unplaced face would.
    const others = unplaced.filter((f) => !isFresh.has(f.face_id)).map((f) => ({ f, v: toVector(f.embedding), taken: false }));
    const chain = left.slice();
    while (chain.length) {
      const from = chain.pop()!;
      for (const o of others) {
        if (o.taken || cosine(o.v, from.embedding) < CLUSTER_PARAMS.threshold) continue;
        o.taken = true;
        const c = join(o.f, o.v);
        if (c) {
          left.push(c);
          chain.push(c);
        }
      }
    }
    this.createPeople(ownerId, clusterFaces(left), now);
  }

  /**
   * The full rebuild of one owner's people: every automatically placed face is taken out and the owner's faces
   * clustered again, the faces a member placed staying where they are (seeds that others may join). The faces
   * of a confirmed person (one a member named, hid, gave a cover or corrected) stay too: the member has seen
   * that person as it is, and a rebuild must not take faces from it behind their back (new faces still join it). A new group
   * takes over the person most of its faces had before (so ids, names, hidden people and covers stay); people
   * left without faces are deleted unless a member named or corrected them. Returns the people count.
   *
   * The clustering runs outside the write transaction and yields to the event loop (100k faces take tens of
   * seconds); faces analysed meanwhile (ids above the last one read) keep the place the incremental pass gave
   * them, and the write itself is one short transaction.
   */
  async rebuildOwner(ownerId: number, now = Date.now()): Promise<{ people: number; faces: number; clustered: number }> {
    const rows = this.db
      .prepare(
        `SELECT f.face_id, f.score, f.embedding, f.person_id,
           CASE WHEN f.assigned_by = 'user' OR p.confirmed = 1 THEN 'user' ELSE 'auto' END AS assigned_by
         FROM faces f LEFT JOIN people p ON p.person_id = f.person_id WHERE f.owner_id = ?`,
      )
      .all(ownerId) as Pick<FaceRow, 'face_id' | 'score' | 'embedding' | 'person_id' | 'assigned_by'>[];
    const rejections = this.rejectionsOf(ownerId);
    const faces: ClusterFace[] = rows.map((r) => ({
      id: r.face_id,
      score: r.score,
      embedding: toVector(r.embedding),
      fixed: r.assigned_by === 'user' ? r.person_id : null,
      rejects: rejections.get(r.face_id),
    }));
    const groups = await clusterFacesIndexed(faces);
    const before = new Map(rows.map((r) => [r.face_id, r.person_id]));
    const assignedBy = new Map(rows.map((r) => [r.face_id, r.assigned_by]));
    const lastRead = rows.reduce((m, r) => Math.max(m, r.face_id), 0);
    this.db
      .transaction(() => {
        this.db
          .prepare("UPDATE faces SET person_id = NULL WHERE owner_id = ? AND face_id <= ? AND assigned_by = 'auto' AND person_id NOT IN (SELECT person_id FROM people WHERE confirmed = 1)")
          .run(ownerId, lastRead);
        const assign = this.db.prepare("UPDATE faces SET person_id = ?, assigned_by = 'auto' WHERE face_id = ?");
        const fresh = new Map<number, number[]>();
        for (const [faceId, g] of groups) {
          if (g > 0) {
            if (before.get(faceId) !== g || assignedBy.get(faceId) !== 'user') assign.run(g, faceId);
          } else pushTo(fresh, g, faceId);
        }
        // A new group becomes the person most of its faces belonged to, when that person is not taken yet.
        const taken = new Set([...groups.values()].filter((g) => g > 0));
        const newGroups = new Map<number, number>();
        for (const [g, ids] of fresh) {
          const votes = new Map<number, number>();
          for (const id of ids) {
            const p = before.get(id);
            if (p != null) votes.set(p, (votes.get(p) ?? 0) + 1);
          }
          const [winner] = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0]).find(([p]) => !taken.has(p)) ?? [];
          if (winner != null) {
            taken.add(winner);
            for (const id of ids) if (!rejections.get(id)?.has(winner)) assign.run(winner, id);
          } else for (const id of ids) newGroups.set(id, g);
        }
        this.createPeople(ownerId, newGroups, now);
        this.dropEmptyPeople(ownerId);
      })
      .immediate();
    const people = (this.db.prepare('SELECT count(*) AS n FROM people WHERE owner_id = ?').get(ownerId) as { n: number }).n;
    return { people, faces: rows.length, clustered: groups.size };
  }

  /**
   * New people for new groups (negative group numbers) of `groups` (face id → group). A group smaller than the
   * minimum size is noise, not a person: a core face can start a group that nothing else may join (its
   * neighbours are with a person it was rejected from), and a person of one face is not what clustering means.
   */
  private createPeople(ownerId: number, groups: Map<number, number>, now: number): void {
    const byGroup = new Map<number, number[]>();
    for (const [faceId, g] of groups) if (g < 0) pushTo(byGroup, g, faceId);
    const create = this.db.prepare('INSERT INTO people (owner_id, created_at, updated_at) VALUES (?, ?, ?)');
    const assign = this.db.prepare("UPDATE faces SET person_id = ?, assigned_by = 'auto' WHERE face_id = ?");
    for (const ids of byGroup.values()) {
      if (ids.length < CLUSTER_PARAMS.minPoints) continue;
      const pid = Number(create.run(ownerId, now, now).lastInsertRowid);
      for (const id of ids) assign.run(pid, id);
    }
  }

  /** People without faces that no member named or corrected go; chosen covers no longer theirs are cleared. */
  private dropEmptyPeople(ownerId: number): void {
    this.db
      .prepare('DELETE FROM people WHERE owner_id = ? AND confirmed = 0 AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.person_id = people.person_id)')
      .run(ownerId);
    this.db
      .prepare(
        'UPDATE people SET cover_face_id = NULL WHERE owner_id = ? AND cover_face_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.face_id = people.cover_face_id AND f.person_id = people.person_id)',
      )
      .run(ownerId);
  }

  private centroids(ownerId: number): Map<number, Float32Array> {
    const rows = this.db.prepare('SELECT person_id, embedding FROM faces WHERE owner_id = ? AND person_id IS NOT NULL').all(ownerId) as { person_id: number; embedding: Buffer }[];
    const by = new Map<number, Float32Array[]>();
    for (const r of rows) pushTo(by, r.person_id, toVector(r.embedding));
    return new Map([...by].map(([pid, vs]) => [pid, centroid(vs)]));
  }

  private rejectionsOf(ownerId: number): Map<number, Set<number>> {
    const rows = this.db
      .prepare('SELECT r.face_id, r.person_id FROM face_rejections r JOIN faces f ON f.face_id = r.face_id WHERE f.owner_id = ?')
      .all(ownerId) as { face_id: number; person_id: number }[];
    const out = new Map<number, Set<number>>();
    for (const r of rows) out.set(r.face_id, (out.get(r.face_id) ?? new Set()).add(r.person_id));
    return out;
  }

  /** The owner's named people (hidden ones too: naming someone in a search is asking for them), for the query parser. */
  namedPeople(ownerId: number): { id: number; name: string }[] {
    return this.db.prepare('SELECT person_id AS id, name FROM people WHERE owner_id = ? AND name IS NOT NULL ORDER BY person_id').all(ownerId) as { id: number; name: string }[];
  }

  facesOf(assetId: string): FaceRow[] {
    return this.db.prepare('SELECT * FROM faces WHERE asset_id = ? ORDER BY face_no').all(assetId) as FaceRow[];
  }

  /** Every face of the owner with its person (tests and the quality figures). */
  ownerFaces(ownerId: number): FaceRow[] {
    return this.db.prepare('SELECT * FROM faces WHERE owner_id = ? ORDER BY face_id').all(ownerId) as FaceRow[];
  }

  /** Removes every face and person (not used by rebuilds: they keep corrections). */
  reset(): void {
    this.db.prepare('DELETE FROM faces').run();
    this.db.prepare('DELETE FROM face_results').run();
  }
}

/** Appends to a map of lists in place (spreading the list on every append is quadratic in a person's faces). */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
