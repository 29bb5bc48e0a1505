/**
 * Faces and people in the catalog (migration 0024_faces_people.sql): a photo's faces replaced in one
 * transaction, and the clustering's writes (incremental after each photo, full on a rebuild) that never undo
 * what a member decided: faces a member placed (`assigned_by = 'user'`) stay, rejections are obeyed, named or
 * corrected people are kept, and chosen covers stay while their face is still the person's.
 */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { nextTurn, Pace } from '../../platform/cache/slices.ts';
import { clusterFaces, CLUSTER_PARAMS, SLICE_MS, type ClusterFace } from './cluster.ts';
import { clusterOnThread, type ClusterThreadOptions } from './cluster-thread.ts';
import { readFaceTable, type FaceColumns } from './face-table.store.ts';
import { iou } from './detect.ts';
import { OwnerFaceVectors } from './owner-face-vectors.store.ts';
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
  /** Faces with this person, kept by the catalog's triggers (migration 0041). */
  face_count: number;
}

/** A face as the incremental pass reads it (its embedding comes from the owner's matrix, owner-face-vectors.store.ts). */
type ClusterRow = Pick<FaceRow, 'face_id' | 'score' | 'person_id' | 'assigned_by'>;

/**
 * Face pairs an incremental pass may compare inside its write while finding its components (~20 ns each through the
 * wasm filter, dot-kernel.ts: about a quarter of a second; ~180 ns in plain JavaScript). The face indexer searches a
 * photo's components before the write (`warmFor`, face-components.ts), so a pass normally compares only its new faces
 * with the others; this bounds what is left when it could not (a search ahead that a change interrupted). A
 * household's components are its people and the strangers near them (a person of 100 faces in a library of 100k faces
 * is 10M pairs); above that a rebuild, which yields to the event loop, does it.
 */
export const INCREMENTAL_BUDGET = 12_000_000;

/**
 * The most faces an incremental pass clusters again inside its write: the clustering compares every pair of them in
 * JavaScript (~200 ns a pair: a component of 512 faces took about 40 ms). A larger component (a household's most
 * photographed person, or faces that chain people together) is left to a rebuild, which clusters on a thread of its
 * own. Before the components were kept (face-components.ts), the search's budget above left most of them there too,
 * but not in a small library: a person of 2,000 faces among 5,000 was clustered inside each write, about a second.
 */
export const INCREMENTAL_CLUSTER_MAX = 512;

