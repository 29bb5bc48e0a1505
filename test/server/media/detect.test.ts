import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { detect, detectBytes } from '../../../server/src/adapters/media/detect.ts';
import { CORPUS, corpusPath, labels, tempDir } from './corpus.ts';

/**
 * Where our MIME legitimately differs from the label's (ExifTool's naming), or where the file is no media.
 */
const MIME_DIFFERENCES: Record<string, string | null> = {
  // An XMP sidecar is metadata, not a photo/video/audio asset: detect() must not claim it.
  'exif/IMG_5910.xmp': null,
  // AVCHD: ExifTool says video/m2ts; the registered type of MPEG transport streams is video/mp2t.
  'video/Sony_ILCE-7M3.mts': 'video/mp2t',
};

const FOLDERS = ['exif', 'gps', 'heic', 'raw', 'live', 'video', 'faces', 'labelled', 'ocr', 'duplicates'];

describe('detect: every corpus file by content', () => {
  for (const folder of FOLDERS) {
    test(folder, async () => {
      const lab = labels(folder);
      const files = fs.readdirSync(path.join(CORPUS, folder)).filter((f) => f !== 'labels.json');
      assert.ok(files.length > 0);
      for (const file of files) {
        const expected = lab[file]?.expected_metadata?.mime;
        assert.ok(expected, `${folder}/${file} has a label`);
        const got = await detect(corpusPath(folder, file));
        const want = `${folder}/${file}` in MIME_DIFFERENCES ? MIME_DIFFERENCES[`${folder}/${file}`] : expected;
        assert.equal(got?.mime ?? null, want, `${folder}/${file}`);
        if (got) {
          const kind = got.mime.startsWith('image/') ? 'photo' : got.mime.startsWith('video/') ? 'video' : 'audio';
          assert.equal(got.kind, kind, `${folder}/${file} kind`);
          assert.equal(got.isRaw, folder === 'raw' && !file.endsWith('.JPG'), `${folder}/${file} isRaw`);
        }
      }
    });
  }
});

