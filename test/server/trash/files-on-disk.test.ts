/**
 * What deleting for good does to the household's folder: RAW+JPEG pairs (the tile's trashed components
 * go together, a component still in the library stays and stands for its item), the watcher and a scan
 * never bring a deleted file back, and a file that cannot be removed (read-only folder, offline folder)
 * keeps its catalog row in the Trash and is reported per item with a stable code.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { V1, data } from '../helpers/api.ts';
import { deletePermanently, makeReadOnly, outcome, trash, trashWorld, type TrashWorld } from './world.ts';

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('deleting for good, on disk', () => {
  let w: TrashWorld;
  before(async () => {
    w = await trashWorld();
  });
  after(() => w.srv.stop({ removeData: true }));

  const item = (mediaItemId: string) =>
    w.srv.container.db.prepare('SELECT primary_asset_id FROM media_items WHERE media_item_id = ?').get(mediaItemId) as { primary_asset_id: string } | undefined;

  test('a RAW+JPEG pair: the trashed JPEG goes alone while the RAW stays in the library; both go when both are in the Trash', async () => {
    const alice = w.as('alice', 'A');
    const jpeg = await w.photo('pair/RAW_NIKON_D1.JPG', 'raw/RAW_NIKON_D1.JPG', 'alice');
    const raw = await w.photo('pair/RAW_NIKON_D1.NEF', 'raw/RAW_NIKON_D1.NEF', 'alice');
    const itemId = w.row(jpeg)!.media_item_id!;
    assert.equal(w.row(raw)!.media_item_id, itemId, 'the pipeline paired them');
    assert.equal(item(itemId)!.primary_asset_id, jpeg);

    await trash(alice, jpeg);
    assert.deepEqual(outcome(alice, await deletePermanently(alice, [jpeg])), { deleted: [jpeg], failed: [] });
    assert.equal(fs.existsSync(w.file('pair/RAW_NIKON_D1.JPG')), false);
    assert.ok(fs.existsSync(w.file('pair/RAW_NIKON_D1.NEF')), 'the RAW, still in the library, is untouched');
    assert.equal(w.row(raw)!.is_deleted, 0);
    assert.equal(item(itemId)!.primary_asset_id, raw, 'the RAW now stands for the item');
    const detail = data(alice, await alice.get(`${V1}/assets/${raw}/media-item`));
    assert.deepEqual(detail.media_item.components.map((c: { asset_id: string }) => c.asset_id), [raw]);

    // Both in the Trash (one tile): deleting the tile's photo deletes its trashed partner too.
    const jpeg2 = await w.photo('pair2/RAW_NIKON_D1.JPG', 'raw/RAW_NIKON_D1.JPG', 'bob');
    const raw2 = await w.photo('pair2/RAW_NIKON_D1.NEF', 'raw/RAW_NIKON_D1.NEF', 'bob');
    const item2 = w.row(jpeg2)!.media_item_id!;
    const bob = w.as('bob', 'B');
    await trash(bob, jpeg2);
    await trash(bob, raw2);
    assert.deepEqual(outcome(bob, await deletePermanently(bob, [jpeg2])).deleted.sort(), [jpeg2, raw2].sort());
    assert.equal(fs.existsSync(w.file('pair2/RAW_NIKON_D1.JPG')) || fs.existsSync(w.file('pair2/RAW_NIKON_D1.NEF')), false);
    assert.equal(item(item2), undefined, 'the empty media item is gone');
    assert.deepEqual(w.deletedEvents.filter((e) => e.asset_id === raw2).map((e) => e.reason), ['user']);
  });

  test('neither the watcher nor a scan brings a deleted file back', async () => {
    const alice = w.as('alice', 'A');
    const repo = w.srv.container.repositories.primary()!;
    assert.ok(w.srv.container.repositories.isWatching(repo.repository_id), 'the repository is watched');
    const id = await w.photo('watched/kept-away.jpg', 'exif/Olympus_C8080WZ.jpg', 'alice');
    await trash(alice, id);
    outcome(alice, await deletePermanently(alice, [id]));
    // Let the watcher report the removal, then scan the folder.
    await new Promise((r) => setTimeout(r, 1500));
    const scan = await alice.post(`${V1}/repositories/${repo.repository_id}/scans`, {});
    assert.ok(scan.status === 202 || scan.status === 200, scan.text);
    await w.srv.container.repositories.whenSettled(repo.repository_id);
    await w.srv.container.jobRunner.whenIdle();
    const rows = w.srv.container.db.prepare("SELECT count(*) FROM assets WHERE storage_path = 'watched/kept-away.jpg'").pluck().get();
    assert.equal(rows, 0, 'no row came back for the deleted path');
    assert.equal(w.row(id), undefined);
  });

  test('a read-only folder: the file stays, so does its row in the Trash, reported as file_not_deleted', async () => {
    const alice = w.as('alice', 'B');
    const id = await w.photo('locked/stays.jpg', 'exif/Konica_Minolta_DiMAGE_Z3.jpg', 'alice');
    const other = await w.photo('open/goes.jpg', 'exif/Nikon_COOLPIX_P1.jpg', 'alice');
    await trash(alice, id);
    await trash(alice, other);
    const undo = makeReadOnly(path.dirname(w.file('locked/stays.jpg')));
    let r;
    try {
      r = outcome(alice, await deletePermanently(alice, [id, other]));
    } finally {
      undo();
    }
    assert.deepEqual(r.deleted, [other], 'the other item went');
    assert.deepEqual(r.failed.map((f) => [f.asset_id, f.code, f.original_filename]), [[id, 'file_not_deleted', 'stays.jpg']]);
    assert.ok(fs.existsSync(w.file('locked/stays.jpg')));
    assert.equal(w.row(id)?.is_deleted, 1, 'its row stays in the Trash');
    assert.equal(w.deletedEvents.some((e) => e.asset_id === id), false, 'no asset.deleted for it');
    // Once the folder is writable again, the same request finishes the job.
    assert.deepEqual(outcome(alice, await deletePermanently(alice, [id])).deleted, [id]);
    assert.equal(fs.existsSync(w.file('locked/stays.jpg')), false);
  });

  test('an item being processed right now waits (asset_processing): its run would write derivatives again', async () => {
    const alice = w.as('alice', 'A');
    const id = await w.photo('busy/processing.jpg', 'exif/Canon_SD1100_picasa_tags.jpg', 'alice');
    await trash(alice, id);
    // As while its pipeline run is under way (the job runner sets it; here through the real catalog file).
    w.srv.container.db.prepare("UPDATE assets SET state = 'processing' WHERE asset_id = ?").run(id);
    const r = outcome(alice, await deletePermanently(alice, [id]));
    assert.deepEqual(r.failed.map((f) => [f.asset_id, f.code]), [[id, 'asset_processing']]);
    assert.ok(fs.existsSync(w.file('busy/processing.jpg')));
    assert.equal(w.row(id)?.is_deleted, 1);
    w.srv.container.db.prepare("UPDATE assets SET state = 'ready' WHERE asset_id = ?").run(id);
    assert.deepEqual(outcome(alice, await deletePermanently(alice, [id])).deleted, [id]);
  });

  test('an offline folder: nothing leaves the catalog, each item reported as repository_unavailable', async () => {
    const bob = w.as('bob', 'A');
    const id = await w.photo('away/on-usb.jpg', 'exif/Olympus_E-P3.jpg', 'bob');
    await trash(bob, id);
    const repo = w.srv.container.repositories.primary()!;
    const aside = `${repo.path}.unplugged`;
    fs.renameSync(repo.path, aside);
    let r;
    try {
      r = outcome(bob, await bob.post(`${V1}/assets/trash/empty`, { expected_count: 1 }));
    } finally {
      fs.renameSync(aside, repo.path);
      w.srv.container.repositories.checkReachability(repo.repository_id);
    }
    assert.deepEqual(r.deleted, []);
    assert.deepEqual(r.failed.map((f) => [f.asset_id, f.code]), [[id, 'repository_unavailable']]);
    assert.equal(w.row(id)?.is_deleted, 1, 'the row of a file on an unplugged disk is kept');
    assert.ok(fs.existsSync(w.file('away/on-usb.jpg')));
    await until(() => w.srv.container.repositories.checkReachability(repo.repository_id)?.status === 'active', 'the folder back');
    assert.deepEqual(outcome(bob, await deletePermanently(bob, [id])).deleted, [id]);
  });
});
