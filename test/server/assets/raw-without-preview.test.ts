/**
 * A RAW whose embedded preview is missing or cannot be decoded keeps its metadata (camera, capture time,
 * size), is `ready` with a neutral placeholder thumbnail, and says so (status 31, preview_missing); it stays
 * in the camera and date filters. Files: the ExifTool suite's metadata-only CR2 (corpus), a CR3 whose
 * previews were blanked or damaged, a NEF cut off before its preview, and RAWs made here in every TIFF-based
 * container (NEF, NRW, ARW, SR2, PEF, SRW, DNG, 3FR, IIQ, CR2, ORF, RW2: the header each camera writes, IFD0
 * and an Exif IFD, no image data) whose IFD0 also holds an IPTC block stored as LONGs the way Nikon Capture
 * writes it (the Nikon D70 file of issue 24): exifr cannot parse that block, which must not cost the rest
 * (and its caption and keywords are still read, from the block's bytes).
 * Canon's CIFF CRW (its own records, not TIFF) and a RAF whose preview JPEG, where RAF keeps its EXIF, is
 * gone (the header still names the camera). Also DJI DNGs whose DateTimeOriginal carries its zone inside the string, with and without a disagreeing
 * OffsetTimeOriginal (the tag wins), and a TIFF/EP NEF whose date is in IFD0.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Client, TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';
import { inspectRaw } from '../../../server/src/adapters/media/raw-preview.ts';
import { addFile, household, inVariant } from './fixture.ts';
import { iptcAsLongs, scratchDir, tiffRaw } from './made-media.ts';

const CR3 = path.join(CORPUS, 'raw/Canon_EOS_R6_pruned.CR3');

/** The CR3 with every embedded JPEG changed by `damage` (in place, same length: the boxes stay intact). */
async function cr3WithPreviews(damage: (jpeg: Buffer) => void): Promise<Buffer> {
  const bytes = Buffer.from(fs.readFileSync(CR3));
  const { previews } = await inspectRaw(CR3);
  assert.ok(previews.length >= 1, 'the sample has embedded previews to damage');
  for (const p of previews) damage(bytes.subarray(p.offset, p.offset + p.length));
  return bytes;
}

const TIFF_HEADER = Buffer.from('II*\0\0\0\0\0', 'latin1');
/** The first bytes of each TIFF-based RAW container: the TIFF header or the maker's variant of it. */
const RAW_HEADERS: Record<string, { make: string; header: Buffer }> = {
  nef: { make: 'NIKON CORPORATION', header: TIFF_HEADER },
  nrw: { make: 'NIKON CORPORATION', header: TIFF_HEADER },
  arw: { make: 'SONY', header: TIFF_HEADER },
  sr2: { make: 'SONY', header: TIFF_HEADER },
  pef: { make: 'PENTAX', header: TIFF_HEADER },
  srw: { make: 'SAMSUNG', header: TIFF_HEADER },
  dng: { make: 'Leica Camera AG', header: TIFF_HEADER },
  '3fr': { make: 'Hasselblad', header: TIFF_HEADER },
  iiq: { make: 'Phase One', header: TIFF_HEADER },
  cr2: { make: 'Canon', header: Buffer.from('II*\0\0\0\0\0CR\x02\0\0\0\0\0', 'latin1') },
  orf: { make: 'OLYMPUS IMAGING CORP.', header: Buffer.from('IIRO\0\0\0\0', 'latin1') },
  rw2: { make: 'Panasonic', header: Buffer.from('IIU\0\0\0\0\0', 'latin1') },
};

/** A RAW of container `ext` holding only its metadata, with the IPTC block exifr fails on. */
function metadataOnlyRaw(ext: string): Buffer {
  const { make, header } = RAW_HEADERS[ext]!;
  const ifd0: Parameters<typeof tiffRaw>[1] = { 0xfe: [0], 0x100: [3008], 0x101: [2000], 0x10f: make, 0x110: `Test ${ext.toUpperCase()}`, 0x83bb: iptcAsLongs('On the pier') };
  if (ext === 'dng') ifd0[0xc612] = { bytes: Buffer.from([1, 4, 0, 0]), type: 1 };
  return tiffRaw(header, ifd0, { 0x9003: '2004:06:09 16:02:35', 0x9011: '+02:00' });
}

/** The corpus RAF with its embedded JPEG (where RAF keeps the EXIF) overwritten with zeros. */
function rafWithoutPreview(): Buffer {
  const raf = Buffer.from(fs.readFileSync(path.join(CORPUS, 'raw/exiftool_FujiFilm.raf')));
  raf.fill(0, raf.readUInt32BE(84), raf.readUInt32BE(84) + raf.readUInt32BE(88));
  return raf;
}

/** IFD0 of a DJI drone's DNG (model added per file). */
const DJI_DNG: Parameters<typeof tiffRaw>[1] = { 0xfe: [0], 0x100: [3008], 0x101: [2000], 0x10f: 'DJI', 0xc612: { bytes: Buffer.from([1, 4, 0, 0]), type: 1 } };

