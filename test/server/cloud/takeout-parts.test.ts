/**
 * Takeout parts read together: an export split into parts (a sidecar in another part than its photo, an album
 * spread over parts) gives exactly the library of the same export in one archive; tgz gives what zip gives (the
 * version is the size alone: tar has no CRC before the bytes are read), in GNU and pax tar formats; zip64
 * headers read the same; a folder of parts opens like the parts; a damaged part costs only itself.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { openTakeout } from '../../../server/src/adapters/cloud/takeout/index.ts';
import type { TakeoutPreview } from '../../../server/src/adapters/cloud/takeout/index.ts';
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
  type TakeoutBuild,
  type TakeoutFile,
} from '../helpers/takeout-archive.ts';

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const signal = () => new AbortController().signal;

const LONG = `Photos from 2019/${'A family walk along the river on a long summer evening, '.repeat(2).trim()}.jpg`;

/** The family export plus a path longer than tar's 100-character name field. */
function family(): TakeoutFile[] {
  return [
    ...familyTakeout(),
    { path: LONG, corpus: 'exif/Olympus_C8080WZ.jpg' },
    { path: `${LONG}.json`, json: sidecar({ title: path.basename(LONG), taken: '2019-07-07T07:07:07Z' }) },
  ];
}

/** Every file in part `i % n`: sidecars land in another part than their photo, albums spread over all parts. */
const split = (files: TakeoutFile[], n: number) => files.map((f, i) => ({ ...f, part: i % n }));

const dir = tempDir('takeout-parts');
let built = 0;

async function open(build: TakeoutBuild): Promise<{ listing: Listing; preview: TakeoutPreview; parts: string[] }> {
  const parts = await buildTakeout(path.join(dir, `build-${++built}`), build);
  const lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
  try {
    const listing = await collectListing(lib);
    listing.items.sort((a, b) => (a.id < b.id ? -1 : 1));
    return { listing, preview: lib.preview(), parts };
  } finally {
    await lib.close();
  }
}

const withoutParts = ({ parts: _, ...rest }: TakeoutPreview) => rest;
const sizeOnly = (items: RemoteItem[]) => items.map((i) => ({ ...i, version: String(i.size) }));

describe('Takeout parts', () => {
  let whole: Awaited<ReturnType<typeof open>>;
  before(async () => {
    whole = await open({ format: 'zip', files: family() });
  });

  it('the one-archive zip holds the family library and the long-named photo', () => {
    assert.equal(whole.listing.items.length, Object.keys(FAMILY_ITEMS).length + 1);
    assert.ok(whole.listing.items.some((i) => i.id === LONG));
  });

  it('split zip parts give exactly the items, facts and preview of one archive', async () => {
    const three = await open({ format: 'zip', files: split(family(), 3) });
    assert.equal(three.parts.length, 3);
    assert.deepEqual(three.listing, whole.listing);
    assert.deepEqual(withoutParts(three.preview), withoutParts(whole.preview));
    assert.deepEqual(three.preview.parts.map((p) => p.entries).reduce((a, b) => a + b), family().length);
  });

  it('zip64 headers read the same', async () => {
    const zip64 = await open({ format: 'zip', files: family(), zip64: true });
    assert.deepEqual(zip64.listing, whole.listing);
  });

  for (const tarFormat of ['gnu', 'pax'] as const) {
    it(`tgz (${tarFormat} tar) gives what zip gives, in one archive and in parts`, async () => {
      const one = await open({ format: 'tgz', files: family(), tarFormat });
      assert.deepEqual(one.listing.items, sizeOnly(whole.listing.items));
      assert.deepEqual(one.listing.problems, whole.listing.problems);
      assert.deepEqual(withoutParts(one.preview), withoutParts(whole.preview));
      const parts = await open({ format: 'tgz', files: split(family(), 3), tarFormat });
      assert.deepEqual(parts.listing, one.listing);
    });
  }

  it('a zip part and a tgz part of one export open together as one library', async () => {
    const files = split(family(), 2);
    const zipPart = await buildTakeout(path.join(dir, 'mixed'), { format: 'zip', files: files.filter((f) => f.part === 0) });
    const tgzPart = await buildTakeout(path.join(dir, 'mixed'), {
      format: 'tgz',
      stem: 'takeout-20240101T000000Z-b',
      files: files.filter((f) => f.part === 1).map((f) => ({ ...f, part: 0 })),
    });
    const lib = await openTakeout([...zipPart, ...tgzPart], { workDir: path.join(dir, 'work') });
    try {
      const listing = await collectListing(lib);
      listing.items.sort((a, b) => (a.id < b.id ? -1 : 1));
      const byId = new Map(whole.listing.items.map((i) => [i.id, i]));
      assert.deepEqual(
        listing.items.map(({ version: _, ...rest }) => rest),
        whole.listing.items.map(({ version: _, ...rest }) => rest),
      );
      // An item with a copy in the zip part keeps the CRC in its version.
      assert.equal(listing.items.find((i) => i.id === 'Photos from 2019/Canon_40D.jpg')!.version, byId.get('Photos from 2019/Canon_40D.jpg')!.version);
      for (const item of listing.items) {
        const dest = path.join(dir, 'mixed-dest', item.id.replaceAll('/', '_'));
        await lib.download(item, dest, { offset: 0, signal: signal() });
        assert.equal(fs.statSync(dest).size, item.size, item.id);
      }
    } finally {
      await lib.close();
    }
  });

  it('opens a folder of parts like the parts themselves', async () => {
    const parts = await buildTakeout(path.join(dir, 'folder'), { format: 'zip', files: split(family(), 2) });
    fs.writeFileSync(path.join(dir, 'folder', 'README.txt'), 'not a part');
    const lib = await openTakeout([path.join(dir, 'folder')], { workDir: path.join(dir, 'work') });
    try {
      assert.deepEqual(lib.preview().parts.map((p) => p.name), parts.map((p) => path.basename(p)));
      const listing = await collectListing(lib);
      assert.deepEqual(listing.items, whole.listing.items);
    } finally {
      await lib.close();
    }
  });

  it('refuses to open nothing', async () => {
    await assert.rejects(openTakeout([path.join(dir, 'missing.zip')], { workDir: path.join(dir, 'work') }), { code: 'not_found' });
    fs.mkdirSync(path.join(dir, 'empty'));
    await assert.rejects(openTakeout([path.join(dir, 'empty')], { workDir: path.join(dir, 'work') }), { code: 'bad_input' });
  });
});

