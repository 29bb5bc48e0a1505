import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { offsetFromGpsClock, parseOffset, parseWallClock, toTakenTime } from '../../../server/src/adapters/media/capture-time.ts';
import { extractPhotoMetadata, formatExposureTime, type PhotoMetadata } from '../../../server/src/adapters/media/photo-metadata.ts';
import { detect } from '../../../server/src/adapters/media/detect.ts';
import { openImage } from '../../../server/src/adapters/media/image-source.ts';
import { withXmp } from '../assets/made-media.ts';
import { corpusPath, labels, labelOffset, labelWallClock, tempDir, wallClockOf, type ExpectedMetadata } from './corpus.ts';

/**
 * Ground truth: labels.json "expected_metadata" (ExifTool 12.57). Fields present per folder (counted from the
 * files): every photo has mime/width/height; most have orientation, make, model, datetime_original,
 * create_date; some have offset_time_original, gps {lat, lon, alt_m}, rating, keywords, lens_model,
 * media_group_uuid (Apple's Live Photo id). Each field is compared only where the label has it, and where
 * the label lacks it we assert that we found nothing either (no invented values) unless listed below.
 */

/** Fields where our value legitimately differs from ExifTool's, with the reason. */
const KNOWN_DIFFERENCES: Record<string, { fields: Array<keyof ExpectedMetadata | 'time'>; why: string }> = {
  'exif/Reconyx_HC500_trailcam.jpg': { fields: ['time'], why: 'the date is only in the Reconyx MakerNote, which exifr does not decode' },
  'exif/exiforg_olympus-d320l.jpg': { fields: ['time'], why: 'pre-EXIF Olympus APP12 text block (1998); exifr reads no EXIF from it' },
  'exif/exiforg_sony-powershota5.jpg': { fields: ['make', 'model', 'time'], why: 'Canon CIFF metadata in APP0 (2000), not EXIF' },
  'exif/Olympus_E-P3.jpg': { fields: ['lens_model'], why: 'the lens name is only in the Olympus MakerNote (no EXIF LensModel)' },
  'exif/Sony_DSLR-A200.jpg': { fields: ['rating'], why: "ExifTool's Rating 0 comes from the Sony MakerNote; no EXIF/XMP rating exists" },
  'raw/exiftool_FujiFilm.raf': {
    fields: ['width'],
    why: 'metadata stub: ExifTool reports the RAF header raw size (8×8); we read the EXIF of the embedded JPEG (1440×960)',
  },
};

/**
 * HEIF displayed sizes. The labels give the stored image size (ispe) and the EXIF orientation; libheif (and
 * browsers) show the image as the container's irot/imir/clap properties say, and ignore EXIF Orientation.
 * For most phone files both agree (EXIF 6 + irot 90 → swapped), these do not:
 */
const HEIF_DISPLAY: Record<string, [number, number]> = {
  'heic/HMD_Nokia_8.3_5G.heif': [3456, 4608], // irot 90 in the container although EXIF says 1
  'heic/Samsung_Galaxy_S24_FE.heic': [4000, 1848], // EXIF says 6 but the container has no irot
  'heic/rotate_mirror_270.HEIC': [1209, 1547], // transforms applied by libheif; clap trims 1 px each way
  'live/IMG_7943.HEIC': [100, 133], // clap trims 1 px
};

/** Offsets we find where ExifTool's labels show none, and where they come from. */
const DERIVED_OFFSETS: Record<string, number> = {
  // From XMP written with the same wall clock and a zone (photoshop:DateCreated / xmp:CreateDate).
  'exif/Canon_DIGITAL_IXUS_400.jpg': 120,
  'exif/Nikon_D70.jpg': -240, // label create_date carries the same -04:00
  'exif/Pentax_K10D.jpg': 540,
  'exif/iptc-agency-photographer-example.jpg': 60,
  'exif/jolla.jpg': 120,
  'exif/no_exif.jpg': 120, // label create_date 2013:09:23 10:09:46+02:00
  'gps/big_ben_no_tsoffset_but_gps_utc.jpg': 60, // the case this file exists for: London BST
  'raw/exiftool_DNG.dng': -240,
  // From the GPS clock (UTC) against the camera clock; each matches the place and season.
  'heic/IMG_1034.heic': 480, // Guangzhou
  'heic/IMG_2682.heic': -300, // Nebraska, March (CDT)
  'duplicates/IMG_20180725_163423-tiny.jpg': 120, // Czechia, July
  'duplicates/IMG_20180725_163423.jpg': 120,
  'duplicates/iphone_hdr_NO.jpg': 120, // Madrid, April
  'duplicates/iphone_hdr_YES.jpg': 120,
};

