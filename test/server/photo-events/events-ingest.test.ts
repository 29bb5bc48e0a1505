/**
 * Photo events from real files: JPEGs made with sharp carrying EXIF capture times and GPS go through the
 * real ingest path and media pipeline; the catalog's triggers mark the owner's timeline dirty, the
 * asset events queue a debounced rebuild job, and asking for a rebuild runs it now. The trip is cut
 * where the rules say (two photos an hour apart in Lisbon, one in Porto the next day), with the capture
 * offset as the event's time zone. Both response variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { startServer, type Client, type TestServer } from '../helpers/server.ts';
import { V1, data, signedInHousehold } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { indexInto, settle, tempDir } from '../stacks/helpers.ts';

/** A JPEG with a capture time (local, +01:00) and a GPS position in its EXIF. */
async function photo(dir: string, name: string, local: string, gps: { lat: string; lon: string }, variant: number): Promise<string> {
  const out = path.join(dir, name);
  await sharp(path.join(CORPUS, 'exif/orientation_landscape_1.jpg'))
    .modulate({ brightness: 0.8 + 0.05 * variant })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R6' },
      IFD2: { DateTimeOriginal: local, OffsetTimeOriginal: '+01:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: gps.lat, GPSLongitudeRef: 'W', GPSLongitude: gps.lon },
    })
    .jpeg({ quality: 80 })
    .toFile(out);
  return out;
}
const LISBON = { lat: '38/1 43/1 2028/100', lon: '9/1 8/1 2148/100' };
const PORTO = { lat: '41/1 9/1 2844/100', lon: '8/1 37/1 4476/100' };

for (const variant of ['A', 'B'] as const) {
  describe(`photo events from ingested photos (variant ${variant})`, { timeout: 600_000 }, () => {
    let srv: TestServer;
    let alice: Client;
    let tmp: string;

    before(async () => {
      srv = await startServer();
      alice = (await signedInHousehold(srv.url, variant, [])).admin;
      tmp = tempDir();
    });
    after(async () => {
      await srv.stop({ removeData: true });
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    test('ingest marks the timeline, queues a debounced rebuild, and the trip splits where the rules say', async () => {
      const me = data(alice, await alice.get(`${V1}/auth/me`));
      const ownerId = (me.user_id ?? me.user?.user_id) as number;
      const files = [
        await photo(tmp, 'a.jpg', '2024:06:03 10:00:00', LISBON, 0),
        await photo(tmp, 'b.jpg', '2024:06:03 11:00:00', LISBON, 1),
        await photo(tmp, 'c.jpg', '2024:06:04 09:00:00', PORTO, 2),
      ];
      for (const [i, f] of files.entries()) await indexInto(srv, f, `trip/${i}.jpg`, ownerId);
      await settle(srv);

      let r = await alice.get(`${V1}/events/rebuild-state`);
      assert.equal(r.status, 200, r.text);
      const waiting = data(alice, r);
      assert.equal(waiting.pending, true);
      assert.ok(waiting.pending_ranges.length >= 1);
      assert.notEqual(waiting.queued_run_id, null, 'the asset events queued a (debounced) rebuild');

      r = await alice.patch(`${V1}/events/rebuild-state`, { rebuild: true });
      assert.equal(r.status, 200, r.text);
      await srv.container.jobRunner.whenIdle();
      r = await alice.get(`${V1}/events`);
      assert.equal(r.status, 200, r.text);
      const events = data(alice, r).events;
      assert.deepEqual(events.map((e: any) => e.canonical_media_count), [1, 2]);
      // Titled by the offline reverse geocoder (features/places) and the month: nothing left the machine.
      assert.deepEqual(events.map((e: any) => e.title), ['Porto · June 2024', 'Lisbon · June 2024']);
      assert.equal(events[1].timezone, '+01:00');
      assert.equal(events[1].start_at, Date.parse('2024-06-03T09:00:00Z'));
      assert.ok(Math.abs(events[1].centroid.lat - 38.7223) < 1e-3);
      const state = data(alice, await alice.get(`${V1}/events/rebuild-state`));
      assert.equal(state.pending, false);
      assert.equal(state.initialized, true);
      assert.ok(state.last_success_run_id);
    });
  });
}
