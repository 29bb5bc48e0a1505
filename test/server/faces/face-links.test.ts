/**
 * Faces as other features see them (features/faces/face-links.ts), with real photos, real models and real
 * HTTP: merging a group of exact copies with `policy.faces` gives the keeper the person a member chose on a
 * copy (the keeper's face in the same place takes it, as a member's choice that rebuilds keep); a merge
 * without it leaves the keeper's faces alone; and a photo event's relations list the people in its photos
 * (`contains_person`, `complete: true`), never a hidden person.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { indexInto, settle } from '../stacks/helpers.ts';
import { SHARED_MODELS } from '../ml/models.ts';

describe('faces seen by duplicates and events', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let repo: string;
  const ids: Record<string, string> = {};
  const faceOf = (name: string) => srv.container.faces.facesOf(ids[name]!)[0]!;
  const groupOf = async (name: string) => {
    const groups = data(alice, await alice.get(`${V1}/duplicates/groups?repository_id=${repo}`)).groups as any[];
    return groups.find((g) => g.assets.some((a: any) => a.asset.asset_id === ids[name]));
  };
  /** A member says this photo's face is someone new; answers the new person's id. */
  const newPersonFor = async (name: string, called: string) => {
    const moved = data(alice, await alice.post(`${V1}/faces/${faceOf(name).face_id}/assign`, { person_id: null }));
    assert.equal((await alice.patch(`${V1}/people/${moved.person_id}`, { name: called })).status, 200);
    return moved.person_id as number;
  };

  before(async () => {
    srv = await startServer({ env: { HEARTH_MODELS_DIR: SHARED_MODELS } });
    alice = new Client(srv.url);
    const aliceId = (await registerAdmin(alice)).session.user.user_id as number;
    await srv.container.indexing.indexers.settled();
    repo = srv.container.repositories.primary()!.repository_id;
    // Two photos of one man, each kept twice (exact copies in two folders).
    ids.a1 = await indexInto(srv, 'faces/face_001.jpg', 'trip/obama.jpg', aliceId);
    ids.a2 = await indexInto(srv, 'faces/face_001.jpg', 'backup/obama.jpg', aliceId);
    ids.b1 = await indexInto(srv, 'faces/face_002.jpg', 'trip/obama2.jpg', aliceId);
    ids.b2 = await indexInto(srv, 'faces/face_002.jpg', 'backup/obama2.jpg', aliceId);
    await settle(srv);
    assert.equal((await alice.post(`${V1}/duplicates/detect`, { repository_id: repo })).status, 200);
  });
  after(async () => {
    await srv?.stop({ removeData: true });
  });

  test("merging exact copies with policy.faces gives the keeper the person a member chose on a copy; without it, nothing moves", async () => {
    const auto = faceOf('a1').person_id;
    assert.ok(auto, 'the photos were clustered into one person');
    assert.equal(faceOf('b1').person_id, auto);
    const barack = await newPersonFor('a2', 'Barack');
    const other = await newPersonFor('b2', 'Someone else');

    const a = await groupOf('a1');
    assert.equal(a?.method, 'exact', JSON.stringify(a));
    let r = await alice.post(`${V1}/duplicates/groups/${a.group_id}/merge`, { keeper_asset_id: ids.a1, policy: { faces: true } });
    assert.equal(r.status, 200, r.text);
    assert.equal(faceOf('a1').person_id, barack, 'the keeper shows the person the member chose on the copy');
    assert.equal(faceOf('a1').assigned_by, 'user', "as a member's choice");

    const b = await groupOf('b1');
    r = await alice.post(`${V1}/duplicates/groups/${b.group_id}/merge`, { keeper_asset_id: ids.b1 });
    assert.equal(r.status, 200, r.text);
    assert.equal(faceOf('b1').person_id, auto, 'faces are not part of the default policy');
    assert.notEqual(faceOf('b1').person_id, other);

    assert.equal((await alice.post(`${V1}/people/rebuild`, {})).status, 202);
    await srv.container.jobRunner.whenIdle();
    assert.equal(faceOf('a1').person_id, barack, 'a rebuild keeps it');
  });

  test("an event's relations list the people in its photos, and not a hidden one", async () => {
    const barack = faceOf('a1').person_id!;
    assert.equal((await alice.patch(`${V1}/events/rebuild-state`, { rebuild: true })).status, 200);
    await srv.container.jobRunner.whenIdle();
    const events = data(alice, await alice.get(`${V1}/events?include_hidden=true`)).events as any[];
    let withBarack: string | null = null;
    for (const e of events) {
      const rel = data(alice, await alice.get(`${V1}/events/${e.event_id}/relations`));
      assert.equal(rel.complete, true, 'people are wired in');
      const people = rel.relations.filter((x: any) => x.relation === 'contains_person');
      for (const p of people) assert.equal(p.origin, 'face_assignment');
      if (people.some((p: any) => String(p.to.id) === String(barack))) withBarack = e.event_id;
    }
    assert.ok(withBarack, 'the event of the kept photo says Barack is in it');
    assert.equal((await alice.patch(`${V1}/people/${barack}`, { is_hidden: true })).status, 200);
    const rel = data(alice, await alice.get(`${V1}/events/${withBarack}/relations`));
    assert.ok(!rel.relations.some((x: any) => x.relation === 'contains_person' && String(x.to.id) === String(barack)), 'a hidden person is not offered');
  });
});
