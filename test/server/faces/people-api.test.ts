/**
 * People over HTTP with real photos and real models: listPeople, getPerson, updatePerson (rename confirms,
 * hide, cover), queryPersonAssets and the person filter of queryAssets (one person, two together),
 * getPersonCover (bearer and media token), getAsset's faces; corrections (rename, hide, cover, move a face,
 * "not this person", merge) all survive rebuildPeopleClusters; a second rebuild while one is queued is 409;
 * another member's people are 404; bad input is 4xx problem+json naming the field with nothing half-applied.
 * Both response variants where the answer is JSON.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, problem, registerAdmin } from '../helpers/api.ts';
import { copyCorpus, uploadFile } from '../uploads/helpers.ts';
import { SHARED_MODELS } from '../ml/models.ts';
import { rebuildPeople } from '../../../server/src/features/faces/index.ts';

const PHOTOS = ['faces/face_001.jpg', 'faces/face_002.jpg', 'faces/face_012.jpg', 'faces/face_007.jpg', 'faces/face_019.jpg', 'faces/face_020.jpg'];
const VARIANTS = ['A', 'B'] as const;

describe('people', { timeout: 300_000 }, () => {
  const src = copyCorpus(PHOTOS);
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  const ids = new Map<string, string>();
  const as = (variant: 'A' | 'B', who: Client = alice) => {
    const c = new Client(srv.url, variant);
    c.token = who.token;
    return c;
  };
  const faces = (rel: string) => srv.container.faces.facesOf(ids.get(rel)!);
  const personOf = (rel: string, i = 0) => faces(rel)[i]!.person_id!;
  let obama: number;
  let biden: number;
  let personA: number;
  let aliceId: number;

  before(async () => {
    srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
    alice = new Client(srv.url);
    aliceId = (await registerAdmin(alice)).session.user.user_id;
    bob = new Client(srv.url);
    await addMember(alice, bob, 'bob');
    await srv.container.indexing.indexers.settled();
    for (const rel of PHOTOS) {
      const up = await uploadFile(srv, alice.token!, src.file(rel));
      assert.equal(up.status, 200, up.text);
      ids.set(rel, up.body.asset_id as string);
    }
    await srv.container.jobRunner.whenIdle();
    obama = personOf('faces/face_001.jpg');
    biden = personOf('faces/face_007.jpg');
    personA = personOf('faces/face_019.jpg');
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    fs.rmSync(src.dir, { recursive: true, force: true });
  });

  test('listPeople and getPerson (both variants); another member sees none of them', async () => {
    assert.equal(new Set([obama, biden, personA]).size, 3);
    for (const v of VARIANTS) {
      const list = data(as(v), await as(v).get(`${V1}/people`));
      assert.equal(list.total, 3, v);
      assert.deepEqual(list.people.map((p: { person_id: number }) => p.person_id).sort(), [obama, biden, personA].sort());
      const o = data(as(v), await as(v).get(`${V1}/people/${obama}`));
      assert.equal(o.member_count, 3);
      assert.equal(o.asset_count, 3);
      assert.equal(o.is_confirmed, false);
      assert.equal(o.cover_face_image_path, `/api/v1/people/${obama}/cover`);
      assert.equal(data(as(v, bob), await as(v, bob).get(`${V1}/people`)).total, 0);
      const theirs = await as(v, bob).get(`${V1}/people/${obama}`);
      assert.equal(theirs.status, 404);
      assert.equal(problem(as(v, bob), theirs).code, 'person_not_found');
    }
  });

  test('photos of a person: queryPersonAssets, and queryAssets with person_id and person_ids (both variants)', async () => {
    const idsOf = (list: { items: { media_item: { primary_asset: { asset_id: string } } }[] }) => list.items.map((i) => i.media_item.primary_asset.asset_id).sort();
    const obamaPhotos = ['faces/face_001.jpg', 'faces/face_002.jpg', 'faces/face_012.jpg'].map((p) => ids.get(p)!).sort();
    for (const v of VARIANTS) {
      assert.deepEqual(idsOf(data(as(v), await as(v).post(`${V1}/people/${obama}/assets/query`, {}))), obamaPhotos, v);
      assert.deepEqual(idsOf(data(as(v), await as(v).post(`${V1}/assets/query`, { filter: { person_id: obama } }))), obamaPhotos, v);
      const both = data(as(v), await as(v).post(`${V1}/assets/query`, { filter: { person_ids: [obama, biden] } }));
      assert.deepEqual(idsOf(both), [ids.get('faces/face_012.jpg')!], 'only the photo with both');
      assert.equal((await as(v, bob).post(`${V1}/people/${obama}/assets/query`, {})).status, 404);
      assert.deepEqual(idsOf(data(as(v, bob), await as(v, bob).post(`${V1}/assets/query`, { filter: { person_id: obama } }))), [], 'another member’s person matches nothing');
    }
  });

  test('getAsset include_faces: boxes and persons (both variants)', async () => {
    for (const v of VARIANTS) {
      const d = data(as(v), await as(v).get(`${V1}/assets/${ids.get('faces/face_012.jpg')}?include_faces=true`));
      assert.equal(d.face_result.total_faces, 2);
      assert.deepEqual(d.face_result.faces.map((f: { person_id: number }) => f.person_id).sort(), [obama, biden].sort());
      for (const f of d.face_result.faces) assert.ok(f.bounding_box.width > 0 && f.bounding_box.x >= 0 && f.bounding_box.x + f.bounding_box.width <= 1);
      assert.equal(d.face_result.faces.filter((f: { is_primary: boolean }) => f.is_primary).length, 1);
    }
  });

  test('getPersonCover: a JPEG face crop by bearer and by media token; not for another member', async () => {
    // No photo opened yet: no medium thumbnail exists (they are made on first view).
    for (const id of ids.values()) fs.rmSync(srv.container.derivatives.thumbnail(id, 'medium'), { force: true });
    const r = await fetch(`${srv.url}${V1}/people/${obama}/cover`, { headers: { authorization: `Bearer ${alice.token}` } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/jpeg');
    const first = Buffer.from(await r.arrayBuffer());
    // Someone opens the photos: the cover is still the same picture (cut from the same source either way).
    for (const id of ids.values()) assert.equal((await alice.get(`${V1}/assets/${id}/thumbnail?size=medium`)).status, 200);
    const again = await fetch(`${srv.url}${V1}/people/${obama}/cover`, { headers: { authorization: `Bearer ${alice.token}` } });
    assert.ok(first.equals(Buffer.from(await again.arrayBuffer())), 'the cover does not depend on whether the photo was opened before');
    const meta = await sharp(first).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.ok(meta.width! <= 256 && meta.width! >= 64);
    const mt = data(alice, await alice.get(`${V1}/auth/media-token`)).token as string;
    assert.equal((await fetch(`${srv.url}${V1}/people/${obama}/cover?mt=${encodeURIComponent(mt)}`)).status, 200);
    const bobMt = data(bob, await bob.get(`${V1}/auth/media-token`)).token as string;
    assert.equal((await fetch(`${srv.url}${V1}/people/${obama}/cover?mt=${encodeURIComponent(bobMt)}`)).status, 404);
  });

  test('bad input: 4xx problem+json naming the field, nothing half-applied (both variants)', async () => {
    const bidenFace = faces('faces/face_007.jpg')[0]!.face_id;
    for (const v of VARIANTS) {
      const c = as(v);
      const cases: [Awaited<ReturnType<Client['get']>>, number, string][] = [
        [await c.patch(`${V1}/people/${obama}`, { name: 'Barack', cover_face_id: bidenFace }), 422, 'body.cover_face_id'],
        [await c.patch(`${V1}/people/${obama}`, { name: '' }), 422, 'body.name'],
        [await c.patch(`${V1}/people/${obama}`, { name: 'a\nb' }), 422, 'body.name'],
        [await c.patch(`${V1}/people/${obama}`, { nickname: 'x' }), 422, 'body'],
        [await c.post(`${V1}/people/${obama}/merge`, { person_ids: [biden, 999999] }), 422, 'body.person_ids.1'],
        [await c.post(`${V1}/faces/${bidenFace}/assign`, { person_id: 999999 }), 422, 'body.person_id'],
      ];
      for (const [r, status, field] of cases) {
        assert.equal(r.status, status, `${v} ${field}: ${r.text}`);
        const p = problem(c, r);
        assert.ok(JSON.stringify(p).includes(field), `${v}: names ${field}: ${JSON.stringify(p)}`);
      }
      assert.equal((await c.get(`${V1}/people/999999`)).status, 404);
      assert.equal((await c.patch(`${V1}/people/abc`, { name: 'x' })).status, 422);
      assert.equal((await as(v, bob).patch(`${V1}/people/${obama}`, { name: 'Mine' })).status, 404);
      assert.equal((await as(v, bob).post(`${V1}/faces/${bidenFace}/reject`)).status, 404);
      assert.equal((await as(v, bob).post(`${V1}/people/${biden}/merge`, { person_ids: [obama] })).status, 404);
    }
    const o = data(alice, await alice.get(`${V1}/people/${obama}`));
    assert.deepEqual({ name: o.name, confirmed: o.is_confirmed }, { name: null, confirmed: false }, 'no half-applied rename');
    assert.equal(personOf('faces/face_002.jpg'), obama, 'the merge with a bad id merged nothing');
    assert.equal(personOf('faces/face_007.jpg'), biden);
  });

  test('every correction survives rebuildPeopleClusters; a second rebuild while one is queued is 409', async () => {
    // Rename (confirms), hide, choose a cover, move a face to a new person, "not this person", then merge.
    const v = data(alice, await alice.patch(`${V1}/people/${obama}`, { name: 'Barack' }));
    assert.deepEqual({ name: v.name, confirmed: v.is_confirmed }, { name: 'Barack', confirmed: true });
    assert.equal(data(alice, await alice.patch(`${V1}/people/${personA}`, { is_hidden: true })).is_hidden, true);
    const pair = faces('faces/face_012.jpg');
    const obamaInPair = pair.find((f) => f.person_id === obama)!.face_id;
    assert.equal(data(alice, await alice.patch(`${V1}/people/${obama}`, { cover_face_id: obamaInPair })).cover_face_id, obamaInPair);
    const rejected = faces('faces/face_002.jpg')[0]!.face_id;
    assert.equal(data(alice, await alice.post(`${V1}/faces/${rejected}/reject`)).person_id, null);
    const moved = faces('faces/face_020.jpg')[0]!.face_id;
    const newcomer = data(alice, await alice.post(`${V1}/faces/${moved}/assign`, { person_id: null })).person_id as number;
    assert.ok(newcomer && newcomer !== personA);
    const bidenPortrait = faces('faces/face_007.jpg')[0]!.face_id;
    const loner = data(alice, await alice.post(`${V1}/faces/${bidenPortrait}/assign`, { person_id: null })).person_id as number;
    const merged = data(alice, await alice.post(`${V1}/people/${biden}/merge`, { person_ids: [loner] }));
    assert.equal(merged.member_count, 2);

    const snapshot = () => ({
      people: srv.container.db.prepare('SELECT person_id, name, hidden, confirmed, cover_face_id FROM people ORDER BY person_id').all(),
      faces: srv.container.db.prepare('SELECT face_id, person_id FROM faces ORDER BY face_id').all(),
    });
    const before = snapshot();
    const c = as('A');
    const first = await c.post(`${V1}/people/rebuild`);
    assert.equal(first.status, 202, first.text);
    assert.equal(data(c, first).status, 'queued');
    await srv.container.jobRunner.whenIdle();
    const job = srv.container.db.prepare("SELECT state FROM jobs WHERE kind = 'faces.rebuild-people' AND id = ?").get(Number(data(c, first).receipt_id)) as { state: string };
    assert.equal(job.state, 'completed');
    assert.deepEqual(snapshot(), before, 'names, hidden, covers, moved, rejected and merged faces all kept');
    const o = data(alice, await alice.get(`${V1}/people/${obama}`));
    assert.deepEqual({ name: o.name, cover: o.cover_face_id }, { name: 'Barack', cover: obamaInPair });
    assert.equal(personOf('faces/face_002.jpg'), null as never, 'the rejected face did not go back to Barack');
    assert.equal(personOf('faces/face_020.jpg'), newcomer);
    assert.equal(personOf('faces/face_007.jpg'), biden);
    const list = data(alice, await alice.get(`${V1}/people`));
    assert.ok(!list.people.some((p: { person_id: number }) => p.person_id === personA), 'hidden stays hidden');
    const all = data(alice, await alice.get(`${V1}/people?include_hidden=true`));
    assert.ok(all.people.some((p: { person_id: number; is_hidden: boolean }) => p.person_id === personA && p.is_hidden));

    // The search knows the names: "with Barack" is a removable person chip (both variants).
    for (const v of VARIANTS) {
      const r = data(as(v), await as(v).post(`${V1}/assets/search`, { query: 'with Barack', enhancement_mode: 'only' }));
      assert.deepEqual(r.parsed.filter, { person_ids: [obama] }, v);
      assert.deepEqual(r.parsed.chips.map((c: { kind: string; text: string }) => [c.kind, c.text]), [['person', 'with Barack']]);
    }

    // One waiting for its turn (scheduled, as a rebuild behind a busy queue is): a second request is refused.
    const waiting = srv.container.jobs.enqueue(rebuildPeople, { owner_id: aliceId }, { delayMs: 3_600_000, ownerId: aliceId }).job.id;
    for (const v of VARIANTS) {
      const again = await as(v).post(`${V1}/people/rebuild`);
      assert.equal(again.status, 409, v);
      assert.equal(problem(as(v), again).code, 'people_rebuild_running');
    }
    assert.equal((await as('A', bob).post(`${V1}/people/rebuild`)).status, 202, 'another member’s rebuild is theirs');
    srv.container.db.prepare('UPDATE jobs SET run_at = ? WHERE id = ?').run(Date.now(), waiting);
    srv.container.jobs.wake('maintenance');
    await srv.container.jobRunner.whenIdle();
    assert.deepEqual(snapshot(), before, 'and again');
  });

  test('getPeopleRebuild: a member follows their own rebuild until it is done; another member sees none (both variants)', async () => {
    await srv.container.jobRunner.whenIdle();
    for (const v of VARIANTS) assert.deepEqual(data(as(v), await as(v).get(`${V1}/people/rebuild`)), { running: false, receipt_id: null }, v);
    // Waiting for its turn, as a rebuild behind a busy queue does: it is under way for alice only.
    const waiting = srv.container.jobs.enqueue(rebuildPeople, { owner_id: aliceId }, { delayMs: 3_600_000, ownerId: aliceId }).job.id;
    for (const v of VARIANTS) {
      assert.deepEqual(data(as(v), await as(v).get(`${V1}/people/rebuild`)), { running: true, receipt_id: String(waiting) }, v);
      assert.deepEqual(data(as(v, bob), await as(v, bob).get(`${V1}/people/rebuild`)), { running: false, receipt_id: null }, `${v}: not bob's`);
    }
    srv.container.db.prepare('UPDATE jobs SET run_at = ? WHERE id = ?').run(Date.now(), waiting);
    srv.container.jobs.wake('maintenance');
    await srv.container.jobRunner.whenIdle();
    for (const v of VARIANTS) assert.deepEqual(data(as(v), await as(v).get(`${V1}/people/rebuild`)), { running: false, receipt_id: null }, `${v}: done`);
    assert.equal((await new Client(srv.url).get(`${V1}/people/rebuild`)).status, 401);
  });
});
