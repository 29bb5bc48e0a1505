/**
 * People: the face clusters of one owner, and the corrections members make to them.
 *
 * Decisions where the contract is silent:
 * - A person is its owner's alone: another member's person answers 404 (`person_not_found`) like an unknown
 *   id, to everyone, administrators included (faces are as private as the photos they are in).
 * - `updatePerson` body: `{ name?, is_hidden?, cover_face_id? }`, at least one. `name` is trimmed, 1..100
 *   characters on one line, or null to clear it. `cover_face_id` must be a face of this person (422 naming
 *   `body.cover_face_id`: `cover_face_not_member`), null returns to the automatic cover (the best face).
 *   Every update confirms the person (`is_confirmed`): a person a member touched is never deleted by a rebuild,
 *   and the faces it has then are pinned to it (as every correction pins the faces of the person it confirms).
 * - Listing: named people first (by name), then by how many faces they have; hidden people only with
 *   `include_hidden=true`. `repository_id` keeps the people with a face in a photo of that repository.
 * - Corrections beyond the contract (operations.extensions.md): `mergePeople` (the others' faces go to the
 *   target, pinned there; the others are deleted; the target keeps its name, or takes the first name among
 *   them), `assignFace` (a face to a person, or to a new person: pinned there) and `rejectFace` ("not this
 *   person": the face leaves the person and never joins it again automatically). Each is one transaction.
 * - A correction does what the member said and nothing more: the faces around it are not regrouped then (a
 *   face split off into a new person would otherwise pull its old companions after it, and the person the
 *   member is looking at could vanish under them). The rule takes the correction into account (fixed faces,
 *   rejections) the next time it runs there: when a new photo's faces reach that component
 *   (FacesStore.reclusterAround) or at a rebuild, which both give the same people.
 * - `rebuildPeopleClusters` queues one job for the caller's faces; while one runs (or waits) for them, a second
 *   is 409 `people_rebuild_running`. `getPeopleRebuild` (extension) says whether it still does, so a member's
 *   People screen knows when to read the people again (getJob, which would say, is for administrators).
 */
import sharp from 'sharp';
import { withOpenedImage } from '../../adapters/media/image-source.ts';
import type { Access, Permission, PermittedFaceId, PermittedPersonId } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { Conflict, Invalid, NotFound } from '../../platform/http/errors.ts';
import type { Actor } from '../../platform/http/context.ts';
import { ACTIVE_STATES, sqlList } from '../../platform/jobs/registry.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { FaceRow, FacesStore, PersonRow } from './faces.store.ts';
import { rebuildPeople } from './faces.jobs.ts';
import { faceView, type FaceView } from './faces.view.ts';

const DEFERRED_REBUILD_DELAY_MS = 60_000;

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

export interface PersonView {
  person_id: number;
  name: string | null;
  is_confirmed: boolean;
  is_hidden: boolean;
  hidden_at: string | null;
  member_count: number;
  asset_count: number;
  representative_asset_id: string | null;
  cover_face_id: number | null;
  cover_face_image_path: string | null;
  created_at: string;
  updated_at: string;
}


type PersonStats = PersonRow & { member_count: number; asset_count: number; best_face: number | null; hidden_at: number | null };

export class PeopleService {
  constructor(
    private readonly db: Db,
    /** Whose people and faces these are (platform/access rules.ts: the owner's only). */
    private readonly access: Access,
    private readonly store: FacesStore,
    private readonly jobs: JobQueue,
    /** The picture a face of this asset is cut from (the medium thumbnail, made if missing: AssetsService.faceCropSource). */
    private readonly cropSource: (assetId: string) => Promise<string | null>,
  ) {}

  private statsSql(where: string): string {
    return `SELECT p.*, p.face_count AS member_count,
        (SELECT count(DISTINCT f.asset_id) FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.person_id = p.person_id AND a.is_deleted = 0) AS asset_count,
        coalesce(p.cover_face_id, (SELECT f.face_id FROM faces f WHERE f.person_id = p.person_id ORDER BY f.score * f.w * f.h DESC, f.face_id LIMIT 1)) AS best_face,
        CASE WHEN p.hidden = 1 THEN p.updated_at END AS hidden_at
      FROM people p WHERE ${where}`;
  }

  private view(p: PersonStats): PersonView {
    const asset = p.best_face == null ? null : (prepared(this.db, 'SELECT asset_id FROM faces WHERE face_id = ?').get(p.best_face) as { asset_id: string } | undefined)?.asset_id ?? null;
    return {
      person_id: p.person_id,
      name: p.name,
      is_confirmed: p.confirmed === 1,
      is_hidden: p.hidden === 1,
      hidden_at: iso(p.hidden_at),
      member_count: p.member_count,
      asset_count: p.asset_count,
      representative_asset_id: asset,
      cover_face_id: p.cover_face_id,
      cover_face_image_path: p.best_face == null ? null : `/api/v1/people/${p.person_id}/cover`,
      created_at: iso(p.created_at)!,
      updated_at: iso(p.updated_at)!,
    };
  }

