/**
 * A RAW and the JPEG the camera wrote beside it form one media item: same folder, same name before the
 * extension, any letter case (IMG_0042.JPG with img_0042.dng). Not a file of another folder, not a longer name
 * (IMG_00421), not a name that only starts the same way up to a dot (IMG_0042.edit.jpg is its own photo's name
 * "IMG_0042.edit"). Through the real ingest and pipeline; and the partner lookup reads the few paths of that name,
 * not the whole folder (a 5,000-photo camera folder read 5,000 rows per photo processed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PARTNER_CANDIDATES } from '../../../server/src/features/assets/pipeline/media-items.ts';
import type { TestServer } from '../helpers/server.ts';
import { addFile, household } from './fixture.ts';

const JPEG = 'exif/Canon_40D.jpg';
const RAW = 'raw/exiftool_DNG.dng';

describe('RAW + JPEG pairs', { timeout: 120_000 }, () => {
  let srv: TestServer;
  const ids: Record<string, string> = {};

  before(async () => {
    const h = await household();
    srv = h.srv;
    const files: Record<string, string> = {
      'Camera/IMG_0042.JPG': JPEG,
      'Camera/img_0042.dng': RAW,
      'Camera/IMG_00421.JPG': JPEG,
      'Camera/IMG_0042.edit.jpg': JPEG,
      'Elsewhere/IMG_0042.dng': RAW,
    };
    for (const [rel, from] of Object.entries(files)) ids[rel] = await addFile(srv, rel, h.ownerId, from);
    await srv.container.jobRunner.whenIdle();
  });

  after(async () => {
    await srv?.stop({ removeData: true });
  });

  const itemOf = (rel: string) =>
    srv.container.db
      .prepare('SELECT c.media_item_id AS item, c.relation FROM media_item_components c WHERE c.asset_id = ?')
      .get(ids[rel]) as { item: string; relation: string } | undefined;

  test('the JPEG and the RAW of one name in one folder are one item, whatever the letter case', () => {
    const jpeg = itemOf('Camera/IMG_0042.JPG');
    const raw = itemOf('Camera/img_0042.dng');
    assert.ok(jpeg && raw, 'both are linked');
    assert.equal(jpeg.item, raw.item);
    assert.equal(jpeg.relation, 'jpeg_original');
    assert.equal(raw.relation, 'raw_original');
  });

  test('another folder, a longer name and a name with a dot in it stay apart', () => {
    const pair = itemOf('Camera/IMG_0042.JPG')!.item;
    for (const rel of ['Elsewhere/IMG_0042.dng', 'Camera/IMG_00421.JPG', 'Camera/IMG_0042.edit.jpg']) {
      const own = itemOf(rel);
      assert.ok(own, `${rel} is linked`);
      assert.notEqual(own.item, pair, `${rel} is not in the pair's item`);
      assert.equal(own.relation, 'original', rel);
    }
  });

  test('the partner lookup is one range of the folded path index, not a read of the folder', () => {
    const plan = (srv.container.db.prepare(`EXPLAIN QUERY PLAN ${PARTNER_CANDIDATES}`).all('r', 'a.', 'a/', '', 1, 'x') as { detail: string }[]).map((r) => r.detail).join('\n');
    assert.match(plan, /SEARCH assets USING INDEX assets_repo_path_folded \(repository_id=\? AND <expr>>\? AND <expr><\?\)/, plan);
  });
});