interface Expect {
  make: string;
  model: string;
  /** Local wall clock as the camera wrote it (null: the file keeps it only in its preview). */
  local: string | null;
  offset: number | null;
  size: [number, number] | null;
}

describe('RAW without a usable preview keeps its metadata and shows a placeholder', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  const tmp = scratchDir();
  const ids: Record<string, string> = {};
  const expect: Record<string, Expect> = {
    'metadata-only.cr2': { make: 'Canon', model: 'Canon EOS 350D DIGITAL', local: '2005-08-03T18:59:18', offset: null, size: [1536, 1024] },
    'blank-previews.cr3': { make: 'Canon', model: 'Canon EOS R6', local: '2021-05-12T12:21:21', offset: 120, size: [3408, 2272] },
    'damaged-previews.cr3': { make: 'Canon', model: 'Canon EOS R6', local: '2021-05-12T12:21:21', offset: 120, size: [3408, 2272] },
    'preview-cut-off.nef': { make: 'NIKON CORPORATION', model: 'NIKON D1', local: '2000-11-19T13:01:50', offset: null, size: null },
    ...Object.fromEntries(
      Object.entries(RAW_HEADERS).map(([ext, { make }]) => [`iptc-longs-${ext}.${ext}`, { make, model: `Test ${ext.toUpperCase()}`, local: '2004-06-09T16:02:35', offset: 120, size: [3008, 2000] as [number, number] }]),
    ),
    'tiff-ep.nef': { make: 'NIKON CORPORATION', model: 'NIKON D2H', local: '2003-11-10T17:39:26', offset: null, size: [3008, 2000] },
    // Canon CIFF: not TIFF at all, its own records.
    'metadata-only.crw': { make: 'Canon', model: 'Canon EOS DIGITAL REBEL', local: '2003-11-10T17:39:26', offset: null, size: [3072, 2048] },
    // A RAF keeps its EXIF in the preview JPEG: with the preview gone, the header still names the camera.
    'preview-gone.raf': { make: 'FUJIFILM', model: 'FinePix S5Pro', local: null, offset: null, size: null },
    // The zone written inside the date string (DJI), and an OffsetTimeOriginal that disagrees with it (the tag wins).
    'zone-in-string.dng': { make: 'DJI', model: 'FC3170', local: '2019-04-30T15:56:18', offset: 0, size: [3008, 2000] },
    'zone-disagrees.dng': { make: 'DJI', model: 'FC3171', local: '2019-04-30T15:56:18', offset: 120, size: [3008, 2000] },
  };

  before(async () => {
    const h = await household();
    ({ srv, owner } = h);
    const files: Record<string, Buffer> = {
      'metadata-only.cr2': fs.readFileSync(path.join(CORPUS, 'raw/exiftool_CanonRaw.cr2')),
      // No JPEG start marker: there is no preview to find.
      'blank-previews.cr3': await cr3WithPreviews((jpeg) => jpeg.fill(0, 0, 4)),
      // The headers are intact, the compressed picture data is not: found, but it cannot be decoded.
      'damaged-previews.cr3': await cr3WithPreviews((jpeg) => {
        const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
        jpeg.fill(0xff, sos + 2 + jpeg.readUInt16BE(sos + 2) + 16);
      }),
      // An interrupted copy: the directory with camera and date made it, the thumbnail strip did not.
      'preview-cut-off.nef': fs.readFileSync(path.join(CORPUS, 'raw/RAW_NIKON_D1.NEF')).subarray(0, 32 * 1024),
      ...Object.fromEntries(Object.keys(RAW_HEADERS).map((ext) => [`iptc-longs-${ext}.${ext}`, metadataOnlyRaw(ext)])),
      // TIFF/EP: the capture time in IFD0 itself, no Exif IFD date.
      'tiff-ep.nef': tiffRaw(TIFF_HEADER, { 0xfe: [0], 0x100: [3008], 0x101: [2000], 0x10f: 'NIKON CORPORATION', 0x110: 'NIKON D2H', 0x9003: '2003:11:10 17:39:26' }, {}),
      'metadata-only.crw': fs.readFileSync(path.join(CORPUS, 'raw/exiftool_CanonRaw.crw')),
      'preview-gone.raf': rafWithoutPreview(),
      'zone-in-string.dng': tiffRaw(TIFF_HEADER, { ...DJI_DNG, 0x110: 'FC3170' }, { 0x9003: '2019:04:30 15:56:18.605+00:00' }),
      'zone-disagrees.dng': tiffRaw(TIFF_HEADER, { ...DJI_DNG, 0x110: 'FC3171' }, { 0x9003: '2019:04:30 15:56:18.605+00:00', 0x9011: '+02:00' }),
    };
    for (const [name, bytes] of Object.entries(files)) ids[name] = await addFile(srv, `raw/${name}`, h.ownerId, bytes);
    await srv.container.jobRunner.whenIdle();
  });
  after(async () => {
    await srv.stop({ removeData: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('ready, with camera, capture time and size, flagged preview_missing (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const client = inVariant(owner, variant);
      for (const [name, e] of Object.entries(expect)) {
        const a = data(client, await client.get(`${V1}/assets/${ids[name]}`));
        assert.equal(a.state, 'ready', `${name}: ${a.state} ${a.last_error}`);
        assert.equal(a.last_error, null);
        assert.ok(a.status.includes(31) && !a.status.includes(30) && a.status.includes(20), `${name}: ${JSON.stringify(a.status)}`);
        assert.equal(a.specific_metadata.preview_missing, true, name);
        assert.equal(a.specific_metadata.is_raw, true, name);
        assert.equal(a.specific_metadata.camera_make, e.make, name);
        assert.equal(a.specific_metadata.camera_model, e.model, name);
        if (e.local === null) {
          // No date in the file's tags: the file's modification time stands in, marked as such (fact-precedence.ts).
          assert.equal(a.time_source, 'file_modified', name);
        } else {
          const local = new Date(Date.parse(a.taken_time) + (a.capture_offset_minutes ?? 0) * 60_000).toISOString().slice(0, 19);
          assert.equal(local, e.local, name);
          assert.equal(a.capture_offset_minutes, e.offset, name);
          assert.equal(a.time_source, 'file', name);
        }
        if (e.size) assert.deepEqual([a.width, a.height], e.size, name);
        if (name.startsWith('iptc-longs-')) {
          // The IPTC block exifr rejects is read from its bytes all the same.
          assert.equal(a.specific_metadata.description, 'On the pier', name);
          assert.deepEqual(a.specific_metadata.keywords, ['holiday'], name);
        }
      }
    }
  });

  test('the thumbnail is a neutral grey placeholder in the photo’s proportions', async () => {
    for (const [name, e] of Object.entries(expect)) {
      for (const size of ['small', 'large'] as const) {
        const r = await fetch(`${srv.url}${V1}/assets/${ids[name]}/thumbnail?size=${size}`, { headers: { authorization: `Bearer ${owner.token}` } });
        assert.equal(r.status, 200, name);
        assert.equal(r.headers.get('content-type'), 'image/webp');
        const img = sharp(Buffer.from(await r.arrayBuffer()));
        const meta = await img.metadata();
        const [w, h] = e.size ?? [3, 2];
        assert.equal(Math.max(meta.width!, meta.height!), size === 'small' ? 400 : 1920, name);
        assert.ok(Math.abs(meta.width! / meta.height! - w / h) < 0.01, `${name}: ${meta.width}x${meta.height}`);
        const stats = await img.stats();
        for (const c of stats.channels.slice(0, 3)) assert.ok(Math.abs(c.mean - 128) < 3 && c.stdev < 2, `${name}: flat grey`);
      }
    }
  });

  test('they stay in the camera and date filters; no perceptual hash is taken of a placeholder', async () => {
    const found = async (filter: unknown) => {
      const r = await owner.post(`${V1}/assets/query`, { filter });
      assert.equal(r.status, 200, r.text);
      return (data(owner, r).items as { media_item: { primary_asset: { asset_id: string } } }[]).map((i) => i.media_item.primary_asset.asset_id);
    };
    assert.ok((await found({ camera_model: 'Canon EOS R6' })).includes(ids['damaged-previews.cr3']!));
    assert.ok((await found({ camera_model: 'NIKON D1' })).includes(ids['preview-cut-off.nef']!));
    assert.ok((await found({ date: { from: '2005-08-03', to: '2005-08-03' } })).includes(ids['metadata-only.cr2']!));
    assert.deepEqual(await found({ camera_model: 'Canon EOS DIGITAL REBEL' }), [ids['metadata-only.crw']]);
    assert.ok((await found({ date: { from: '2003-11-10', to: '2003-11-10' } })).includes(ids['metadata-only.crw']!));
    assert.deepEqual(await found({ camera_model: 'FinePix S5Pro' }), [ids['preview-gone.raf']]);
    const onTheDay = await found({ date: { from: '2004-06-09', to: '2004-06-09' } });
    for (const ext of Object.keys(RAW_HEADERS)) {
      const id = ids[`iptc-longs-${ext}.${ext}`]!;
      assert.deepEqual(await found({ camera_model: `Test ${ext.toUpperCase()}` }), [id], `${ext}: camera filter`);
      assert.ok(onTheDay.includes(id), `${ext}: date filter`);
    }
    const a = srv.container.db.prepare('SELECT phash FROM assets WHERE asset_id = ?').get(ids['metadata-only.cr2']) as { phash: string | null };
    assert.equal(a.phash, null, 'no perceptual hash of a placeholder (every placeholder would look alike)');
  });
});
