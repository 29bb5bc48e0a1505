/**
 * Hostile and oversized Takeout archives: entries that climb out of the archive (`../`, absolute paths, drive
 * letters, backslashes, control characters) are problems and are never written anywhere; compression bombs (a
 * real one of zeros, a header lying about its size, a gzip bomb in a tgz) are refused quickly with bounded memory;
 * an entry inflating to more than it declared is stopped; oversized sidecars and too many entries are reported.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTakeout } from '../../../server/src/adapters/cloud/takeout/index.ts';
import { WHOLE_ENTRY_BYTES } from '../../../server/src/adapters/cloud/takeout/zip-part.ts';
import { tempDir } from '../media/corpus.ts';
import {
  buildTakeout,
  collectListing,
  corpusFile,
  patchZipDeclaredSize,
  PHOTOS_ROOT,
  sidecar,
  writeRawTgz,
  writeZip,
  writeZipBomb,
  writeTgzBomb,
  writeZipWithRawNames,
} from '../helpers/takeout-archive.ts';

const Y = `${PHOTOS_ROOT}/Photos from 2019`;
const signal = () => new AbortController().signal;
const photo = () => fs.readFileSync(corpusFile('exif/Canon_40D.jpg'));

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

const UNSAFE = [
  { name: '../evil.jpg', placeholder: 'XX/evil.jpg' },
  { name: `${Y}/../../../../outside.jpg`, placeholder: `${Y}/XX/XX/XX/XX/outside.jpg` },
  { name: '/abs.jpg', placeholder: 'Xabs.jpg' },
  { name: 'C:/drive.jpg', placeholder: 'C_/drive.jpg' },
  { name: `${Y}/..\\back.jpg`, placeholder: `${Y}/XXXback.jpg` },
  { name: `${Y}/bell\u0007.jpg`, placeholder: `${Y}/bellX.jpg` },
];

describe('Takeout zip-slip entries', () => {
  for (const format of ['zip', 'tgz'] as const) {
    it(`${format}: each unsafe entry is a problem, never extracted; the safe photo imports`, async () => {
      const dir = tempDir(`takeout-slip-${format}`);
      const box = path.join(dir, 'box');
      const part = path.join(box, 'parts', `takeout-20240101T000000Z-001.${format}`);
      fs.mkdirSync(path.dirname(part), { recursive: true });
      const good = { name: `${Y}/good.jpg`, placeholder: `${Y}/good.jpg`, bytes: photo() };
      const entries = [...UNSAFE.map((u) => ({ ...u, bytes: photo() })), good];
      if (format === 'zip') await writeZipWithRawNames(part, entries);
      else await writeRawTgz(part, entries);

      const lib = await openTakeout([part], { workDir: path.join(box, 'work') });
      try {
        const { items, problems } = await collectListing(lib);
        assert.deepEqual(items.map((i) => i.id), ['Photos from 2019/good.jpg']);
        assert.equal(problems.length, UNSAFE.length, JSON.stringify(problems));
        for (const p of problems) assert.match(p.reason, /not extracted$/);
        assert.ok(problems.some((p) => p.where.endsWith('bell\\x07.jpg')), 'a control character is shown escaped');
        for (const item of items) await lib.download(item, path.join(box, 'dest', 'good.jpg'), { offset: 0, signal: signal() });
      } finally {
        await lib.close();
      }
      assert.deepEqual(filesUnder(dir), [path.join('box', 'dest', 'good.jpg'), path.join('box', 'parts', path.basename(part))]);
      for (const outside of ['/abs.jpg', path.join(path.dirname(dir), 'evil.jpg'), path.join(path.dirname(dir), 'outside.jpg')]) {
        assert.equal(fs.existsSync(outside), false, outside);
      }
    });
  }
});

describe('Takeout compression bombs', () => {
  it('refuses a real zip bomb (256 MB of zeros) quickly and with bounded memory; the rest of the part imports', async () => {
    const dir = tempDir('takeout-bomb');
    const part = path.join(dir, 'takeout-20240101T000000Z-001.zip');
    await writeZipBomb(part, `${Y}/zeros.jpg`, 256 * 1024 ** 2, { path: `${Y}/good.jpg`, corpus: 'exif/Canon_40D.jpg' });
    assert.ok(fs.statSync(part).size < 2 * 1024 ** 2, 'the bomb is small on disk');
    const rss = process.memoryUsage().rss;
    const started = Date.now();
    const lib = await openTakeout([part], { workDir: path.join(dir, 'work') });
    try {
      const { items, problems } = await collectListing(lib);
      assert.ok(Date.now() - started < 5000, 'refused from the central directory, without inflating it');
      assert.ok(process.memoryUsage().rss - rss < 64 * 1024 ** 2, 'memory stays bounded');
      assert.deepEqual(items.map((i) => i.id), ['Photos from 2019/good.jpg']);
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.where, `${path.basename(part)}: ${Y}/zeros.jpg`);
      assert.match(problems[0]!.reason, /to 268435456 \(over 200:1, a compression bomb\): not extracted/);
    } finally {
      await lib.close();
    }
    assert.deepEqual(filesUnder(path.join(dir, 'work')), []);
  });

  it('refuses a header that claims 2 GB for a small entry, and an entry over the size limit', async () => {
    const dir = tempDir('takeout-liar');
    const part = path.join(dir, 'takeout-20240101T000000Z-001.zip');
    await writeZip(part, [
      { path: `${Y}/liar.jpg`, bytes: Buffer.alloc(200_000, 7) },
      { path: `${Y}/big.jpg`, bytes: fs.readFileSync(corpusFile('exif/jolla.jpg')) },
      { path: `${Y}/good.jpg`, bytes: photo() },
    ]);
    patchZipDeclaredSize(part, `${Y}/liar.jpg`, 2 * 1024 ** 3);
    const lib = await openTakeout([part], { workDir: path.join(dir, 'work'), limits: { maxEntryBytes: 500_000 } });
    try {
      const { items, problems } = await collectListing(lib);
      assert.deepEqual(items.map((i) => i.id), ['Photos from 2019/good.jpg']);
      assert.deepEqual(
        problems.map((p) => [p.where.split(': ')[1], p.reason.replace(/\d+ bytes, over/, 'N bytes, over')]),
        [
          [`${Y}/liar.jpg`, 'declares N bytes, over the limit of 500000: not extracted'],
          [`${Y}/big.jpg`, 'declares N bytes, over the limit of 500000: not extracted'],
        ],
      );
    } finally {
      await lib.close();
    }
    const ratioOnly = await openTakeout([part], { workDir: path.join(dir, 'work') });
    try {
      const { problems } = await collectListing(ratioOnly);
      assert.deepEqual(problems.map((p) => p.where.split(': ')[1]), [`${Y}/liar.jpg`]);
      assert.match(problems[0]!.reason, /a compression bomb/);
    } finally {
      await ratioOnly.close();
    }
  });

  it('stops writing an entry that inflates past its declared size, and leaves no partial file', async () => {
    const dir = tempDir('takeout-grows');
    const part = path.join(dir, 'takeout-20240101T000000Z-001.zip');
    const bytes = photo();
    await writeZip(part, [{ path: `${Y}/grows.jpg`, bytes }]);
    patchZipDeclaredSize(part, `${Y}/grows.jpg`, bytes.length - 100);
    const lib = await openTakeout([part], { workDir: path.join(dir, 'work') });
    try {
      const { items } = await collectListing(lib);
      assert.equal(items[0]!.size, bytes.length - 100);
      const dest = path.join(dir, 'dest', 'grows.jpg');
      await assert.rejects(lib.download(items[0]!, dest, { offset: 0, signal: signal() }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'protocol');
        assert.match(e.message, /too many bytes/);
        return true;
      });
      assert.equal(fs.existsSync(dest), false);
    } finally {
      await lib.close();
    }
  });

  it('reads an entry larger than a whole read by streaming it, with the same checks (a good one lands, a growing one stops)', async () => {
    const dir = tempDir('takeout-large');
    const part = path.join(dir, 'takeout-20240101T000000Z-001.zip');
    // Video-like bytes over WHOLE_ENTRY_BYTES: streamed, never held whole.
    const large = Buffer.concat([photo(), crypto.randomBytes(WHOLE_ENTRY_BYTES + 4096)]);
    await writeZip(part, [
      { path: `${Y}/large.jpg`, bytes: large },
      { path: `${Y}/grows-large.jpg`, bytes: large },
    ]);
    patchZipDeclaredSize(part, `${Y}/grows-large.jpg`, large.length - 100);
    const lib = await openTakeout([part], { workDir: path.join(dir, 'work') });
    try {
      const { items } = await collectListing(lib);
      const byId = new Map(items.map((i) => [i.id, i]));
      const good = path.join(dir, 'dest', 'large.jpg');
      await lib.download(byId.get('Photos from 2019/large.jpg')!, good, { offset: 0, signal: signal() });
      assert.ok(fs.readFileSync(good).equals(large), 'the streamed entry is byte for byte the original');
      const grows = path.join(dir, 'dest', 'grows-large.jpg');
      await assert.rejects(lib.download(byId.get('Photos from 2019/grows-large.jpg')!, grows, { offset: 0, signal: signal() }), (e: Error & { code?: string }) => {
        assert.equal(e.code, 'protocol');
        assert.match(e.message, /too many bytes/);
        return true;
      });
      assert.equal(fs.existsSync(grows), false);
    } finally {
      await lib.close();
    }
  });

  it('stops a gzip bomb in a tgz part with a problem naming it; the other part imports', async () => {
    const dir = tempDir('takeout-gzbomb');
    const [good] = await buildTakeout(dir, { format: 'tgz', files: [{ path: 'Photos from 2019/good.jpg', corpus: 'exif/Canon_40D.jpg' }] });
    const bomb = path.join(dir, 'takeout-20240101T000000Z-002.tgz');
    await writeTgzBomb(bomb, `${Y}/zeros.jpg`, 256 * 1024 ** 2);
    const rss = process.memoryUsage().rss;
    const started = Date.now();
    const lib = await openTakeout([good!, bomb], { workDir: path.join(dir, 'work') });
    try {
      const { items, problems } = await collectListing(lib);
      assert.ok(Date.now() - started < 5000, 'stopped long before 256 MB were inflated');
      assert.ok(process.memoryUsage().rss - rss < 64 * 1024 ** 2, 'memory stays bounded');
      assert.deepEqual(items.map((i) => i.id), ['Photos from 2019/good.jpg']);
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.where, path.basename(bomb));
      assert.match(problems[0]!.reason, /compression bomb/);
    } finally {
      await lib.close();
    }
  });
});

describe('Takeout limits on metadata', () => {
  it('does not read a sidecar over the JSON limit (the photo keeps its own metadata) and caps the entries', async () => {
    const dir = tempDir('takeout-limits');
    const parts = await buildTakeout(path.join(dir, 'parts'), {
      format: 'zip',
      files: [
        { path: 'Photos from 2019/a.jpg', corpus: 'exif/Canon_40D.jpg' },
        { path: 'Photos from 2019/a.jpg.json', json: sidecar({ title: 'a.jpg', description: 'x'.repeat(5000) }) },
        { path: 'Photos from 2019/b.jpg', corpus: 'exif/Nikon_D70.jpg' },
        { path: 'Photos from 2019/c.jpg', corpus: 'exif/Pentax_K10D.jpg' },
      ],
    });
    const lib = await openTakeout(parts, { workDir: path.join(dir, 'work'), limits: { maxJsonBytes: 2000, maxEntries: 3 } });
    try {
      const { items, problems } = await collectListing(lib);
      assert.deepEqual(items.map((i) => i.id), ['Photos from 2019/a.jpg', 'Photos from 2019/b.jpg']);
      assert.deepEqual(items[0]!.facts, { fileModified: null });
      assert.deepEqual(
        problems.map((p) => p.reason),
        ['more than 3 entries in the archive: the rest of this part is not listed', 'sidecar not read (larger than the JSON limit): the file keeps its own metadata'],
      );
      assert.deepEqual(lib.preview().without_sidecar, { count: 2, examples: ['Photos from 2019/a.jpg', 'Photos from 2019/b.jpg'] });
    } finally {
      await lib.close();
    }
  });
});