const PHOTO_FOLDERS = ['exif', 'gps', 'heic', 'raw', 'live', 'duplicates'];
const NOT_PHOTOS = new Set(['exif/IMG_5910.xmp', 'live/IMG_7943_HEVC.MOV']);

function expectedDisplaySize(key: string, e: ExpectedMetadata): [number | null, number | null] {
  if (HEIF_DISPLAY[key]) return HEIF_DISPLAY[key];
  if (e.width === undefined || e.height === undefined) return [null, null];
  return (e.orientation ?? 1) >= 5 ? [e.height, e.width] : [e.width, e.height];
}

function checkAgainstLabel(key: string, m: PhotoMetadata, e: ExpectedMetadata): void {
  const skip = new Set(KNOWN_DIFFERENCES[key]?.fields ?? []);
  const msg = (field: string) => `${key}: ${field}`;

  if (!skip.has('make')) assert.equal(m.make, e.make === undefined ? null : String(e.make), msg('make'));
  if (!skip.has('model')) assert.equal(m.model, e.model ?? null, msg('model'));

  if (!skip.has('time')) {
    // datetime_original is the capture time; without it the label's create_date is what ExifTool saw as
    // the capture (only no_exif.jpg, whose time lives in XMP: we use it instead of falling back to file time).
    const labelTime = e.datetime_original ?? (key === 'exif/no_exif.jpg' ? e.create_date : undefined);
    if (labelTime) {
      assert.ok(m.taken_time, msg('taken_time present'));
      assert.equal(wallClockOf(m.taken_time, m.capture_offset_minutes), labelWallClock(labelTime), msg('taken wall clock'));
      assert.match(m.taken_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, msg('taken_time is ISO UTC'));
      const wantOffset = labelOffset(e.offset_time_original) ?? labelOffset(labelTime) ?? DERIVED_OFFSETS[key] ?? null;
      assert.equal(m.capture_offset_minutes, wantOffset, msg('capture offset'));
    } else {
      assert.equal(m.taken_time, null, msg('no capture time invented'));
    }
  }

  if (e.gps) {
    assert.ok(m.gps_latitude !== null && m.gps_longitude !== null, msg('gps present'));
    assert.ok(Math.abs(m.gps_latitude - e.gps.lat) < 1e-5, msg(`latitude ${m.gps_latitude} vs ${e.gps.lat}`));
    assert.ok(Math.abs(m.gps_longitude - e.gps.lon) < 1e-5, msg(`longitude ${m.gps_longitude} vs ${e.gps.lon}`));
    if (e.gps.alt_m !== undefined) assert.ok(m.gps_altitude !== null && Math.abs(m.gps_altitude - e.gps.alt_m) < 0.06, msg(`altitude ${m.gps_altitude} vs ${e.gps.alt_m}`));
  } else {
    assert.equal(m.gps_latitude, null, msg('no gps'));
    assert.equal(m.gps_longitude, null, msg('no gps'));
  }

  if (!skip.has('width')) {
    const [w, h] = expectedDisplaySize(key, e);
    assert.deepEqual([m.width, m.height], [w, h], msg('displayed size'));
  }
  if (e.orientation !== undefined && e.orientation >= 1) assert.equal(m.orientation, e.orientation, msg('orientation'));
  if (e.rating !== undefined && !skip.has('rating')) assert.equal(m.rating, e.rating, msg('rating'));
  if (e.keywords !== undefined) assert.deepEqual(m.keywords, ([] as string[]).concat(e.keywords), msg('keywords'));
  if (e.lens_model !== undefined && !skip.has('lens_model')) assert.equal(m.lens_model, e.lens_model, msg('lens_model'));
  if (e.media_group_uuid !== undefined) assert.equal(m.content_identifier, e.media_group_uuid, msg('content_identifier'));
}

