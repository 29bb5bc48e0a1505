/**
 * The Trash's retention period: a household-wide setting of the system settings (`trash.retention_days`,
 * administrators, default 30, 0 = keep; a negative or fractional value refused naming the field) and the
 * `assets.purge-expired-trash` job run by the real job runner, which deletes for good (file included)
 * what went to the Trash longer ago than that, and nothing else. Both response variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { purgeExpiredTrash } from '../../../server/src/features/assets/trash/trash.jobs.ts';
import { V1, data, problem } from '../helpers/api.ts';
import { trash, trashWorld, VARIANTS, type TrashWorld } from './world.ts';

const DAY = 86_400_000;

describe('Trash retention', () => {
  let w: TrashWorld;
  before(async () => {
    w = await trashWorld();
  });
  after(() => w.srv.stop({ removeData: true }));

  /** Says, through the real catalog file, that an asset went to the Trash `days` ago. */
  const trashedDaysAgo = (assetId: string, days: number) =>
    w.srv.container.db.prepare('UPDATE assets SET deleted_at = ? WHERE asset_id = ?').run(Date.now() - days * DAY, assetId);
  const runRetention = async () => {
    w.srv.container.jobs.enqueue(purgeExpiredTrash, {});
    await w.srv.container.jobRunner.whenIdle();
  };

  for (const variant of VARIANTS) {
    test(`the retention period is an administrator's setting, 0 or more days (variant ${variant})`, async () => {
      const alice = w.as('alice', variant);
      const bob = w.as('bob', variant);
      assert.equal(data(alice, await alice.get(`${V1}/settings/system`)).trash.retention_days, 30, 'default: 30 days');
      for (const bad of [-1, 1.5, 'ten']) {
        const p = problem(alice, await alice.patch(`${V1}/settings/system`, { trash: { retention_days: bad } }));
        assert.equal(p.status, 422);
        assert.deepEqual(p.errors?.map((e) => e.field), ['body.trash.retention_days'], `retention_days ${String(bad)}`);
      }
      assert.equal((await bob.patch(`${V1}/settings/system`, { trash: { retention_days: 1 } })).status, 403, 'members cannot change it');
      const set = await alice.patch(`${V1}/settings/system`, { trash: { retention_days: 7 } });
      assert.equal(set.status, 200, set.text);
      assert.equal(data(alice, set).trash.retention_days, 7);
      // Every member reads it on their Trash page.
      const id = await w.photo(`r${variant}/summary.jpg`, variant === 'A' ? 'exif/Canon_PowerShot_G9.jpg' : 'exif/Canon_DIGITAL_IXUS_400.jpg', 'bob');
      await trash(bob, id);
      trashedDaysAgo(id, 2);
      const s = data(bob, await bob.get(`${V1}/assets/trash`));
      assert.equal(s.retention_days, 7);
      assert.equal(s.count, 1);
      assert.equal(Date.parse(s.next_deletion_at) - Date.parse(s.oldest_deleted_at), 7 * DAY);
      assert.ok(Math.abs(Date.parse(s.next_deletion_at) - (Date.now() + 5 * DAY)) < 60_000, 'the oldest goes in 5 days');
      assert.equal((await alice.patch(`${V1}/settings/system`, { trash: { retention_days: 0 } })).status, 200);
      assert.equal(data(bob, await bob.get(`${V1}/assets/trash`)).next_deletion_at, null, '0 keeps items: no date');
      const r = await bob.post(`${V1}/assets/trash/empty`, { expected_count: 1 });
      assert.equal(r.status, 200, r.text);
      assert.equal((await alice.patch(`${V1}/settings/system`, { trash: { retention_days: 30 } })).status, 200, 'back to the default');
    });
  }

  test('the job deletes, for every member, what is in the Trash longer than the period, and nothing else', async () => {
    const alice = w.as('alice', 'A');
    const bob = w.as('bob', 'B');
    assert.equal((await alice.patch(`${V1}/settings/system`, { trash: { retention_days: 30 } })).status, 200);
    const oldAlice = await w.photo('ret/old-alice.jpg', 'exif/Fujifilm_FinePix6900ZOOM.jpg', 'alice');
    const recentAlice = await w.photo('ret/recent-alice.jpg', 'exif/Reconyx_HC500_trailcam.jpg', 'alice');
    const oldBob = await w.photo('ret/old-bob.jpg', 'exif/Samsung_Digimax_i50_MP3.jpg', 'bob');
    const liveOld = await w.photo('ret/in-library.jpg', 'exif/WWL_Polaroid_ION230.jpg', 'bob');
    await trash(alice, oldAlice);
    await trash(alice, recentAlice);
    await trash(bob, oldBob);
    trashedDaysAgo(oldAlice, 31);
    trashedDaysAgo(recentAlice, 29);
    trashedDaysAgo(oldBob, 400);
    w.srv.container.db.prepare('UPDATE assets SET upload_time = ? WHERE asset_id = ?').run(Date.now() - 400 * DAY, liveOld);

    await runRetention();
    assert.equal(w.row(oldAlice), undefined);
    assert.equal(w.row(oldBob), undefined);
    assert.equal(fs.existsSync(w.file('ret/old-alice.jpg')) || fs.existsSync(w.file('ret/old-bob.jpg')), false, 'their files left the folder');
    assert.equal(w.row(recentAlice)?.is_deleted, 1, 'trashed 29 days ago: still in the Trash');
    assert.ok(fs.existsSync(w.file('ret/recent-alice.jpg')));
    assert.equal(w.row(liveOld)?.is_deleted, 0, 'an old photo in the library is never touched');
    assert.deepEqual(
      w.deletedEvents.filter((e) => e.asset_id === oldAlice || e.asset_id === oldBob).map((e) => e.reason),
      ['retention', 'retention'],
    );
    const job = w.srv.container.db.prepare("SELECT state, result FROM jobs WHERE kind = 'assets.purge-expired-trash' ORDER BY id DESC LIMIT 1").get() as { state: string; result: string };
    assert.equal(job.state, 'completed');
    assert.deepEqual(JSON.parse(job.result), { retention_days: 30, deleted: 2, failed: 0 });
    assert.equal(data(bob, await bob.get(`${V1}/assets/trash`)).count, 0);

    // 0 keeps everything, however old.
    assert.equal((await alice.patch(`${V1}/settings/system`, { trash: { retention_days: 0 } })).status, 200);
    trashedDaysAgo(recentAlice, 3650);
    await runRetention();
    assert.equal(w.row(recentAlice)?.is_deleted, 1, 'kept: retention 0');
    assert.ok(fs.existsSync(w.file('ret/recent-alice.jpg')));
  });
});