describe('detect: names that lie, and things that are not media', () => {
  const dir = tempDir('detect');
  const put = (name: string, data: Uint8Array | string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, data);
    return p;
  };

  test('a PNG named .jpg is a PNG; a HEIC named .jpg is a HEIC; a JPEG named .mp4 is a JPEG', async () => {
    const png = put('really-a-png.jpg', fs.readFileSync(corpusPath('faces', 'face_009.png')));
    const heic = put('IMG_0001.jpg', fs.readFileSync(corpusPath('heic', 'Stonehenge.heic')));
    const jpeg = put('holiday.mp4', fs.readFileSync(corpusPath('exif', 'Canon_40D.jpg')));
    assert.deepEqual(await detect(png), { kind: 'photo', mime: 'image/png', ext: 'png', isRaw: false });
    assert.deepEqual(await detect(heic), { kind: 'photo', mime: 'image/heic', ext: 'heic', isRaw: false });
    assert.equal((await detect(jpeg))?.mime, 'image/jpeg');
  });

  test('a RAW container is recognised by its own marks, whatever its name', async () => {
    const dng = put('photo.tif', fs.readFileSync(corpusPath('raw', 'exiftool_DNG.dng'))); // DNGVersion tag
    const cr2 = put('photo.bin', fs.readFileSync(corpusPath('raw', 'exiftool_CanonRaw.cr2'))); // "CR" marker
    const cr3 = put('photo.mov', fs.readFileSync(corpusPath('raw', 'Canon_EOS_R6_pruned.CR3'))); // ftyp crx
    assert.equal((await detect(dng))?.mime, 'image/x-adobe-dng');
    assert.equal((await detect(cr2))?.mime, 'image/x-canon-cr2');
    assert.equal((await detect(cr3))?.mime, 'image/x-canon-cr3');
    // A NEF is a plain TIFF inside: only its name tells it apart; under another name it is a TIFF photo.
    const nefAsTif = put('scan.tif', fs.readFileSync(corpusPath('raw', 'RAW_NIKON_D1.NEF')));
    assert.deepEqual(await detect(nefAsTif), { kind: 'photo', mime: 'image/tiff', ext: 'tiff', isRaw: false });
  });

  test('text, garbage, empty and document files are not media', async () => {
    const cases: Record<string, Uint8Array | string> = {
      'notes.jpg': 'This is a text file pretending to be a photo.\n'.repeat(20),
      'empty.jpg': '',
      'tiny.heic': 'ftyp',
      'page.html': '<!doctype html><html><body>hi</body></html>',
      'doc.pdf': '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n',
      'archive.zip': Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]),
      'bytes.mp3': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)),
      'ff.mp3': Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(1000, 0x20)]), // one bogus frame header
    };
    for (const [name, data] of Object.entries(cases)) assert.equal(await detect(put(name, data)), null, name);
  });

  test('detectBytes needs no file', () => {
    assert.equal(detectBytes(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.mime, 'image/jpeg');
    assert.equal(detectBytes(Buffer.from('GIF89a......'))?.mime, 'image/gif');
    assert.equal(detectBytes(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.mime, 'image/webp');
    assert.equal(detectBytes(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, ...Buffer.from('webm')]))?.mime, 'video/webm');
    assert.equal(detectBytes(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88, ...Buffer.from('matroska')]))?.mime, 'video/x-matroska');
    const ftyp = (major: string, ...compat: string[]) => {
      const body = Buffer.from(major + '\0\0\0\0' + compat.join(''));
      const size = Buffer.alloc(4);
      size.writeUInt32BE(body.length + 8);
      return Buffer.concat([size, Buffer.from('ftyp'), body]);
    };
    assert.equal(detectBytes(ftyp('avif', 'mif1'))?.mime, 'image/avif');
    assert.equal(detectBytes(ftyp('mif1', 'heic'))?.mime, 'image/heic');
    assert.equal(detectBytes(ftyp('mif1', 'avif'))?.mime, 'image/avif');
    assert.equal(detectBytes(ftyp('M4V ', 'isom'))?.mime, 'video/x-m4v');
    assert.equal(detectBytes(ftyp('M4A ', 'isom'))?.kind, 'audio');
    assert.equal(detectBytes(ftyp('3gp4'))?.mime, 'video/3gpp');
    assert.equal(detectBytes(ftyp('qt  '))?.mime, 'video/quicktime');
    assert.equal(detectBytes(ftyp('xyzw', 'isom'))?.mime, 'video/mp4'); // unknown major, MP4-compatible
    assert.equal(detectBytes(ftyp('xyzw', 'abcd')), null);
  });

  describe('audio, from a real recording (the audio track of corpus/video/with-gps.mov)', () => {
    const made: Record<string, string> = {};
    before(() => {
      const src = corpusPath('video', 'with-gps.mov');
      const variants: Record<string, string[]> = {
        'voice.m4a': ['-c:a', 'copy'],
        'voice.aac': ['-c:a', 'copy', '-f', 'adts'],
        'voice.mp3': ['-c:a', 'libmp3lame', '-q:a', '5'],
        'voice-noid3.mp3': ['-c:a', 'libmp3lame', '-q:a', '5', '-id3v2_version', '0', '-write_xing', '0'],
        'voice.flac': ['-c:a', 'flac'],
        'voice.wav': ['-c:a', 'pcm_s16le'],
        'voice.ogg': ['-c:a', 'libvorbis'],
        'voice.opus': ['-c:a', 'libopus'],
      };
      for (const [name, args] of Object.entries(variants)) {
        const out = path.join(dir, name);
        const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', src, '-vn', '-t', '2', ...args, out]);
        if (r.status === 0) made[name] = out;
      }
    });
    const expect: Record<string, string> = {
      'voice.m4a': 'audio/mp4',
      'voice.aac': 'audio/aac',
      'voice.mp3': 'audio/mpeg',
      'voice-noid3.mp3': 'audio/mpeg',
      'voice.flac': 'audio/flac',
      'voice.wav': 'audio/wav',
      'voice.ogg': 'audio/ogg',
      'voice.opus': 'audio/ogg',
    };
    for (const [name, mime] of Object.entries(expect)) {
      test(name, async () => {
        assert.ok(made[name], `ffmpeg could not make ${name} from the corpus clip`);
        const r = await detect(made[name]);
        assert.equal(r?.mime, mime);
        assert.equal(r?.kind, 'audio');
        // And renamed to .jpg it is still audio.
        const renamed = put(`${name}.jpg`, fs.readFileSync(made[name]));
        assert.equal((await detect(renamed))?.mime, mime);
      });
    }
  });
});
