/**
 * Sidecars found through the name quirks of real Takeout exports: the `.supplemental-metadata` suffix and the cut
 * of the whole sidecar name at 51 characters, the older 46/47-character cut of the media name, the `(n)` index
 * in either place, `original_<uuid>_` names, edited copies in several languages. Each sidecar carries its own
 * capture time, so the time on an item says which sidecar was matched to it.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openTakeout, type TakeoutLibrary } from '../../../server/src/adapters/cloud/takeout/index.ts';
import type { RemoteItem } from '../../../server/src/adapters/cloud/provider.ts';
import { tempDir } from '../media/corpus.ts';
import { buildTakeout, collectListing, sidecar, type TakeoutFile } from '../helpers/takeout-archive.ts';

const Y = 'Photos from 2018';
/** A distinct capture time per case: day `n` of 2018. */
const taken = (n: number) => new Date(Date.UTC(2018, 0, n, 12)).toISOString();

/** The sidecar name of recent exports: `<media>.supplemental-metadata`, cut to 46 characters, then `.json`. */
const supplemental = (media: string) => `${`${media}.supplemental-metadata`.slice(0, 46)}.json`;

/** A name of exactly `length` characters ending in `.jpg`. */
const named = (stem: string, length: number) => `${stem}${'x'.repeat(length - stem.length - 4)}.jpg`;

interface Case {
  media: string;
  json: string | null;
  title?: string;
}

const UUID = '1b2c3d4e-aaaa-4bbb-8ccc-123456789abc';
const CASES: Case[] = [
  { media: 'IMG_0001.jpg', json: 'IMG_0001.jpg.supplemental-metadata.json' },
  { media: named('Supp_metad_', 27), json: supplemental(named('Supp_metad_', 27)) },
  { media: named('Supp_', 41), json: supplemental(named('Supp_', 41)) },
  { media: named('S_', 44), json: supplemental(named('S_', 44)) },
  { media: named('Dot_', 45), json: supplemental(named('Dot_', 45)) },
  { media: named('Into_media_', 50), json: supplemental(named('Into_media_', 50)) },
  { media: named('Old46_', 52), json: `${named('Old46_', 52).slice(0, 46)}.json` },
  { media: named('Old47_', 53), json: `${named('Old47_', 53).slice(0, 47)}.json` },
  { media: 'IMG_0002.jpg', json: 'IMG_0002.jpg.json' },
  { media: 'IMG_0002(1).jpg', json: 'IMG_0002.jpg(1).json', title: 'IMG_0002.jpg' },
  { media: 'IMG_0003(1).jpg', json: 'IMG_0003(1).jpg.json' },
  { media: 'IMG_0004(2).jpg', json: 'IMG_0004.jpg.supplemental-metadata(2).json', title: 'IMG_0004.jpg' },
  { media: `original_${UUID}_P1.jpg`, json: `original_${UUID}_P1.jpg.json`, title: 'P1.jpg' },
  { media: `original_${UUID}_P2.jpg`, json: null },
  { media: 'IMG_0005.jpg', json: 'IMG_0005.json' },
];

function files(): TakeoutFile[] {
  const out: TakeoutFile[] = [];
  CASES.forEach((c, i) => {
    out.push({ path: `${Y}/${c.media}`, corpus: 'exif/Canon_40D.jpg' });
    if (c.json) out.push({ path: `${Y}/${c.json}`, json: sidecar({ title: c.title ?? c.media, taken: taken(i + 1) }) });
  });
  // Edited copies in three languages share the original's sidecar (one of them a supplemental-metadata one).
  out.push(
    { path: `${Y}/IMG_0100.jpg`, corpus: 'duplicates/tanners_ridge.jpg' },
    { path: `${Y}/IMG_0100.jpg.json`, json: sidecar({ title: 'IMG_0100.jpg', taken: taken(100) }) },
    { path: `${Y}/IMG_0100-bearbeitet.jpg`, corpus: 'duplicates/tanners_ridge_edited.jpg' },
    { path: `${Y}/IMG_0101.jpg`, corpus: 'duplicates/tanners_ridge.jpg' },
    { path: `${Y}/IMG_0101.jpg.supplemental-metadata.json`, json: sidecar({ title: 'IMG_0101.jpg', taken: taken(101) }) },
    { path: `${Y}/IMG_0101-modifié.jpg`, corpus: 'duplicates/tanners_ridge_edited.jpg' },
    { path: `${Y}/IMG_0102.jpg`, corpus: 'duplicates/tanners_ridge.jpg' },
    { path: `${Y}/IMG_0102.jpg.json`, json: sidecar({ title: 'IMG_0102.jpg', taken: taken(102) }) },
    { path: `${Y}/IMG_0102-編集済み.jpg`, corpus: 'duplicates/tanners_ridge_edited.jpg' },
  );
  return out;
}