  /** The caller's person, or 404 `person_not_found` (unknown, or another member's: the access layer's rule). */
  private own(actor: Actor, personId: number, permission: Permission = 'read'): PersonStats {
    return this.stats(this.access.require(actor, 'person', personId, permission));
  }

  private stats(id: PermittedPersonId): PersonStats {
    return prepared(this.db, this.statsSql('p.person_id = @id')).get({ id }) as PersonStats;
  }

  list(actor: Actor, q: { include_hidden?: boolean; limit?: number; offset?: number; repository_id?: string }) {
    const limit = q.limit ?? 24;
    const offset = q.offset ?? 0;
    const where = ['p.owner_id = @owner'];
    if (!q.include_hidden) where.push('p.hidden = 0');
    if (q.repository_id) where.push('EXISTS (SELECT 1 FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.person_id = p.person_id AND a.repository_id = @repo)');
    const params = { owner: actor.userId, repo: q.repository_id ?? null };
    const total = (prepared(this.db, `SELECT count(*) AS n FROM people p WHERE ${where.join(' AND ')}`).get(params) as { n: number }).n;
    // The page is chosen first by what the order needs (name, face count: kept on the person by triggers,
    // migration 0041), and only its people's other figures are computed: computed for every person before
    // sorting (a distinct count and a best face each), and counted from the faces, a list of 2000 people held
    // the event loop for tens of ms, a major cost while a people rebuild ran (issue 25 point 4).
    const order = 'ORDER BY p.name IS NULL, p.name COLLATE NOCASE, member_count DESC, p.person_id';
    // Kept prepared (platform/db/prepared.ts): the list's few shapes run on every People page load.
    const rows = prepared(
      this.db,
      `WITH page AS (SELECT p.person_id, p.face_count AS member_count
           FROM people p WHERE ${where.join(' AND ')} ${order} LIMIT @limit OFFSET @offset)
         ${this.statsSql('p.person_id IN (SELECT person_id FROM page)')} ${order}`,
    ).all({ ...params, limit, offset }) as PersonStats[];
    return { limit, offset, total, people: rows.map((r) => this.view(r)) };
  }

  get(actor: Actor, personId: number): PersonView {
    return this.view(this.own(actor, personId));
  }

  update(actor: Actor, personId: number, body: { name?: string | null; is_hidden?: boolean; cover_face_id?: number | null }): PersonView {
    this.own(actor, personId, 'change');
    if (body.name === undefined && body.is_hidden === undefined && body.cover_face_id === undefined) {
      throw new Invalid('Nothing to change: give name, is_hidden or cover_face_id.', [{ field: 'body', message: 'at least one of name, is_hidden, cover_face_id' }], 'empty_update');
    }
    if (body.cover_face_id != null) {
      // Another member's face is refused like a face of another person (422, as documented), not 404.
      const [faceId] = this.access.permitted(actor, 'face', [body.cover_face_id], 'change');
      const face = faceId === undefined ? undefined : (this.db.prepare('SELECT person_id FROM faces WHERE face_id = ?').get(faceId) as { person_id: number | null });
      if (!face || face.person_id !== personId) {
        throw new Invalid('The cover must be one of this person’s faces.', [{ field: 'body.cover_face_id', message: 'not a face of this person' }], 'cover_face_not_member');
      }
    }
    const sets = ['confirmed = 1', 'updated_at = @now'];
    if (body.name !== undefined) sets.push('name = @name');
    if (body.is_hidden !== undefined) sets.push('hidden = @hidden');
    if (body.cover_face_id !== undefined) sets.push('cover_face_id = @cover');
    this.db
      .transaction(() => {
        this.db
          .prepare(`UPDATE people SET ${sets.join(', ')} WHERE person_id = @id`)
          .run({ id: personId, now: Date.now(), name: body.name ?? null, hidden: body.is_hidden ? 1 : 0, cover: body.cover_face_id ?? null });
        this.pin(personId);
      })
      .immediate();
    return this.get(actor, personId);
  }

  /** The asset ids are listed by browse with `person_id` (queryPersonAssets): this only checks the person. */
  checkOwn(actor: Actor, personId: number): void {
    this.own(actor, personId);
  }