describe('photo metadata against the corpus ground truth', () => {
  for (const folder of PHOTO_FOLDERS) {
    test(folder, async () => {
      let checked = 0;
      for (const [file, label] of Object.entries(labels(folder))) {
        const key = `${folder}/${file}`;
        if (NOT_PHOTOS.has(key)) continue;
        const { metadata, exif } = await extractPhotoMetadata(corpusPath(folder, file));
        checkAgainstLabel(key, metadata, label.expected_metadata);
        // The raw block is plain JSON: it survives a round trip unchanged and holds no typed arrays.
        assert.deepEqual(JSON.parse(JSON.stringify(exif)), exif, `${key}: raw exif is JSON-safe`);
        checked++;
      }
      assert.ok(checked > 0);
    });
  }
});

describe('photo metadata: specific behaviour', () => {
  test('the header the decode read (as ingest hands it over) gives the same metadata, without a second header parse', async () => {
    // Ingest opens each photo once (image-source.ts) and gives the header sharp read to the metadata, so the
    // displayed size costs no second read of the file's head. Every orientation of JPEG, PNG, HEIC (decoded
    // by heic-decode: no sharp header, so read here as before) and RAW (the sensor's size, never the preview's).
    const files = [
      ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((o) => [`exif/orientation_landscape_${o}.jpg`, `exif/orientation_portrait_${o}.jpg`]),
      'faces/face_009.png',
      'heic/IMG_0307.HEIC',
      'raw/RAW_NIKON_D1.NEF',
    ];
    const proto = Object.getPrototypeOf(sharp()) as { metadata: (...a: unknown[]) => Promise<unknown> };
    const original = proto.metadata;
    let parses = 0;
    proto.metadata = function (this: unknown, ...a: unknown[]) {
      parses++;
      return original.apply(this, a);
    };
    try {
      for (const f of files) {
        const [folder, name] = f.split('/') as [string, string];
        const file = corpusPath(folder, name);
        const type = await detect(file);
        const alone = await extractPhotoMetadata(file, { type });
        // A HEIC's pixels come from heic-decode, with no sharp header (openImage gives null): not decoded here.
        const opened = type?.mime === 'image/heic' ? { metadata: null, decoder: 'heic-decode' } : await openImage(file, { type });
        parses = 0;
        const shared = await extractPhotoMetadata(file, { type, header: Promise.resolve(opened.metadata) });
        assert.deepEqual(shared, alone, f);
        if (opened.decoder === 'sharp') assert.equal(parses, 0, `${f}: the header was parsed again`);
      }
    } finally {
      proto.metadata = original;
    }
  });

  test('camera and exposure fields', async () => {
    const { metadata: m } = await extractPhotoMetadata(corpusPath('heic', 'IMG_5195.HEIC'));
    assert.equal(m.make, 'Apple');
    assert.equal(m.f_number, 1.8);
    assert.equal(m.exposure_time, '1/391');
    assert.equal(m.iso_speed, 32);
    assert.equal(m.focal_length, 4.25);
    assert.equal(m.exposure_compensation, 0);
    assert.equal(m.lens_model, 'iPhone 11 Pro Max back triple camera 4.25mm f/1.8');
    // 15:47:53.054 at -05:00 → 20:47:53.054Z
    assert.equal(m.taken_time, '2021-04-11T20:47:53.054Z');
    assert.equal(m.capture_offset_minutes, -300);
    assert.equal(m.capture_offset_source, 'exif');
  });

  test('time zones: from the tag, from IPTC, from a trailing Z, none at all', async () => {
    const thompson = (await extractPhotoMetadata(corpusPath('gps', 'thompson-springs.jpg'))).metadata;
    assert.equal(thompson.taken_time, '2022-01-10T19:15:44.310Z'); // IPTC 151544-0400; XMP gives .31 s
    assert.equal(thompson.capture_offset_minutes, -240);
    const z = (await extractPhotoMetadata(corpusPath('exif', 'no_make_date_with_Z.jpg'))).metadata;
    assert.equal(z.taken_time, '2013-07-05T03:18:27.000Z');
    assert.equal(z.capture_offset_minutes, 0);
    // No zone anywhere: the wall clock is kept as local-naive (written as UTC, offset null).
    const naive = (await extractPhotoMetadata(corpusPath('exif', 'Canon_40D.jpg'))).metadata;
    assert.equal(naive.taken_time, '2008-05-30T15:56:01.000Z');
    assert.equal(naive.capture_offset_minutes, null);
    // GPS clock a day away from the camera clock: not a zone, so nothing is derived.
    const stale = (await extractPhotoMetadata(corpusPath('gps', 'DSCN0010.jpg'))).metadata;
    assert.equal(stale.capture_offset_minutes, null);
  });

  test('a zone written inside the date string is kept, in every tag that carries a date; an OffsetTime tag wins over it', async () => {
    const dir = tempDir('zones');
    const still = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    const jpegWith = async (ifd2: Record<string, string>) => {
      const file = path.join(dir, `zone-${Object.values(ifd2).join('-').replace(/[^\w]+/g, '_')}.jpg`);
      fs.writeFileSync(file, await sharp(still).withExif({ IFD0: { Make: 'DJI' }, IFD2: ifd2 }).toBuffer());
      return file;
    };
    const xmpWith = (tag: string, value: string) => {
      const file = path.join(dir, `zone-xmp-${tag.replace(':', '_')}-${value.replace(/[^\w]+/g, '_')}.jpg`);
      const packet =
        `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
        `<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" ${tag}="${value}"/>` +
        `</rdf:RDF></x:xmpmeta>`;
      fs.writeFileSync(file, withXmp(still, packet));
      return file;
    };
    // [file, expected taken_time, expected offset, whether the two zones disagree]
    const cases: Array<[string, string, number, boolean?]> = [
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18.605+00:00' }), '2019-04-30T15:56:18.605Z', 0],
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18+02:00' }), '2019-04-30T13:56:18.000Z', 120],
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18.5-0530' }), '2019-04-30T21:26:18.500Z', -330],
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18Z' }), '2019-04-30T15:56:18.000Z', 0],
      [await jpegWith({ DateTimeDigitized: '2019:04:30 15:56:18.605+09:00' }), '2019-04-30T06:56:18.605Z', 540],
      // Both say the same: one zone.
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18.605+02:00', OffsetTimeOriginal: '+02:00' }), '2019-04-30T13:56:18.605Z', 120],
      // They disagree: the OffsetTime tag (the one a person's zone correction changes) wins, the wall clock stays.
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18.605+00:00', OffsetTimeOriginal: '+02:00' }), '2019-04-30T13:56:18.605Z', 120, true],
      [await jpegWith({ DateTimeDigitized: '2019:04:30 15:56:18+00:00', OffsetTimeDigitized: '-04:00' }), '2019-04-30T19:56:18.000Z', -240, true],
      // A blank OffsetTimeOriginal does not hide OffsetTime.
      [await jpegWith({ DateTimeOriginal: '2019:04:30 15:56:18', OffsetTimeOriginal: '   :  ', OffsetTime: '+01:00' }), '2019-04-30T14:56:18.000Z', 60],
    ];
    for (const tag of ['exif:DateTimeOriginal', 'photoshop:DateCreated', 'xmp:CreateDate']) {
      cases.push([xmpWith(tag, '2019-04-30T15:56:18.605+00:00'), '2019-04-30T15:56:18.605Z', 0]);
      cases.push([xmpWith(tag, '2019-04-30T15:56:18+0200'), '2019-04-30T13:56:18.000Z', 120]);
      cases.push([xmpWith(tag, '2019-04-30T15:56:18.605Z'), '2019-04-30T15:56:18.605Z', 0]);
      cases.push([xmpWith(tag, '2019:04:30 15:56:18-03:00'), '2019-04-30T18:56:18.000Z', -180]);
    }
    for (const [file, taken, offset, disagree = false] of cases) {
      const { metadata: m, warnings } = await extractPhotoMetadata(file);
      assert.deepEqual([m.taken_time, m.capture_offset_minutes], [taken, offset], path.basename(file));
      assert.equal(warnings.some((w) => w.includes('disagrees')), disagree, `${path.basename(file)}: a disagreement is reported`);
    }
  });

  test('empty GPS block, NaN rationals and 0,0 are no location', async () => {
    for (const [folder, file] of [['gps', 'empty_gps.jpg'], ['heic', 'Samsung_SM-G975F.heic'], ['gps', 'big_ben_only_time.jpg']]) {
      const { metadata } = await extractPhotoMetadata(corpusPath(folder!, file!));
      assert.equal(metadata.gps_latitude, null, file);
      assert.equal(metadata.gps_altitude, null, file);
    }
    const kenya = (await extractPhotoMetadata(corpusPath('gps', 'Kodak_CX7530_kenya.jpg'))).metadata;
    assert.ok(kenya.gps_latitude! < 0, 'south of the equator is negative');
  });

  test('rating, keywords, description; camera boilerplate dropped', async () => {
    const m = (await extractPhotoMetadata(corpusPath('exif', 'IMG_5910.jpg'))).metadata;
    assert.equal(m.rating, 3);
    assert.deepEqual(m.keywords, ['Alvin the Squirrel', 'Berkley', 'USA']);
    assert.equal(m.description, 'Squirrel at berkely');
    for (const file of ['exiforg_sanyo-vpcg250.jpg', 'Sony_DSLR-A200.jpg', 'WWL_Polaroid_ION230.jpg']) {
      assert.equal((await extractPhotoMetadata(corpusPath('exif', file))).metadata.description, null, file);
    }
    // A NUL inside the Model string ends it ("ION230\0FH..." → "ION230").
    assert.equal((await extractPhotoMetadata(corpusPath('exif', 'WWL_Polaroid_ION230.jpg'))).metadata.model, 'ION230');
  });

  test('Live Photo: the still and its movie share the content identifier', async () => {
    const still = (await extractPhotoMetadata(corpusPath('live', 'IMG_7943.HEIC'))).metadata;
    const movieLabel = labels('live')['IMG_7943_HEVC.MOV']!.expected_metadata;
    assert.equal(still.content_identifier, movieLabel.content_identifier);
    assert.equal((await extractPhotoMetadata(corpusPath('live', 'pixel_8_not_motion.jpg'))).metadata.content_identifier, null);
  });

  test('XMP sidecar values are merged over the embedded ones', async () => {
    const dir = tempDir('sidecar');
    const sidecar = path.join(dir, 'IMG_5910.xmp');
    const xmp = fs.readFileSync(corpusPath('exif', 'IMG_5910.xmp'), 'utf8').replace(/xmp:Rating="3"|<xmp:Rating>3<\/xmp:Rating>/, (s) => s.replace('3', '5'));
    fs.writeFileSync(sidecar, xmp);
    const { metadata } = await extractPhotoMetadata(corpusPath('exif', 'IMG_5910.jpg'), { sidecarPath: sidecar });
    assert.equal(metadata.rating, 5);
    assert.deepEqual(metadata.keywords, ['Alvin the Squirrel', 'Berkley', 'USA']);
  });

  test('raw EXIF block for getAssetExif', async () => {
    const { exif } = await extractPhotoMetadata(corpusPath('heic', 'IMG_5195.HEIC'));
    const ifd0 = exif.ifd0 as Record<string, unknown>;
    const ex = exif.exif as Record<string, unknown>;
    assert.equal(ifd0.Make, 'Apple');
    assert.equal(ex.DateTimeOriginal, '2021:04:11 15:47:53'); // strings as written, never revived to local Dates
    assert.equal(ex.ExifVersion, '0232'); // printable bytes become text
    assert.equal(typeof exif.maker_note_bytes, 'number'); // the MakerNote blob itself stays out
    assert.ok(JSON.stringify(exif).length < 20_000);
  });
});

