/**
 * Google Takeout as a RemoteLibrary: every sidecar field lands on its item, year-folder and album copies are one
 * item with its albums, edited copies and live photos point at their originals, files without a sidecar are kept
 * and counted, the preview is exact, and download() writes the corpus file's very bytes. Archives are built from
 * corpus files with sidecars in Takeout's real format (test/server/helpers/takeout-archive.ts).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { before, after, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { openTakeout, type TakeoutLibrary } from '../../../server/src/adapters/cloud/takeout/index.ts';
import type { RemoteItem } from '../../../server/src/adapters/cloud/provider.ts';
import { tempDir } from '../media/corpus.ts';
import {
  buildTakeout,
  collectListing,
  corpusFile,
  familyTakeout,
  FAMILY_ITEMS,
  sidecar,
  type Listing,
} from '../helpers/takeout-archive.ts';

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const at = (iso: string) => ({ time: Date.parse(iso), offsetMinutes: null });

describe('Takeout library from a zip archive', () => {
  const dir = tempDir('takeout');
  let lib: TakeoutLibrary;
  let listing: Listing;
  const item = (id: string): RemoteItem => {
    const found = listing.items.find((i) => i.id === id);
    assert.ok(found, `item ${id} listed`);
    return found;
  };

  before(async () => {
    const parts = await buildTakeout(path.join(dir, 'parts'), { format: 'zip', files: familyTakeout() });
    lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
    listing = await collectListing(lib);
  });
  after(() => lib.close());

  it('lists one item per distinct media file, ids under the Photos root', () => {
    assert.deepEqual(listing.items.map((i) => i.id).sort(), Object.keys(FAMILY_ITEMS).sort());
  });

  it('puts every sidecar field on the item: time, place, description, favourite, archived, trashed, people', () => {
    const canon = item('Photos from 2019/Canon_40D.jpg');
    const bytes = fs.readFileSync(corpusFile('exif/Canon_40D.jpg'));
    assert.equal(canon.name, 'Canon_40D.jpg');
    assert.deepEqual(canon.folder, ['Photos from 2019']);
    assert.equal(canon.size, bytes.length);
    assert.equal(canon.version, `${bytes.length}:${zlib.crc32(bytes).toString(16).padStart(8, '0')}`);
    assert.deepEqual(canon.facts, {
      capturedAt: at('2019-06-01T12:00:00Z'),
      // geoData (where the person placed it) wins over geoDataExif.
      gps: { latitude: 48.8584, longitude: 2.2945 },
      description: 'Under the tower',
      favorite: true,
      archived: false,
      trashed: false,
      people: ['Anna', 'Ben'],
      albumNames: ['Summer trip'],
      fileModified: null,
    });
    const bee = item('Photos from 2020/bee.jpg');
    assert.deepEqual(
      { favorite: bee.facts.favorite, archived: bee.facts.archived, trashed: bee.facts.trashed, capturedAt: bee.facts.capturedAt },
      { favorite: false, archived: true, trashed: true, capturedAt: at('2020-05-05T05:05:05Z') },
    );
    assert.equal(bee.facts.gps, undefined, '0,0 in both geo fields is no place');
    assert.equal(bee.facts.people, undefined);
  });

  it('falls back to geoDataExif, then to the album location, for the place', () => {
    assert.deepEqual(item('Photos from 2019/Nikon_D70.jpg').facts.gps, { latitude: 51.5, longitude: -0.12 });
    assert.deepEqual(item('Photos from 2019/Pentax_K10D.jpg').facts.gps, { latitude: 43.7, longitude: 7.26 });
  });

  it('makes album folders albums: titled, untitled, named like a year but titled; year folders are not albums', () => {
    assert.deepEqual(item('Photos from 2019/Pentax_K10D.jpg').facts.albumNames, ['Summer trip']);
    assert.deepEqual(item('Photos from 2019/Nikon_D70.jpg').facts.albumNames, ['Best of 2019']);
    const drawing = item("Kids' drawings/door-knocker.jpg");
    assert.deepEqual(drawing.facts.albumNames, ["Kids' drawings"]);
    assert.deepEqual(drawing.folder, ["Kids' drawings"]);
    assert.equal(item('Fotos von 2021/jolla.jpg').facts.albumNames, undefined, 'a translated year folder is not an album');
    assert.equal(item('Photos from 2020/sample.3gp').facts.albumNames, undefined);
  });

  it('stacks an edited copy on its original and a live-photo video on its still, sharing their sidecars', () => {
    const edited = item('Photos from 2019/tanners_ridge-edited.jpg');
    assert.equal(edited.facts.editOf, 'Photos from 2019/tanners_ridge.jpg');
    assert.deepEqual(edited.facts.capturedAt, at('2019-09-09T17:45:00Z'));
    assert.equal(edited.name, 'tanners_ridge-edited.jpg', "the original's title does not rename the edited copy");
    const video = item('Photos from 2020/IMG_7943.MOV');
    assert.equal(video.facts.companionOf, 'Photos from 2020/IMG_7943.HEIC');
    assert.deepEqual(video.facts.capturedAt, at('2020-10-10T10:10:10Z'));
    assert.equal(item('Photos from 2020/IMG_7943.HEIC').facts.companionOf, undefined);
  });

  it('keeps a file without sidecar as an item with its own metadata', () => {
    const plain = item('Photos from 2020/no_exif.jpg');
    assert.deepEqual(plain.facts, { fileModified: null });
    assert.equal(plain.name, 'no_exif.jpg');
  });

  it('reports a file a person would miss, not the export bookkeeping', () => {
    assert.deepEqual(
      listing.problems.map((p) => [p.where, p.reason]),
      [['Takeout/Google Photos/Photos from 2019/notes.txt', 'not a photo or video (.txt): not imported']],
    );
  });

  it('previews exact counts, albums, date range, files without sidecar and parts', () => {
    const preview = lib.preview();
    const parts = fs.readdirSync(path.join(dir, 'parts'));
    assert.deepEqual(preview, {
      photos: 10,
      videos: 2,
      albums: [
        { name: 'Best of 2019', count: 1 },
        { name: "Kids' drawings", count: 1 },
        { name: 'Summer trip', count: 2 },
      ],
      date_range: { from: '2019-03-02T09:00:00.000Z', to: '2021-02-03T04:05:06.000Z' },
      without_sidecar: { count: 1, examples: ['Photos from 2020/no_exif.jpg'] },
      problems: listing.problems.map(({ where, reason }) => ({ where, reason })),
      parts: [{ name: parts[0], size: fs.statSync(path.join(dir, 'parts', parts[0]!)).size, entries: familyTakeout().length }],
    });
  });

  it('downloads the exact bytes of every item, reporting progress', async () => {
    for (const listed of listing.items) {
      const dest = path.join(dir, 'dest', `${listed.id.replaceAll('/', '_')}`);
      let progress = 0;
      await lib.download(listed, dest, { offset: 0, signal: new AbortController().signal, onProgress: (b) => (progress = b) });
      assert.equal(sha256(dest), sha256(corpusFile(FAMILY_ITEMS[listed.id]!)), listed.id);
      assert.equal(progress, listed.size);
    }
  });

  it('refuses to download an item it does not hold', async () => {
    const forged = { ...item('Photos from 2020/bee.jpg'), id: '../../etc/passwd' };
    await assert.rejects(
      lib.download(forged, path.join(dir, 'dest', 'forged'), { offset: 0, signal: new AbortController().signal }),
      (e: Error & { code?: string }) => e.code === 'not_found',
    );
    assert.equal(fs.existsSync(path.join(dir, 'dest', 'forged')), false);
  });
});

describe('Takeout sidecars that cannot be believed', () => {
  it('reports broken JSON and impossible dates, and still lists every photo with the facts it can', async () => {
    const dir = tempDir('takeout-bad');
    const y = 'Photos from 2019';
    const parts = await buildTakeout(path.join(dir, 'parts'), {
      format: 'zip',
      files: [
        { path: `${y}/a.jpg`, corpus: 'exif/Canon_40D.jpg' },
        { path: `${y}/a.jpg.json`, bytes: Buffer.from('{"title": "a.jpg", "photoTakenTime": {"timestamp": "15') },
        { path: `${y}/b.jpg`, corpus: 'exif/Nikon_D70.jpg' },
        { path: `${y}/b.jpg.json`, json: sidecar({ title: 'b.jpg', takenRaw: '-5000000000', description: 'too old' }) },
        { path: `${y}/c.jpg`, corpus: 'exif/Pentax_K10D.jpg' },
        { path: `${y}/c.jpg.json`, json: sidecar({ title: 'c.jpg', takenRaw: String(Math.floor(Date.now() / 1000) + 3 * 86400) }) },
        { path: `${y}/d.jpg`, corpus: 'exif/Olympus_C8080WZ.jpg' },
        { path: `${y}/d.jpg.json`, json: sidecar({ title: 'd.jpg', takenRaw: 'soon' }) },
      ],
    });
    const lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
    try {
      const { items, problems } = await collectListing(lib);
      assert.deepEqual(items.map((i) => i.id), ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'].map((n) => `${y}/${n}`));
      for (const i of items) assert.equal(i.facts.capturedAt, undefined, `${i.id} has no believed time`);
      assert.equal(items[1]!.facts.description, 'too old', 'the rest of a sidecar with an impossible date still lands');
      const root = `Takeout/Google Photos/${y}`;
      assert.deepEqual(problems.map((p) => p.where).sort(), [`${root}/a.jpg.json`, `${root}/b.jpg`, `${root}/c.jpg`, `${root}/d.jpg`]);
      assert.match(problems.find((p) => p.where.endsWith('a.jpg.json'))!.reason, /not valid JSON/);
      assert.match(problems.find((p) => p.where.endsWith('b.jpg'))!.reason, /1811-.*before photography/);
      assert.match(problems.find((p) => p.where.endsWith('c.jpg'))!.reason, /in the future/);
      assert.match(problems.find((p) => p.where.endsWith('d.jpg'))!.reason, /"soon" is not a time/);
      // a.jpg's sidecar was unreadable: it is a file with its own metadata, like one without a sidecar.
      assert.equal(lib.preview().date_range, null);
      assert.deepEqual(lib.preview().without_sidecar, { count: 1, examples: [`${y}/a.jpg`] });
    } finally {
      await lib.close();
    }
  });
});

describe('Takeout Photos root', () => {
  it('finds the Photos folder under a translated name, beside another product, and reports media outside it', async () => {
    const dir = tempDir('takeout-root');
    const parts = await buildTakeout(path.join(dir, 'parts'), {
      format: 'zip',
      root: 'Takeout/Google Fotos',
      files: [
        { path: 'Fotos von 2019/Canon_40D.jpg', corpus: 'exif/Canon_40D.jpg' },
        { path: 'Fotos von 2019/Canon_40D.jpg.json', json: sidecar({ title: 'Canon_40D.jpg', taken: '2019-06-01T12:00:00Z' }) },
        { path: 'Fotos von 2020/bee.jpg', corpus: 'duplicates/bee.jpg' },
        { path: 'Takeout/Drive/Scans/receipt.jpg', corpus: 'exif/Nikon_D70.jpg', atTop: true },
      ],
    });
    const lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
    try {
      const { items, problems } = await collectListing(lib);
      assert.deepEqual(items.map((i) => [i.id, i.facts.albumNames]), [
        ['Fotos von 2019/Canon_40D.jpg', undefined],
        ['Fotos von 2020/bee.jpg', undefined],
      ]);
      assert.deepEqual(items[0]!.facts.capturedAt, at('2019-06-01T12:00:00Z'));
      assert.deepEqual(problems, [
        { problem: true, where: 'Takeout/Drive/Scans/receipt.jpg', reason: 'outside the Google Photos folder (Takeout/Google Fotos): not imported' },
      ]);
    } finally {
      await lib.close();
    }
  });

  it('stops listing when the signal aborts', async () => {
    const dir = tempDir('takeout-abort');
    const parts = await buildTakeout(path.join(dir, 'parts'), { format: 'zip', files: familyTakeout() });
    const lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
    try {
      const ac = new AbortController();
      let seen = 0;
      await assert.rejects(async () => {
        for await (const x of lib.list(ac.signal)) {
          if (!('problem' in x) && ++seen === 2) ac.abort();
        }
      }, { name: 'AbortError' });
      assert.equal(seen, 2);
    } finally {
      await lib.close();
    }
  });
});