  /** The person's cover face cut from its photo (JPEG, the box widened by half on each side, at most 256 px). */
  async cover(actor: Actor, personId: number): Promise<Buffer> {
    const p = this.own(actor, personId);
    if (p.best_face == null) throw new NotFound('This person has no face to show.', 'person_cover_missing');
    const f = this.db.prepare('SELECT * FROM faces WHERE face_id = ?').get(p.best_face) as FaceRow;
    const file = await this.cropSource(f.asset_id);
    if (!file) throw new NotFound('The photo of this face is not there.', 'person_cover_missing');
    const { data, info } = await withOpenedImage(file, {}, ({ pipeline }) => pipeline.raw().toBuffer({ resolveWithObject: true }));
    const W = info.width, H = info.height;
    const cx = (f.x + f.w / 2) * W, cy = (f.y + f.h / 2) * H;
    const side = Math.max(f.w * W, f.h * H) * 2;
    const left = Math.max(0, Math.round(cx - side / 2)), top = Math.max(0, Math.round(cy - side / 2));
    const width = Math.max(1, Math.min(W - left, Math.round(side))), height = Math.max(1, Math.min(H - top, Math.round(side)));
    return sharp(data, { raw: { width: W, height: H, channels: info.channels } })
      .extract({ left, top, width, height })
      .resize(256, 256, { fit: 'cover', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  }

  /** The caller's rebuild queued or running, if any. */
  private activeRebuild(actor: Actor) {
    return this.db
      .prepare(`SELECT id FROM jobs WHERE kind = '${rebuildPeople.kind}' AND state IN (${sqlList(ACTIVE_STATES)}) AND json_extract(args, '$.owner_id') = ?`)
      .get(actor.userId) as { id: number } | undefined;
  }

  /** Whether the caller's rebuild is still under way (getJob is for administrators; People follows this). */
  rebuildState(actor: Actor) {
    const active = this.activeRebuild(actor);
    return { running: active !== undefined, receipt_id: active ? String(active.id) : null };
  }

  /** Queues the re-clustering of the caller's faces; 409 while one is queued or running for them. */
  rebuild(actor: Actor) {
    const running = this.activeRebuild(actor);
    if (running) throw new Conflict('A rebuild of your people is already running.', 'people_rebuild_running');
    const { job } = this.jobs.enqueue(rebuildPeople, { owner_id: actor.userId }, { ownerId: actor.userId });
    return { status: 'queued' as const, receipt_id: String(job.id) };
  }

  /**
   * A rebuild for faces an incremental pass left to one (FacesStore's `onDeferred`: a component too large to
   * cluster inside a write). One waiting per owner is enough: it reads every face when it starts; while one
   * runs, one more is queued (the running one may have read the catalog before these faces). A minute's delay
   * lets an import's photos join one rebuild instead of one each.
   */
  queueRebuild(ownerId: number): void {
    const states = this.db
      .prepare(`SELECT state FROM jobs WHERE kind = '${rebuildPeople.kind}' AND state IN (${sqlList(ACTIVE_STATES)}) AND json_extract(args, '$.owner_id') = ?`)
      .pluck()
      .all(ownerId) as string[];
    if (states.some((s) => s !== 'running')) return;
    this.jobs.enqueue(rebuildPeople, { owner_id: ownerId }, { ownerId, delayMs: DEFERRED_REBUILD_DELAY_MS });
  }

  runRebuild(ownerId: number) {
    return this.store.rebuildOwner(ownerId);
  }

  merge(actor: Actor, targetId: number, others: number[]): PersonView {
    this.own(actor, targetId, 'change');
    const unique = [...new Set(others)];
    if (unique.includes(targetId)) throw new Invalid('A person cannot be merged into itself.', [{ field: 'body.person_ids', message: 'must not contain the target' }], 'merge_into_self');
    const ids = this.requirePeople(actor, unique, (i) => `body.person_ids.${i}`);
    this.db
      .transaction(() => {
        const now = Date.now();
        const target = this.db.prepare('SELECT name FROM people WHERE person_id = ?').get(targetId) as { name: string | null };
        const firstName = target.name ?? (ids.map((id) => (this.db.prepare('SELECT name FROM people WHERE person_id = ?').get(id) as { name: string | null }).name).find((n) => n) ?? null);
        for (const id of ids) {
          this.db.prepare("UPDATE faces SET person_id = ?, assigned_by = 'user' WHERE person_id = ?").run(targetId, id);
          // A face rejected from a merged person stays out of the target too.
          this.db.prepare('INSERT OR IGNORE INTO face_rejections (face_id, person_id) SELECT face_id, ? FROM face_rejections WHERE person_id = ?').run(targetId, id);
          this.db.prepare('DELETE FROM people WHERE person_id = ?').run(id);
        }
        this.db.prepare("UPDATE faces SET assigned_by = 'user' WHERE person_id = ?").run(targetId);
        this.db.prepare('UPDATE people SET confirmed = 1, name = ?, updated_at = ? WHERE person_id = ?').run(firstName, now, targetId);
      })
      .immediate();
    return this.get(actor, targetId);
  }

  /** The caller's face, or 404 `face_not_found` (unknown, or another member's: the access layer's rule). */
  private ownFace(actor: Actor, faceId: number): FaceRow {
    return this.face(this.access.require(actor, 'face', faceId, 'change'));
  }

  private face(id: PermittedFaceId): FaceRow {
    return this.db.prepare('SELECT * FROM faces WHERE face_id = ?').get(id) as FaceRow;
  }

  /**
   * People named in a body, all the caller's, or 422 `person_not_found` naming the first that is not
   * (unknown, or another member's: the access layer decides). 422, not 404: the path's resource exists;
   * a wrong id in the body is invalid input, as operations.extensions.md documents for mergePeople and
   * assignFace.
   */
  private requirePeople(actor: Actor, ids: readonly number[], fieldOf: (index: number) => string): PermittedPersonId[] {
    const ok = this.access.permitted(actor, 'person', ids, 'change');
    const i = ids.findIndex((id) => !ok.includes(id as PermittedPersonId));
    if (i >= 0) throw new Invalid('No such person.', [{ field: fieldOf(i), message: 'unknown person' }], 'person_not_found');
    return ok;
  }

  /** Moves a face to a person (or to a new person when `personId` is null), pinned there. */
  assign(actor: Actor, faceId: number, personId: number | null): FaceView {
    const face = this.ownFace(actor, faceId);
    if (personId != null) this.requirePeople(actor, [personId], () => 'body.person_id');
    this.db
      .transaction(() => {
        const now = Date.now();
        const target = personId ?? Number(this.db.prepare('INSERT INTO people (owner_id, confirmed, created_at, updated_at) VALUES (?, 1, ?, ?)').run(actor.userId, now, now).lastInsertRowid);
        this.db.prepare("UPDATE faces SET person_id = ?, assigned_by = 'user' WHERE face_id = ?").run(target, faceId);
        this.db.prepare('DELETE FROM face_rejections WHERE face_id = ? AND person_id = ?').run(faceId, target);
        this.db.prepare('UPDATE people SET confirmed = 1, updated_at = ? WHERE person_id = ?').run(now, target);
        this.pin(target);
        this.cleanup(actor.userId, face.person_id);
      })
      .immediate();
    return this.faceView(this.ownFace(actor, faceId));
  }

  /** "Not this person": the face leaves its person and never joins it again automatically. */
  reject(actor: Actor, faceId: number): FaceView {
    const face = this.ownFace(actor, faceId);
    if (face.person_id == null) throw new Conflict('This face is not with anyone.', 'face_not_assigned');
    this.db
      .transaction(() => {
        this.db.prepare('INSERT OR IGNORE INTO face_rejections (face_id, person_id) VALUES (?, ?)').run(faceId, face.person_id);
        this.db.prepare("UPDATE faces SET person_id = NULL, assigned_by = 'auto' WHERE face_id = ?").run(faceId);
        this.db.prepare('UPDATE people SET confirmed = 1, updated_at = ? WHERE person_id = ?').run(Date.now(), face.person_id);
        this.pin(face.person_id!);
        this.cleanup(actor.userId, face.person_id);
      })
      .immediate();
    return this.faceView(this.ownFace(actor, faceId));
  }

  /**
   * Confirming a person pins the faces it has now (`assigned_by = 'user'`): what the member saw stays through
   * every clustering; faces joining it later are the rule's to place (faces.store.ts clusterRows says why).
   */
  private pin(personId: number): void {
    this.db.prepare("UPDATE faces SET assigned_by = 'user' WHERE person_id = ? AND assigned_by = 'auto'").run(personId);
  }

  /** A person left without faces by a move goes unless named; a cover that left its person is cleared. */
  private cleanup(ownerId: number, personId: number | null): void {
    if (personId == null) return;
    this.db.prepare("DELETE FROM people WHERE person_id = ? AND name IS NULL AND NOT EXISTS (SELECT 1 FROM faces WHERE person_id = ?)").run(personId, personId);
    this.db
      .prepare('UPDATE people SET cover_face_id = NULL WHERE owner_id = ? AND cover_face_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.face_id = people.cover_face_id AND f.person_id = people.person_id)')
      .run(ownerId);
  }

  faceView(f: FaceRow): FaceView {
    return faceView(this.db, f);
  }
}