/** The row of face `id` in ascending `ids`, or -1. */
function rowOf(ids: Float64Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else if (ids[mid]! > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Rows as columns (an incremental pass's few faces). */
function columnsOf(rows: readonly ClusterRow[]): FaceColumns {
  const n = rows.length;
  const c: FaceColumns = { n, faceId: new Float64Array(n), person: new Float64Array(n), user: new Uint8Array(n) };
  rows.forEach((r, i) => {
    c.faceId[i] = r.face_id;
    c.person[i] = r.person_id ?? 0;
    c.user[i] = r.assigned_by === 'user' ? 1 : 0;
  });
  return c;
}

export const toVector = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export class FacesStore {
  private readonly onDeferred?: (ownerId: number) => void;
  private readonly budget: number;

  constructor(
    private readonly db: Db,
    opts: {
      /** Told when an incremental pass was too large to run inside a write (reclusterAround): queue a rebuild. */
      onDeferred?: (ownerId: number) => void;
      /** Face pairs an incremental pass may compare (INCREMENTAL_BUDGET; tests lower it). */
      budget?: number;
      /** The rebuild's clustering thread (cluster-thread.ts; tests give it limits it cannot live with). */
      clusterThread?: ClusterThreadOptions;
    } = {},
  ) {
    this.onDeferred = opts.onDeferred;
    this.budget = opts.budget ?? INCREMENTAL_BUDGET;
    this.clusterThread = opts.clusterThread ?? {};
    this.vectors = new OwnerFaceVectors(db, CLUSTER_PARAMS.threshold, INCREMENTAL_CLUSTER_MAX);
  }
  private readonly clusterThread: ClusterThreadOptions;
  /** Each owner's face embeddings, kept between incremental passes (owner-face-vectors.store.ts). */
  readonly vectors: OwnerFaceVectors;

  /**
   * Before `replace` of an asset with faces of these embeddings: its owner's face embeddings read ahead, a slice per
   * turn, when no copy is kept, and the components the new faces will join searched ahead (owner-face-vectors.store.ts),
   * so that the incremental pass inside the write neither reads every face nor searches those components.
   */
  async warmFor(assetId: string, coming: readonly Float32Array[] = []): Promise<void> {
    const owner = prepared(this.db, 'SELECT owner_id FROM assets WHERE asset_id = ?').pluck().get(assetId) as number | undefined;
    if (owner !== undefined) await this.vectors.warm(owner, coming);
  }

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
    let committed = false;
    try {
      const replaced = this.replaceNow(assetId, analysis, modelId, now);
      committed = !this.db.inTransaction;
      return replaced;
    } finally {
      // What the incremental pass read is kept only once the write is in the database (owner-face-vectors.store.ts).
      this.vectors.settle(committed);
    }
  }

  private replaceNow(assetId: string, analysis: FaceAnalysis, modelId: string, now: number): boolean {
    return this.db
      .transaction(() => {
        const asset = prepared(this.db, 'SELECT owner_id FROM assets WHERE asset_id = ?').get(assetId) as { owner_id: number } | undefined;
        if (!asset) return false;
        const old = prepared(this.db, 'SELECT * FROM faces WHERE asset_id = ?').all(assetId) as FaceRow[];
        const oldRejections = new Map<number, number[]>();
        for (const f of old) {
          oldRejections.set(f.face_id, (prepared(this.db, 'SELECT person_id FROM face_rejections WHERE face_id = ?').all(f.face_id) as { person_id: number }[]).map((r) => r.person_id));
        }
        prepared(this.db, 'DELETE FROM faces WHERE asset_id = ?').run(assetId);
        const insert = prepared(
          this.db,
          `INSERT INTO faces (asset_id, owner_id, face_no, model_id, x, y, w, h, landmarks, score, embedding, person_id, assigned_by)
           VALUES (@asset_id, @owner_id, @face_no, @model_id, @x, @y, @w, @h, @landmarks, @score, @embedding, @person_id, @assigned_by)`,
        );
        const reject = prepared(this.db, 'INSERT OR IGNORE INTO face_rejections (face_id, person_id) VALUES (?, ?)');
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
          if (before) prepared(this.db, 'UPDATE people SET cover_face_id = ? WHERE cover_face_id = ?').run(id, before.face_id);
          if (!kept) fresh.push(id);
        });
        prepared(
          this.db,
          `INSERT INTO face_results (asset_id, model_id, image_width, image_height, face_count, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (asset_id) DO UPDATE SET model_id = excluded.model_id, image_width = excluded.image_width,
             image_height = excluded.image_height, face_count = excluded.face_count, updated_at = excluded.updated_at`,
        ).run(assetId, modelId, analysis.width, analysis.height, analysis.faces.length, now);
        this.placeNewFaces(asset.owner_id, fresh, now);
        this.dropEmptyPeople(asset.owner_id);
        return true;
      })
      .immediate();
  }

  /**
   * Incremental clustering after one asset's faces were found (`fresh`: their ids): the rebuild's rule run
   * again on the part of the owner's faces the fresh faces can change (`reclusterAround`), so people found as
   * photos arrive are the people a rebuild of the same faces gives, whatever order the photos came in.
   */
  placeNewFaces(ownerId: number, fresh: readonly number[], now = Date.now()): boolean {
    return this.reclusterAround(ownerId, fresh, now);
  }

  /**
   * Clusters again, by the rebuild's rule, the connected components of the "cosine ≥ threshold" graph that
   * hold `faceIds` (face-components.ts). Corrections made since in those components count as they do in a rebuild
   * (pinned faces fixed, rejections obeyed; people.service.ts says why
   * a correction itself does not call this). The rule reads only a face's neighbours, so clustering whole components gives
   * their faces exactly the groups a clustering of every face would, and no face outside them can change. A new
   * face may join a person, start one with faces that waited (a pair reaching the minimum size), or bridge two
   * people: all of them are in its component and are clustered again together, with the rebuild's parameters,
   * fixed faces (a member's) and rejections, and written the rebuild's way (`applyGroups`): a group keeps the
   * person most of its faces had, so the ids of unchanged people stay. Faces are taken in face-id order in
   * both, so even exact ties resolve alike. Runs inside the caller's write transaction.
   *
   * Cost: each face added since the last pass compared with the owner's faces; a component not known yet
   * (face-components.ts: `warmFor` searches it ahead, outside the write) searched, (component size) × (faces whose
   * component is not known) similarity reads; then the clustering of the component, (component size)² pairs. A
   * component too large for that inside one write (over INCREMENTAL_BUDGET pairs to search, or over
   * INCREMENTAL_CLUSTER_MAX faces to cluster: a much photographed person, faces that chain people together) is not
   * clustered here: the faces stay as they are (new ones unplaced), `onDeferred` is told
   * (the composition root queues a rebuild of the owner's people), and the answer is false.
   */
  reclusterAround(ownerId: number, faceIds: readonly number[], now = Date.now()): boolean {
    if (!faceIds.length) return true;
    const { ids, matrix: m, components } = this.vectors.read(ownerId);
    const seeds: number[] = [];
    for (const id of new Set(faceIds)) {
      const row = rowOf(ids, id);
      if (row >= 0) seeds.push(row);
    }
    if (!seeds.length) return true;
    seeds.sort((a, b) => a - b);
    // The faces added since the last pass taken into the known components, then those of the seeds (face-components.ts).
    components.extend(m, this.budget);
    const part = components.componentsOf(m, seeds, this.budget);
    if (!part || part.length > INCREMENTAL_CLUSTER_MAX) {
      this.onDeferred?.(ownerId);
      return false;
    }
    // The component's faces as they are now (person, pins): read by id, the embeddings from the matrix.
    const byId = prepared(this.db, 'SELECT face_id, score, person_id, assigned_by FROM faces WHERE face_id = ?');
    const local = part.map((i) => byId.get(ids[i]!) as ClusterRow);
    const rejections = this.rejectionsOf(ownerId);
    const groups = clusterFaces(local.map((r, x) => this.clusterFace(r, m.row(part[x]!), rejections)));
    const group = Float64Array.from(local, (r) => groups.get(r.face_id) ?? 0);
    const cols = columnsOf(local);
    const writer = this.planWriter(ownerId, cols, runToEnd(planGroups(cols, group, rejections, this.fixedPeople(ownerId))), now);
    while (writer.step(Infinity));
    this.dropEmptyPeople(ownerId);
    return true;
  }


  /**
   * The full rebuild of one owner's people: every automatically placed face is taken out and the owner's faces
   * clustered again, the faces a member pinned staying where they are (seeds that others may join): those a
   * member placed and those a person had when a member named, hid, gave a cover to or corrected it (the member
   * has seen that person as it was, and a rebuild must not take faces from it behind their back; new faces
   * still join it, and are placed by the rule like any other).
   * Groups are written the incremental pass's way (`planGroups`: ids, names, hidden people and covers stay).
   * Returns the people count.
   *
   * The event loop is never held for long (issue 25: ≤ 50 ms while a rebuild of 100k faces runs): the faces
   * are read and clustered on a thread of its own (cluster-thread.ts, face-table.store.ts: its heap, not the
   * server's, holds the rows, the embeddings, the index and the neighbour lists; the main thread receives flat
   * columns), the plan is made in slices into flat columns too (GroupsPlan: no object per face), and the result
   * is written in short transactions of about SLICE_MS each, only the faces whose person changes. Nothing is written before the groups are back: a clustering
   * thread that dies fails the rebuild (its job fails, and may be run again) with the catalog as it was.
   *
   * What happens when the library changes while it runs (the read, the clustering and the writes are apart):
   * - faces analysed after the thread's read (one snapshot) keep the place the incremental pass gave them;
   * - a face is written only while it is as the rebuild read it (same person, same `assigned_by`): a member's
   *   correction made meanwhile wins, a face an incremental pass placed meanwhile keeps that place, a face
   *   deleted meanwhile is skipped, and a person deleted meanwhile (merged) is not joined;
   * - between two of its write transactions a reader may see some faces at their new person and some at
   *   their old one; people left empty go at the end. Nothing else changes: with no change meanwhile, the
   *   people are those a single transaction wrote.
   */
  async rebuildOwner(ownerId: number, now = Date.now()): Promise<{ people: number; faces: number; clustered: number }> {
    // A catalog in memory has no file the thread could open: its faces are read here, in one go (tests).
    const { cols, groups: group } = await clusterOnThread(
      this.db.memory || this.db.name === '' ? { table: readFaceTable(this.db, ownerId) } : { file: this.db.name, ownerId },
      this.clusterThread,
    );
    // A turn between the parts as well as within them: each part's last slice followed by the next part's first,
    // with no turn between, made the longest stalls of a rebuild at 100k faces (issue 25, point 4).
    await nextTurn();
    const rejections = this.rejectionsOf(ownerId);
    const taken = new Set<number>();
    for (let i = 0; i < cols.n; i++) if (cols.user[i] && cols.person[i]) taken.add(cols.person[i]!);
    await nextTurn();
    const plan = await new Pace(SLICE_MS).drive(planGroups(cols, group, rejections, taken));
    await nextTurn();
    const writer = this.planWriter(ownerId, cols, plan, now);
    for (;;) {
      const more = this.db.transaction(() => writer.step(SLICE_MS)).immediate();
      if (!more) break;
      await nextTurn();
    }
    this.db.transaction(() => this.dropEmptyPeople(ownerId)).immediate();
    const people = (this.db.prepare('SELECT count(*) AS n FROM people WHERE owner_id = ?').get(ownerId) as { n: number }).n;
    let clustered = 0;
    for (let i = 0; i < group.length; i++) if (group[i] !== 0) clustered++;
    return { people, faces: cols.n, clustered };
  }

  /**
   * Writes a plan: `step(budgetMs)` writes until that much time has passed (inside the caller's transaction),
   * and says whether more is left. New people are created in the plan's order, each at its first face (their
   * ids are those a single transaction gives). Each face is written only while it is as the plan read it
   * (`rows`: rebuildOwner says why). Reads the plan's columns as it goes: no object per face is made ahead.
   */
  private planWriter(ownerId: number, rows: FaceColumns, plan: GroupsPlan, now: number): { step(budgetMs: number): boolean } {
    const set = this.db.prepare(
      `UPDATE faces SET person_id = @person, assigned_by = @by WHERE face_id = @face AND person_id IS @before AND assigned_by = @was
         AND (@person IS NULL OR EXISTS (SELECT 1 FROM people WHERE person_id = @person))`,
    );
    const create = this.db.prepare('INSERT INTO people (owner_id, created_at, updated_at) VALUES (?, ?, ?)');
    /** New person g's id once created (0: not yet). */
    const created = new Float64Array(plan.newPeople);
    let x = 0;
    return {
      step(budgetMs: number): boolean {
        const start = performance.now();
        while (x < plan.length) {
          const i = plan.row[x]!;
          let to = plan.to[x]!;
          if (to < 0) {
            const g = -to - 1;
            if (!created[g]) created[g] = Number(create.run(ownerId, now, now).lastInsertRowid);
            to = created[g]!;
          }
          const was = rows.user[i] ? 'user' : 'auto';
          set.run({ face: rows.faceId[i]!, person: to || null, by: plan.user[x] ? 'user' : 'auto', before: rows.person[i] || null, was });
          x++;
          if (performance.now() - start >= budgetMs) break;
        }
        return x < plan.length;
      },
    };
  }

  /**
   * The people holding fixed faces, whom no new group may take over: those with a face a member pinned
   * (`assigned_by = 'user'`: placed by hand, or the person's faces when a member confirmed it; people.service.ts).
   * Faces that joined a confirmed person automatically afterwards are not fixed: were they, the people would depend
   * on which photo came first after the naming (a face between Anna and Ben frozen with whichever it met first).
   * One range of the faces_pinned index (migration 0043), however many faces the owner has.
   */
  private fixedPeople(ownerId: number): Set<number> {
    const people = prepared(this.db, "SELECT DISTINCT person_id FROM faces WHERE owner_id = ? AND assigned_by = 'user' AND person_id IS NOT NULL").pluck().all(ownerId) as number[];
    return new Set(people);
  }


  private clusterFace(r: ClusterRow, embedding: Float32Array, rejections: Map<number, Set<number>>): ClusterFace {
    return { id: r.face_id, score: r.score, embedding, fixed: r.assigned_by === 'user' ? r.person_id : null, rejects: rejections.get(r.face_id) };
  }

  /** People without faces that no member named or corrected go; chosen covers no longer theirs are cleared. */
  private dropEmptyPeople(ownerId: number): void {
    prepared(this.db, 'DELETE FROM people WHERE owner_id = ? AND confirmed = 0 AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.person_id = people.person_id)').run(
      ownerId,
    );
    prepared(
      this.db,
      'UPDATE people SET cover_face_id = NULL WHERE owner_id = ? AND cover_face_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.face_id = people.cover_face_id AND f.person_id = people.person_id)',
    ).run(ownerId);
  }

  private rejectionsOf(ownerId: number): Map<number, Set<number>> {
    const rows = this.db
      // CROSS JOIN keeps the rejections (a few, made by hand) as the outer loop: SQLite chose to walk the owner's
      // faces instead, 100k rows for none found, on the event loop of a people rebuild.
      .prepare('SELECT r.face_id, r.person_id FROM face_rejections r CROSS JOIN faces f ON f.face_id = r.face_id WHERE f.owner_id = ?')
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
    this.vectors.clear();
    this.db.prepare('DELETE FROM face_results').run();
  }
}

