/**
 * Samsung/Google motion photos (a JPEG or HEIC with its clip appended and XMP saying where) are live photos:
 * one asset, a `live_photo` media item with live motion, and the clip playable through getAssetWebVideo.
 * Files: JPEGs built here in both XMP dialects (Motion Photo 1.0 Container:Directory, and MicroVideo), the
 * corpus' Samsung One UI 6 HEIC (HEVC clip in an `mpvd` box: served as its H.264 web copy), and negatives.
 * HEICs built here from corpus stills, the JPEG kind's twins: the XMP in a HEIF `mime` item and the clip
 * appended after the HEIF boxes (MicroVideo offset; Container:Directory) or in Samsung's `mpvd` box followed
 * by its `sefd` trailer; an iPhone HEIC whose first XMP item belongs to its HDR gain map, the motion XMP to
 * the photo; and Samsung's files that say it with no XMP at all (HEIC `mpvd` box, JPEG `SEFT` trailer).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { addFile, household, inVariant } from './fixture.ts';
import { bmffBox, heicWithXmpItem, makeClip, motionPhotoJpeg, motionPhotoXmp, samsungMpvdHeic, samsungTrailerJpeg, scratchDir, withXmp } from './made-media.ts';

interface Probe {
  format: { duration: string };
  streams: { codec_type: string; codec_name: string }[];
}
const probe = (file: string) =>
  JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]).toString()) as Probe;

describe('motion photos are live photos with playable motion', { timeout: 600_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const tmp = scratchDir();
  let clip: Buffer;
  const ids: Record<string, string> = {};
  /** Which dialect each motion photo speaks (`specific_metadata.motion_photo.dialect`). */
  const DIALECT: Record<string, string> = {
    'motion-photo.jpg': 'MotionPhoto',
    'micro-video.jpg': 'MicroVideo',
    'samsung-one-ui-6.heic': 'MotionPhoto',
    'heic-micro-video.heic': 'MicroVideo',
    'heic-directory.heic': 'MotionPhoto',
    'heic-mpvd-box.heic': 'MotionPhoto',
    'heic-gain-map-first.heic': 'MotionPhoto',
    'samsung-no-xmp.heic': 'Samsung',
    'samsung-trailer-no-xmp.jpg': 'Samsung',
  };
  const MOTION = Object.keys(DIALECT);
  /** The ones whose clip is ours (H.264/AAC): served exactly as embedded. */
  const MADE = MOTION.filter((n) => n !== 'samsung-one-ui-6.heic');
  const PLAIN = ['pixel_8_not_motion.jpg', 'claims-motion-without-video.jpg'];

  before(async () => {
    const h = await household();
    ({ srv, owner, other } = h);
    clip = makeClip(path.join(tmp, 'clip.mp4'), { seconds: 1.5 });
    const still = fs.readFileSync(path.join(CORPUS, 'exif/Canon_40D.jpg'));
    const heic = fs.readFileSync(path.join(CORPUS, 'heic/rotate_mirror_270.HEIC'));
    const sefd = bmffBox('sefd', Buffer.concat([Buffer.alloc(16), Buffer.from('SEFT', 'latin1')]));
    const files: Record<string, Buffer> = {
      'motion-photo.jpg': await motionPhotoJpeg('MotionPhoto', clip),
      'micro-video.jpg': await motionPhotoJpeg('MicroVideo', clip),
      'heic-micro-video.heic': heicWithXmpItem(heic, motionPhotoXmp('MicroVideo', clip.length), clip),
      'heic-directory.heic': heicWithXmpItem(heic, motionPhotoXmp('MotionPhoto', clip.length), clip, { describesPrimary: true }),
      // The Directory's length runs from the clip (the box's payload) to the end, trailer included, as Samsung writes it.
      'heic-mpvd-box.heic': heicWithXmpItem(heic, motionPhotoXmp('MotionPhoto', clip.length + sefd.length), Buffer.concat([bmffBox('mpvd', clip), sefd]), { describesPrimary: true }),
      'heic-gain-map-first.heic': heicWithXmpItem(fs.readFileSync(path.join(CORPUS, 'heic/iphone_13_pro_max.HEIC')), motionPhotoXmp('MotionPhoto', clip.length), clip, { describesPrimary: true }),
      'samsung-no-xmp.heic': samsungMpvdHeic(heic, clip),
      'samsung-trailer-no-xmp.jpg': samsungTrailerJpeg(still, clip),
      'samsung-one-ui-6.heic': fs.readFileSync(path.join(CORPUS, 'live/samsung-one-ui-6.heic')),
      'pixel_8_not_motion.jpg': fs.readFileSync(path.join(CORPUS, 'live/pixel_8_not_motion.jpg')),
      // The XMP says "motion photo", but nothing was appended: a plain photo.
      'claims-motion-without-video.jpg': withXmp(still, motionPhotoXmp('MotionPhoto', 4000)),
    };
    for (const [name, bytes] of Object.entries(files)) ids[name] = await addFile(srv, `phone/${name}`, h.ownerId, bytes);
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('one asset, a live_photo item whose still carries the motion (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      for (const name of MOTION) {
        const a = data(client, await client.get(`${V1}/assets/${ids[name]}`));
        assert.equal(a.state, 'ready', `${name}: ${a.last_error}`);
        assert.equal(a.type, 'PHOTO');
        assert.equal(a.specific_metadata.motion_photo.dialect, DIALECT[name], name);
        const item = data(client, await client.get(`${V1}/assets/${ids[name]}/media-item`)).media_item;
        assert.equal(item.media_kind, 'live_photo', name);
        assert.equal(item.primary_asset_id, ids[name]);
        assert.deepEqual(item.components, [{ asset_id: ids[name], position: 0, relation: 'live_photo_still' }], name);
      }
      for (const name of PLAIN) {
        const a = data(client, await client.get(`${V1}/assets/${ids[name]}`));
        assert.equal(a.state, 'ready', `${name}: ${a.last_error}`);
        assert.equal(a.specific_metadata.motion_photo, undefined, name);
        assert.equal(data(client, await client.get(`${V1}/assets/${ids[name]}/media-item`)).media_item.media_kind, 'photo', name);
      }
    }
  });

  test('the library lists them with live motion and finds them with the live_photo composition filter', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      const r = await client.post(`${V1}/assets/query`, { filter: { media_item: { composition: 'live_photo' } } });
      assert.equal(r.status, 200, r.text);
      const items = data(client, r).items as { media_item: { primary_asset: { asset_id: string }; composition: { has_live_motion: boolean; component_count: number } } }[];
      assert.deepEqual(items.map((i) => i.media_item.primary_asset.asset_id).sort(), MOTION.map((n) => ids[n]).sort());
      for (const i of items) assert.deepEqual([i.media_item.composition.has_live_motion, i.media_item.composition.component_count], [true, 1]);
    }
  });

  test('getAssetWebVideo plays the embedded clip; a plain photo has none; another member gets 404', async () => {
    for (const name of MADE) {
      const r = await owner.get(`${V1}/assets/${ids[name]}/video/web`);
      assert.equal(r.status, 200, name);
      assert.equal(r.headers.get('content-type'), 'video/mp4');
      const served = Buffer.from(await (await fetch(`${srv.url}${V1}/assets/${ids[name]}/video/web`, { headers: { authorization: `Bearer ${owner.token}` } })).arrayBuffer());
      assert.ok(served.equals(clip), `${name}: the clip as the camera appended it (H.264/AAC plays as is)`);
    }
    // Samsung's HEVC clip is served as its H.264 web copy, whole.
    const heic = Buffer.from(await (await fetch(`${srv.url}${V1}/assets/${ids['samsung-one-ui-6.heic']}/video/web`, { headers: { authorization: `Bearer ${owner.token}` } })).arrayBuffer());
    fs.writeFileSync(path.join(tmp, 'samsung.mp4'), heic);
    const p = probe(path.join(tmp, 'samsung.mp4'));
    assert.equal(p.streams.find((s) => s.codec_type === 'video')?.codec_name, 'h264');
    assert.ok(Number(p.format.duration) > 1, `duration ${p.format.duration}`);

    const plain = await owner.get(`${V1}/assets/${ids['pixel_8_not_motion.jpg']}/video/web`);
    assert.equal(plain.status, 404);
    assert.equal((await other.get(`${V1}/assets/${ids['motion-photo.jpg']}/video/web`)).status, 404);
  });
});