describe('Takeout sidecar names', () => {
  const dir = tempDir('takeout-names');
  let lib: TakeoutLibrary;
  let items: Map<string, RemoteItem>;
  const item = (media: string) => {
    const found = items.get(`${Y}/${media}`);
    assert.ok(found, `${media} listed`);
    return found;
  };

  before(async () => {
    const parts = await buildTakeout(path.join(dir, 'parts'), { format: 'zip', files: files() });
    lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
    const listing = await collectListing(lib);
    assert.deepEqual(listing.problems, []);
    items = new Map(listing.items.map((i) => [i.id, i]));
  });
  after(() => lib.close());

  it('builds the sidecar names the cases describe (the cut lands where each case says)', () => {
    assert.equal(CASES[1]!.json!.slice(-24), '.supplemental-metad.json');
    assert.equal(CASES[2]!.json!.slice(-10), '.supp.json');
    assert.equal(CASES[3]!.json!.slice(-11), '.jpg.s.json');
    assert.equal(CASES[4]!.json!.slice(-10), '.jpg..json');
    assert.equal(CASES[5]!.json!.length, 51);
    for (const c of CASES.slice(1, 8)) assert.ok(c.json!.length <= 52, c.json!);
  });

  for (const [i, c] of CASES.entries()) {
    it(`matches ${c.media} to ${c.json ?? 'no sidecar'}`, () => {
      const got = item(c.media);
      if (c.json) assert.equal(got.facts.capturedAt?.time, Date.parse(taken(i + 1)));
      else assert.equal(got.facts.capturedAt, undefined);
    });
  }

  it('never gives a numbered copy the sidecar of the file it was numbered against', () => {
    assert.notEqual(item('IMG_0002(1).jpg').facts.capturedAt?.time, item('IMG_0002.jpg').facts.capturedAt?.time);
  });

  it("names an item by its sidecar's title when it is a plausible name, else by the entry without original_<uuid>_", () => {
    assert.equal(item(`original_${UUID}_P1.jpg`).name, 'P1.jpg');
    assert.equal(item(`original_${UUID}_P2.jpg`).name, 'P2.jpg');
    assert.equal(item('IMG_0002(1).jpg').name, 'IMG_0002.jpg', 'the title Google showed, the (1) was the archive’s');
    assert.equal(item(CASES[5]!.media).name, CASES[5]!.media);
  });

  it('gives edited copies (English, German, French, Japanese suffixes) the original sidecar and editOf', () => {
    for (const [edited, original, day] of [
      ['IMG_0100-bearbeitet.jpg', 'IMG_0100.jpg', 100],
      ['IMG_0101-modifié.jpg', 'IMG_0101.jpg', 101],
      ['IMG_0102-編集済み.jpg', 'IMG_0102.jpg', 102],
    ] as const) {
      const got = item(edited);
      assert.equal(got.facts.editOf, `${Y}/${original}`, edited);
      assert.equal(got.facts.capturedAt?.time, Date.parse(taken(day)), edited);
      assert.equal(got.name, edited);
    }
  });

  it('counts only the file with no sidecar in the preview', () => {
    assert.deepEqual(lib.preview().without_sidecar, { count: 1, examples: [`${Y}/original_${UUID}_P2.jpg`] });
  });
});