describe('photo metadata: damaged and hostile input never throws', () => {
  const dir = tempDir('damaged');

  test('corrupted.jpg (damaged image data): full metadata', async () => {
    const { metadata } = await extractPhotoMetadata(corpusPath('exif', 'corrupted.jpg'));
    assert.equal(metadata.make, 'OLYMPUS IMAGING CORP.');
    assert.equal(metadata.taken_time, '2015-09-08T11:02:17.000Z');
    assert.equal(metadata.width, 3648);
  });

  test('truncated RAW (ProRAW cut to 64 KB): metadata parses, reports no preview', async () => {
    const { metadata } = await extractPhotoMetadata(corpusPath('raw', 'iPhone12Pro_ProRAW_truncated.dng'));
    assert.equal(metadata.model, 'iPhone 12 Pro');
    assert.equal(metadata.capture_offset_minutes, -300);
    assert.deepEqual([metadata.width, metadata.height], [3024, 4032]);
  });

  test('truncated copies at many lengths, flipped bytes and garbage', async () => {
    const sources = [corpusPath('heic', 'IMG_5195.HEIC'), corpusPath('gps', 'HMD_Nokia_8.3_5G.jpg'), corpusPath('raw', 'RAW_NIKON_D1.NEF'), corpusPath('raw', 'Canon_EOS_R6_pruned.CR3')];
    let i = 0;
    for (const src of sources) {
      const bytes = fs.readFileSync(src);
      for (const len of [0, 3, 12, 100, 700, 3000, 20_000, 70_000]) {
        const p = path.join(dir, `cut-${i++}${path.extname(src)}`);
        fs.writeFileSync(p, bytes.subarray(0, len));
        const r = await extractPhotoMetadata(p);
        assert.ok(Array.isArray(r.metadata.keywords), p);
      }
      const flipped = Buffer.from(bytes.subarray(0, 200_000));
      for (let k = 20; k < flipped.length; k += 97) flipped[k] = flipped[k]! ^ 0x5a;
      const p = path.join(dir, `flipped-${i++}${path.extname(src)}`);
      fs.writeFileSync(p, flipped);
      await extractPhotoMetadata(p);
    }
    const garbage = path.join(dir, 'garbage.jpg');
    fs.writeFileSync(garbage, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]), Buffer.from('Exif\0\0MM\0*\xff\xff\xff\xff', 'latin1'), Buffer.alloc(500, 0xff)]));
    const r = await extractPhotoMetadata(garbage);
    assert.equal(r.metadata.taken_time, null);
  });

  test('a missing file is the caller’s error', async () => {
    await assert.rejects(extractPhotoMetadata(path.join(dir, 'does-not-exist.jpg')), /ENOENT/);
  });
});

