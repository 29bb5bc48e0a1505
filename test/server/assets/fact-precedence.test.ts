/**
 * The one precedence rule (server/src/features/assets/fact-precedence.ts), per field, as a table of cases:
 * a person's edit > the source's facts > the file's embedded metadata > the file's own dates.
 * Pure: no server, no files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settleFacts, type KeptFacts, type ReadCapture, type SourceFacts } from '../../../server/src/features/assets/fact-precedence.ts';

const EXIF_TIME = Date.UTC(2008, 9, 22, 16, 29, 49);
const MTIME = Date.UTC(2020, 0, 2, 3, 4, 5);
const SOURCE_TIME = Date.UTC(1999, 11, 31, 23, 59, 0);

const exif: ReadCapture = { taken_time: EXIF_TIME, capture_offset_minutes: 120, gps_latitude: 43.46, gps_longitude: 11.88, description: 'embedded caption', rating: 3 };
const bare: ReadCapture = { taken_time: null, capture_offset_minutes: null, gps_latitude: null, gps_longitude: null };
const facts: SourceFacts = { capturedAt: { time: SOURCE_TIME, offsetMinutes: -300 }, gps: { latitude: 51.5, longitude: -0.12 }, description: 'from the album export', favorite: true, rating: 5 };
const fresh = (f: SourceFacts): KeptFacts => ({ facts: f, fresh: true });
const applied = (f: SourceFacts): KeptFacts => ({ facts: f, fresh: false });

const photo = { type: 'PHOTO' as const, file_modified_time: MTIME, file_modified_offset_minutes: 60, time_source: null, place_source: null, description: null, liked: 0, rating: 0 };
const personEdited = { ...photo, time_source: 'user' as const, place_source: 'user' as const, description: 'my caption', liked: 0, rating: 2 };

interface Case {
  name: string;
  row: Parameters<typeof settleFacts>[0];
  read: ReadCapture;
  kept: KeptFacts | null;
  want: Record<string, unknown>;
  absent?: string[];
}

const CASES: Case[] = [
  {
    name: 'metadata over the file’s own dates',
    row: photo,
    read: exif,
    kept: null,
    want: { taken_time: EXIF_TIME, capture_offset_minutes: 120, time_source: 'file', gps_latitude: 43.46, place_source: 'file', description: 'embedded caption', rating: 3 },
    absent: ['liked'],
  },
  {
    name: 'the file’s modification time is the last resort',
    row: photo,
    read: bare,
    kept: null,
    want: { taken_time: MTIME, capture_offset_minutes: 60, time_source: 'file_modified', gps_latitude: null, place_source: null },
    absent: ['description', 'rating', 'liked'],
  },
  {
    name: 'a video’s container date is `container`',
    row: { ...photo, type: 'VIDEO' },
    read: { ...bare, taken_time: EXIF_TIME, capture_offset_minutes: 0 },
    kept: null,
    want: { taken_time: EXIF_TIME, time_source: 'container', file_time_source: 'container' },
  },
  {
    name: 'no date anywhere: null',
    row: { ...photo, file_modified_time: null },
    read: bare,
    kept: null,
    want: { taken_time: null, time_source: null, file_time_source: null },
  },
  {
    name: 'source facts over metadata (time, zone, place, caption, favourite, rating)',
    row: photo,
    read: exif,
    kept: fresh(facts),
    want: { taken_time: SOURCE_TIME, capture_offset_minutes: -300, time_source: 'source', gps_latitude: 51.5, gps_longitude: -0.12, place_source: 'file', description: 'from the album export', liked: 1, rating: 5, file_taken_time: EXIF_TIME, file_time_source: 'file', file_gps_latitude: 43.46 },
  },
  {
    name: 'source facts over the file’s own dates',
    row: photo,
    read: bare,
    kept: fresh({ capturedAt: { time: SOURCE_TIME, offsetMinutes: null } }),
    want: { taken_time: SOURCE_TIME, capture_offset_minutes: null, time_source: 'source', file_taken_time: MTIME, file_time_source: 'file_modified' },
  },
  {
    name: 'a source’s "no place" clears the file’s GPS',
    row: photo,
    read: exif,
    kept: fresh({ gps: null }),
    want: { gps_latitude: null, gps_longitude: null, place_source: null, file_gps_latitude: 43.46, time_source: 'file' },
  },
  {
    name: 'facts that do not say leave the field to the file',
    row: photo,
    read: exif,
    kept: fresh({ favorite: true }),
    want: { taken_time: EXIF_TIME, time_source: 'file', gps_latitude: 43.46, description: 'embedded caption', rating: 3, liked: 1 },
  },
  {
    name: 'a person’s edit over source facts and metadata',
    row: personEdited,
    read: exif,
    kept: fresh(facts),
    want: { file_taken_time: EXIF_TIME, file_gps_latitude: 43.46 },
    absent: ['taken_time', 'time_source', 'gps_latitude', 'place_source', 'description', 'rating'],
  },
  {
    name: 'time and place are re-applied on every run; the one-shot facts only while new',
    row: photo,
    read: exif,
    kept: applied(facts),
    want: { taken_time: SOURCE_TIME, time_source: 'source', gps_latitude: 51.5, description: 'embedded caption', rating: 3 },
    absent: ['liked'],
  },
  {
    name: 'a person who cleared a like keeps it cleared on a re-run',
    row: { ...photo, liked: 0 },
    read: bare,
    kept: applied({ favorite: true }),
    want: {},
    absent: ['liked'],
  },
  {
    name: 'a caption or rating held is never overwritten',
    row: { ...photo, description: 'mine', rating: 1, liked: 1 },
    read: exif,
    kept: fresh(facts),
    want: {},
    absent: ['description', 'rating', 'liked'],
  },
];

for (const c of CASES) {
  test(`precedence: ${c.name}`, () => {
    const out = settleFacts(c.row, c.read, c.kept) as Record<string, unknown>;
    for (const [k, v] of Object.entries(c.want)) assert.deepEqual(out[k], v, `${k}`);
    for (const k of c.absent ?? []) assert.ok(!(k in out), `${k} is left as it is (got ${String(out[k])})`);
  });
}