describe('Takeout tgz extraction', () => {
  it('extracts each item as it is listed, one file at a time, and download() moves the exact bytes', async () => {
    const parts = await buildTakeout(path.join(dir, 'tgz-extract'), { format: 'tgz', files: split(familyTakeout(), 2) });
    const work = path.join(dir, 'tgz-work');
    const lib = await openTakeout(parts, { workDir: work });
    const scratchFiles = () => fs.readdirSync(work, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
    try {
      let downloaded = 0;
      let skippedOne: RemoteItem | null = null;
      for await (const x of lib.list(signal())) {
        if ('problem' in x) continue;
        assert.ok(scratchFiles() <= 1, 'at most the item being offered is in the scratch folder');
        if (!skippedOne && x.id.endsWith('bee.jpg')) {
          skippedOne = x; // the caller already has it: not downloaded now
          continue;
        }
        const dest = path.join(dir, 'tgz-dest', x.id.replaceAll('/', '_'));
        await lib.download(x, dest, { offset: 0, signal: signal() });
        assert.equal(sha256(dest), sha256(corpusFile(FAMILY_ITEMS[x.id]!)), x.id);
        downloaded++;
      }
      assert.equal(downloaded, Object.keys(FAMILY_ITEMS).length - 1);
      assert.equal(scratchFiles(), 0, 'nothing left in the scratch folder once the listing ends');
      // Downloading an item after the listing moved on streams its part again.
      assert.ok(skippedOne);
      const late = path.join(dir, 'tgz-dest', 'late-bee.jpg');
      await lib.download(skippedOne, late, { offset: 0, signal: signal() });
      assert.equal(sha256(late), sha256(corpusFile('duplicates/bee.jpg')));
    } finally {
      await lib.close();
    }
    assert.equal(fs.readdirSync(work).length, 0, 'close() removes the scratch folder');
  });
});

describe('Takeout damaged parts', () => {
  for (const format of ['zip', 'tgz'] as const) {
    it(`a damaged ${format} part is a problem naming it; the other parts still import`, async () => {
      const files = familyTakeout().map((f) => ({ ...f, part: f.path.startsWith('Photos from 2020/') ? 1 : 0 }));
      const parts = await buildTakeout(path.join(dir, `damaged-${format}`), { format, files });
      // The second part loses its second half (zip: the central directory; tgz: the end of the stream).
      const bytes = fs.readFileSync(parts[1]!);
      fs.writeFileSync(parts[1]!, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const lib = await openTakeout(parts, { workDir: path.join(dir, 'work') });
      try {
        const { items, problems } = await collectListing(lib);
        const partName = path.basename(parts[1]!);
        assert.ok(problems.some((p) => p.where === partName), `a problem names ${partName}: ${JSON.stringify(problems)}`);
        const firstPart = Object.keys(FAMILY_ITEMS).filter((id) => !id.startsWith('Photos from 2020/'));
        for (const id of firstPart) assert.ok(items.some((i) => i.id === id), `${id} still listed`);
      } finally {
        await lib.close();
      }
    });
  }
});