/**
 * What a clustering changes, as columns (no object per face: on a first rebuild every face is written, and the
 * plan lives through seconds of writes; 100k objects would be promoted to the old generation and marked by a
 * major GC of the server's isolate). Write x puts row `row[x]` of the clustered columns into `to[x]`: a person
 * id, 0 (no one), or −(g + 1), the g-th new person (created at its first face). `user[x]` 1: written as
 * `'user'` (a pinned face left with no one keeps its pin), else `'auto'`.
 */
export interface GroupsPlan {
  length: number;
  row: Int32Array;
  to: Float64Array;
  user: Uint8Array;
  /** How many new people the writes create. */
  newPeople: number;
}

/**
 * What the groups of a clustering of `rows` change (all the owner's faces for a rebuild, whole components for an
 * incremental pass): every automatically placed face of `rows` leaves its person unless the groups put it back.
 * A face of a fixed group joins that person. A new group takes over the person most of its faces had before,
 * when that person is not taken yet (`taken`: the people with fixed faces; so the ids of unchanged people stay),
 * or becomes a new person; a group smaller than the minimum size is noise either way, so what a face ends up in
 * never depends on what it was in before, only the person ids do. Only the faces whose place changes are
 * written. People left without faces go afterwards (dropEmptyPeople) unless a member named or corrected them.
 *
 * A new group below the minimum size is noise, not a person: a core face can start a group that nothing else
 * may join (its neighbours are with a person it was rejected from), and a person of one face is not what
 * clustering means.
 */
