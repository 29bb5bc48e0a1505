/**
 * People found as photos arrive (FacesStore.replace, the `face` indexer's write, with its incremental pass)
 * against a rebuild of the same faces (rebuildOwner), on synthetic 128-d embeddings laid out to make the
 * order matter: two people with faces between them (bridges), a chain whose ends are not neighbours, pairs
 * that only reach the minimum size when their second face comes, and strangers. A real catalog (SQLite,
 * migrated), one member per order. Every order (as listed, reversed, by score both ways, bridges first and
 * last, seeded shuffles) gives exactly the rebuild's partition; corrections made between two batches (a
 * person named, faces rejected, a face assigned) stay as a rebuild keeps them, and the second batch regroups
 * around them as a rebuild does; a component too large for one write waits for one queued rebuild; people
 * that did not change keep their ids.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { FACE_MODEL_ID, FacesStore, PeopleService, rebuildPeople } from '../../../server/src/features/faces/index.ts';
import { Access } from '../../../server/src/platform/access/index.ts';
import type { Actor } from '../../../server/src/platform/http/context.ts';
import { catalogOf } from '../helpers/factories.ts';
import { harness } from '../jobs/harness.ts';

interface Photo {
  name: string;
  faces: { embedding: Float32Array; score: number }[];
}

let seed = 2024;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
const unit = (v: Float32Array) => {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  return v.map((x) => x / n);
};
const randomUnit = () => unit(Float32Array.from({ length: 128 }, gauss));
/** Two orthonormal directions: faces on the arc between them have cosine cos(Δangle) to each other. */
function plane(): (deg: number) => Float32Array {
  const u = randomUnit();
  const w = randomUnit();
  const d = u.reduce((s, x, k) => s + x * w[k]!, 0);
  const v = unit(w.map((x, k) => x - d * u[k]!));
  return (deg: number) => {
    const a = (deg * Math.PI) / 180;
    // A little noise off the plane, so no two similarities tie exactly.
    const noise = randomUnit();
    return unit(u.map((x, k) => Math.cos(a) * x + Math.sin(a) * v[k]! + 0.02 * noise[k]!));
  };
}
const score = () => Math.round((0.8 + rnd() * 0.2) * 1000) / 1000;

