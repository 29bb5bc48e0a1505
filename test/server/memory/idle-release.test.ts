/**
 * Memory that is given back when nothing uses it (issue 25): the uploads' spare staging blocks, the
 * snapshot worker (a thread with its own SQLite connection) and the places gazetteer go after 20 s without
 * use, and come back when work does. The 20 s are simulated with node:test's mock timers; the worker, the
 * files, the gazetteer and the catalog are real.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, mock, test } from 'node:test';
import { spareBlockCount, StagingSink } from '../../../server/src/features/intake/sink.ts';
import { GAZETTEER_IDLE_MS, ReverseGeocoder } from '../../../server/src/features/places/geocoder/reverse-geocoder.ts';
import { searchPlaceNames } from '../../../server/src/features/places/geocoder/place-search.ts';
import { SnapshotWorker } from '../../../server/src/platform/cache/snapshot-worker.ts';
import { openDatabase, type Db } from '../../../server/src/platform/db/connection.ts';
import { migrate } from '../../../server/src/platform/db/migrate.ts';

/** Lets the real asynchronous work (a worker's message, a file write) happen while setTimeout is mocked. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('memory given back when idle', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-idle-'));
  });
  afterEach(() => mock.timers.reset());
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("an upload's spare blocks are let go 20 s after the last one came back, not before", async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const write = async (name: string) => {
      const sink = await StagingSink.create(path.join(dir, name), { create: true, hash: false });
      sink.write(Buffer.alloc(3 * 1024 * 1024 + 5, 7));
      await sink.finish();
    };
    await write('a.bin');
    assert.ok(spareBlockCount() > 0, 'blocks are kept for the next chunk');
    mock.timers.tick(15_000);
    await write('b.bin'); // another upload within the 20 s: the clock starts again
    mock.timers.tick(15_000);
    assert.ok(spareBlockCount() > 0, 'still kept 15 s after the last use, though 30 s after the first');
    mock.timers.tick(5_000);
    assert.equal(spareBlockCount(), 0, 'gone 20 s after the last use');
    assert.equal(fs.statSync(path.join(dir, 'b.bin')).size, 3 * 1024 * 1024 + 5, 'the upload itself is whole');
  });

  describe('snapshot worker', () => {
    let db: Db;
    before(() => {
      db = openDatabase(path.join(dir, 'catalog.db'));
      migrate(db);
    });
    after(() => db.close());

    test('stops 20 s after its last read and starts again, with the same answer, at the next', async () => {
      mock.timers.enable({ apis: ['setTimeout'] });
      const worker = SnapshotWorker.for(db)!;
      try {
        const sql = 'SELECT value FROM json_each(:list) ORDER BY value';
        const first = await worker.column(sql, { list: '[3,1,2]' });
        assert.deepEqual([...first.values], [1, 2, 3]);
        assert.equal(worker.running, true);
        mock.timers.tick(19_999);
        await settle();
        assert.equal(worker.running, true, 'kept while a person may still be paging');
        mock.timers.tick(1);
        await settle();
        assert.equal(worker.running, false, 'its thread and SQLite connection are gone');
        const again = await worker.column(sql, { list: '[3,1,2]' });
        assert.deepEqual([...again.values], [1, 2, 3]);
        assert.equal(worker.running, true);
      } finally {
        worker.close();
      }
    });
  });

  test('the gazetteer is let go 20 s after its last use, not 20 s after its load, and comes back with the same answers', () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const geocoder = new ReverseGeocoder();
    const siena = geocoder.lookup(43.3188, 11.3308);
    assert.equal(siena?.city, 'Siena');
    assert.equal(geocoder.isLoaded, true);
    mock.timers.tick(GAZETTEER_IDLE_MS - 5000);
    assert.equal(searchPlaceNames(geocoder, 'Lisbon', 1)[0]?.country_code, 'PT', 'a place-name search is a use too');
    mock.timers.tick(GAZETTEER_IDLE_MS - 5000);
    assert.equal(geocoder.isLoaded, true, 'kept: used 15 s ago, though loaded 30 s ago');
    mock.timers.tick(5000);
    assert.equal(geocoder.isLoaded, false, 'let go 20 s after the last use');
    assert.deepEqual(geocoder.lookup(43.3188, 11.3308), siena, 'loaded again at the next lookup, with the same answer');
    assert.equal(geocoder.isLoaded, true);
    geocoder.release();
  });
});