export function* planGroups(rows: FaceColumns, group: Float64Array, rejections: Map<number, Set<number>>, taken: Set<number>): Generator<void, GroupsPlan> {
  // Yields every 1024 items: where its driver (a Pace, or runToEnd) may give the event loop a turn.
  let work = 0;
  function* slice(): Generator<void, void> {
    if ((++work & 1023) === 0) yield;
  }
  const { n, faceId, person, user } = rows;
  /** Row → its person after the write: UNSET (not written), 0 (none) or a person id; auto faces start with none. */
  const UNSET = -1;
  const target = new Float64Array(n).fill(UNSET);
  /** New groups (negative ids) → their rows, in the order the groups first appear. */
  const fresh = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    if (!user[i]) target[i] = 0;
    const g = group[i]!;
    if (g > 0) {
      if (person[i] !== g || !user[i]) target[i] = g;
    } else if (g < 0) pushTo(fresh, g, i);
    yield* slice();
  }
  const won = new Set(taken);
  const newGroups: number[][] = [];
  for (const rowsOf of fresh.values()) {
    if (rowsOf.length < CLUSTER_PARAMS.minPoints) continue;
    const votes = new Map<number, number>();
    for (const i of rowsOf) {
      const p = person[i]!;
      if (p) votes.set(p, (votes.get(p) ?? 0) + 1);
    }
    const [winner] = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0]).find(([p]) => !won.has(p)) ?? [];
    if (winner != null) {
      won.add(winner);
      for (const i of rowsOf) if (!rejections.get(faceId[i]!)?.has(winner)) target[i] = winner;
    } else newGroups.push(rowsOf);
    yield* slice();
  }
  const plan: GroupsPlan = { length: 0, row: new Int32Array(n), to: new Float64Array(n), user: new Uint8Array(n), newPeople: newGroups.length };
  const write = (i: number, to: number, user: boolean) => {
    plan.row[plan.length] = i;
    plan.to[plan.length] = to;
    plan.user[plan.length++] = user ? 1 : 0;
  };
  const inNew = new Uint8Array(n);
  for (const rowsOf of newGroups) for (const i of rowsOf) inNew[i] = 1;
  for (let i = 0; i < n; i++) {
    yield* slice();
    if (target[i] === UNSET || inNew[i]) continue;
    const to = target[i]!;
    // A face placed by the rule is written as the rule's ('auto'); one left where it was is not written.
    const byUser = to === 0 && user[i] === 1;
    if (person[i] !== to || user[i] !== (byUser ? 1 : 0)) write(i, to, byUser);
  }
  newGroups.forEach((rowsOf, g) => {
    for (const i of rowsOf) write(i, -(g + 1), false);
  });
  return plan;
}

/** A generator's result, run in one go (an incremental pass inside its write transaction). */
function runToEnd<T>(g: Generator<void, T>): T {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

/** Appends to a map of lists in place (spreading the list on every append is quadratic in a person's faces). */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