function shuffled<T>(items: readonly T[], s: number): T[] {
  const out = items.slice();
  const r = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The library: on one arc, person A around 0° and person B around 110° (cosine −0.34 apart), bridge faces at
 * 50–60° (≥ 0.4 to faces of both); on another arc a chain at 0°, 55°, 110°, 165° (each the next one's only
 * neighbour); three pairs (one face per photo) far from everyone; strangers; one photo with faces of A and B.
 */
function library(): { photos: Photo[]; bridges: string[] } {
  const ab = plane();
  const chain = plane();
  const photos: Photo[] = [];
  const add = (name: string, ...embeddings: Float32Array[]) => photos.push({ name, faces: embeddings.map((embedding) => ({ embedding, score: score() })) });
  for (let i = 0; i < 6; i++) add(`a${i}`, ab(-12 + 5 * i));
  for (let i = 0; i < 6; i++) add(`b${i}`, ab(98 + 5 * i));
  add('a-and-b', ab(3), ab(112));
  add('bridge0', ab(50));
  add('bridge1', ab(57));
  add('bridge2', ab(62));
  for (let i = 0; i < 4; i++) add(`chain${i}`, chain(55 * i));
  for (let p = 0; p < 3; p++) {
    const c = randomUnit();
    add(`pair${p}-0`, unit(c.map((x, k) => x + 0.5 * randomUnit()[k]!)));
    add(`pair${p}-1`, unit(c.map((x, k) => x + 0.5 * randomUnit()[k]!)));
  }
  for (let i = 0; i < 4; i++) add(`stranger${i}`, randomUnit());
  return { photos, bridges: ['bridge0', 'bridge1', 'bridge2'] };
}

describe('people found as photos arrive are the people a rebuild gives', { timeout: 300_000 }, () => {
  const h = harness([rebuildPeople]);
  after(() => h.cleanup());
  const store = new FacesStore(h.db);
  const people = new PeopleService(h.db, new Access(h.db), store, h.queue, async () => null);
  const factory = catalogOf(h.db);
  const repo = factory.repository({ name: 'synthetic', path: '/nonexistent', status: 'offline' });
  let users = 0;
  const member = (): { id: number; actor: Actor } => {
    const name = `m${++users}`;
    const id = Number(h.db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, 'x', 'user', 0, 0)").run(name, name).lastInsertRowid);
    return { id, actor: { userId: id, username: name, role: 'user', sessionId: 's', via: 'bearer' } };
  };
  const ingest = (owner: number, photos: readonly Photo[]) => {
    for (const p of photos) {
      const asset = factory.asset({ owner_id: owner, repository_id: repo, original_filename: p.name, storage_path: `${owner}/${p.name}` });
      const faces = p.faces.map((f, i) => ({ box: { x: 0.3 * i, y: 0.1, w: 0.2, h: 0.2 }, landmarks: [], ...f }));
      assert.ok(store.replace(asset, { width: 1000, height: 800, faces }, FACE_MODEL_ID));
    }
  };
  /** Face key ("photo#face") → person id, for one member. */
  const personOf = (owner: number) =>
    new Map(
      (h.db.prepare('SELECT a.original_filename AS name, f.face_no, f.person_id FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.owner_id = ?').all(owner) as { name: string; face_no: number; person_id: number | null }[]).map(
        (r) => [`${r.name}#${r.face_no}`, r.person_id],
      ),
    );
  /** The people as sorted lists of face keys (comparable across members). */
  const partition = (owner: number) => {
    const by = new Map<number, string[]>();
    for (const [key, p] of personOf(owner)) if (p != null) (by.get(p) ?? by.set(p, []).get(p)!).push(key);
    return [...by.values()].map((keys) => keys.sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  };
  const faceId = (owner: number, key: string) => {
    const [name, no] = key.split('#');
    return (h.db.prepare('SELECT f.face_id FROM faces f JOIN assets a ON a.asset_id = f.asset_id WHERE f.owner_id = ? AND a.original_filename = ? AND f.face_no = ?').get(owner, name, Number(no)) as { face_id: number }).face_id;
  };

  test('every arrival order gives the rebuild’s people: bridges, a chain, pairs at the minimum size, strangers', async () => {
    const { photos, bridges } = library();
    const scoreOf = (p: Photo) => Math.max(...p.faces.map((f) => f.score));
    const isBridge = (p: Photo) => bridges.includes(p.name);
    const orders: Record<string, Photo[]> = {
      'as listed': photos,
      reversed: photos.slice().reverse(),
      'lowest score first': photos.slice().sort((a, b) => scoreOf(a) - scoreOf(b)),
      'highest score first': photos.slice().sort((a, b) => scoreOf(b) - scoreOf(a)),
      'bridges first': [...photos.filter(isBridge), ...photos.filter((p) => !isBridge(p))],
      'bridges last, pairs apart': [...photos.filter((p) => !isBridge(p) && !p.name.endsWith('-1')), ...photos.filter((p) => p.name.endsWith('-1')), ...photos.filter(isBridge)],
      'shuffle 1': shuffled(photos, 1),
      'shuffle 2': shuffled(photos, 2),
      'shuffle 3': shuffled(photos, 3),
    };
    let first: string[][] | null = null;
    for (const [what, order] of Object.entries(orders)) {
      const { id } = member();
      ingest(id, order);
      const incremental = partition(id);
      first ??= incremental;
      assert.deepEqual(incremental, first, `${what}: the same people as the first order`);
      await store.rebuildOwner(id);
      assert.deepEqual(partition(id), incremental, `${what}: a rebuild changes nothing`);
    }
    // The library has what it was laid out to have.
    const flat = first!.flat();
    for (let p = 0; p < 3; p++) assert.ok(first!.some((g) => g.includes(`pair${p}-0#0`) && g.includes(`pair${p}-1#0`)), `pair ${p} is a person`);
    assert.ok(!flat.some((k) => k.startsWith('stranger')), 'strangers are nobody');
    assert.ok(first!.some((g) => g.includes('a0#0') && g.includes('a-and-b#0')) && first!.some((g) => g.includes('b0#0') && g.includes('a-and-b#1')), 'A and B');
  });

  test('corrections between two batches stay as a rebuild keeps them, in any order of the second batch', async () => {
    const { photos } = library();
    const firstBatch = photos.filter((_, i) => i % 2 === 0);
    const secondBatch = photos.filter((_, i) => i % 2 === 1);
    const results: string[][][] = [];
    for (const [x, order] of [secondBatch, secondBatch.slice().reverse(), shuffled(secondBatch, 5)].entries()) {
      const { id, actor } = member();
      ingest(id, firstBatch);
      const anna = personOf(id).get('a0#0')!;
      assert.ok(anna != null, 'a0 is with someone after the first batch');
      people.update(actor, anna, { name: 'Anna' });
      const b = personOf(id).get('b0#0')!;
      const bridge = personOf(id).get('bridge1#0')!;
      assert.ok(bridge != null, 'the bridge face is with A or B');
      people.reject(actor, faceId(id, 'b2#0'));
      // "Not this person" on a face between two people: the rule now puts it with the other one.
      people.reject(actor, faceId(id, 'bridge1#0'));
      people.assign(actor, faceId(id, 'stranger0#0'), anna);
      assert.equal(personOf(id).get('bridge1#0'), null, 'the rejected bridge face left its person (and waits: a correction regroups nothing)');
      ingest(id, order);
      const now = personOf(id);
      assert.equal(now.get('a0#0'), anna, `order ${x}: Anna keeps her id`);
      assert.equal((h.db.prepare('SELECT name FROM people WHERE person_id = ?').get(anna) as { name: string }).name, 'Anna');
      assert.equal(now.get('stranger0#0'), anna, `order ${x}: the face assigned to Anna stays`);
      assert.notEqual(now.get('b2#0'), b, `order ${x}: the rejected face never rejoins`);
      assert.notEqual(now.get('bridge1#0'), bridge, `order ${x}: nor does the rejected bridge face`);
      const incremental = partition(id);
      results.push(incremental);
      await store.rebuildOwner(id);
      assert.deepEqual(partition(id), incremental, `order ${x}: a rebuild changes nothing`);
    }
    assert.deepEqual(results[1], results[0]);
    assert.deepEqual(results[2], results[0]);
  });

  test('a component too large for one write: the faces wait unplaced and one rebuild is queued, which places them', async () => {
    const { photos } = library();
    const { id } = member();
    ingest(id, photos);
    const want = partition(id);
    // The same store code allowed no pair at all: every pass that has a face to compare is "too large".
    const smallPeople = new PeopleService(h.db, new Access(h.db), new FacesStore(h.db), h.queue, async () => null);
    const small = new FacesStore(h.db, { budget: 0, onDeferred: (owner) => smallPeople.queueRebuild(owner) });
    const { id: other } = member();
    const queued = () => h.db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = ? AND json_extract(args, '$.owner_id') = ? AND state IN ('available', 'scheduled')").pluck().get(rebuildPeople.kind, other) as number;
    for (const p of photos) {
      const asset = factory.asset({ owner_id: other, repository_id: repo, original_filename: p.name, storage_path: `${other}/${p.name}` });
      assert.ok(small.replace(asset, { width: 1000, height: 800, faces: p.faces.map((f, i) => ({ box: { x: 0.3 * i, y: 0.1, w: 0.2, h: 0.2 }, landmarks: [], ...f })) }, FACE_MODEL_ID));
    }
    assert.deepEqual(partition(other), [], 'nothing placed inside the writes');
    assert.equal(queued(), 1, 'one rebuild waits for them, not one per photo');
    await small.rebuildOwner(other);
    assert.deepEqual(partition(other), want, 'the rebuild gives the people the incremental passes give');
  });

  test('people that do not change keep their ids; a person that grows keeps its id', () => {
    const { photos } = library();
    const { id } = member();
    ingest(id, photos);
    const before = personOf(id);
    // A new photo of A (near a0) and a stranger.
    const a0 = photos.find((p) => p.name === 'a0')!.faces[0]!.embedding;
    ingest(id, [{ name: 'a-new', faces: [{ embedding: unit(a0.map((x, k) => x + 0.2 * randomUnit()[k]!)), score: 0.9 }, { embedding: randomUnit(), score: 0.95 }] }]);
    const after = personOf(id);
    assert.equal(after.get('a-new#0'), before.get('a0#0'), 'the new face joins A');
    assert.equal(after.get('a-new#1'), null, 'the stranger is nobody');
    for (const [key, p] of before) assert.equal(after.get(key), p, `${key} keeps its person`);
  });
});