describe('capture time helpers', () => {
  test('parsing', () => {
    assert.deepEqual(parseWallClock('2008:05:30 15:56:01'), { local: '2008-05-30T15:56:01.000', offsetMinutes: null });
    assert.deepEqual(parseWallClock('2015-06-12T13:40:32.41'), { local: '2015-06-12T13:40:32.410', offsetMinutes: null });
    assert.deepEqual(parseWallClock('2007-04-19T11:03:15-06:00'), { local: '2007-04-19T11:03:15.000', offsetMinutes: -360 });
    assert.deepEqual(parseWallClock('2021:04:11 15:47:53', '054'), { local: '2021-04-11T15:47:53.054', offsetMinutes: null });
    for (const bad of ['0000:00:00 00:00:00', '    :  :     :  :  ', '2021:02:30 10:00:00', '1970-01-01', 'yesterday', '']) {
      assert.equal(parseWallClock(bad), null, bad);
    }
    assert.equal(parseOffset('+05:30'), 330);
    assert.equal(parseOffset('-0800'), -480);
    assert.equal(parseOffset('+15:00'), null);
    assert.equal(toTakenTime('2020-01-01T00:30:00.000', 60), '2019-12-31T23:30:00.000Z');
  });

  test('GPS clock zone: accepted near a quarter hour, refused otherwise', () => {
    assert.equal(offsetFromGpsClock('2023-06-07T13:45:55.000', '2023:06:07', [12, 45, 55]), 60);
    assert.equal(offsetFromGpsClock('2023-06-07T13:47:30.000', '2023:06:07', [12, 45, 55]), 60); // 1.5 min drift
    assert.equal(offsetFromGpsClock('2023-06-07T13:52:00.000', '2023:06:07', [12, 45, 55]), null); // 6 min off
    assert.equal(offsetFromGpsClock('2008-10-22T16:28:39.000', '2008:10:23', [14, 27, 7.24]), null); // a day apart
    assert.equal(offsetFromGpsClock('2020-01-01T05:45:00.000', '2020:01:01', [0, 0, 0]), 345); // Nepal +05:45
  });

  test('exposure time formatting', () => {
    assert.equal(formatExposureTime(1 / 250), '1/250');
    assert.equal(formatExposureTime(0.0025575447570332483), '1/391');
    assert.equal(formatExposureTime(2), '2');
    assert.equal(formatExposureTime(0.3), '0.3');
    assert.equal(formatExposureTime(0), null);
    assert.equal(formatExposureTime(null), null);
  });
});
