/**
 * Which capture time and place an asset shows, and where each comes from (migration 0026).
 *
 * Time, best first:
 *   `user`           a person's correction (features/assets/api/corrections.service.ts): wins over everything,
 *                    and re-reading the file never changes it;
 *   `file`           a photo's own metadata (EXIF, XMP, IPTC);
 *   `container`      a video's or audio file's container date (a zero or impossible one is no date: adapters/media);
 *   `file_modified`  the file's modification time: the disk's for scanned and watched files, the uploading
 *                    device's for uploads (the client's `last_modified`). A guess the UI marks ("check it");
 *   null             no date at all (an upload that did not say when its file was modified).
 * Place: `user` (set, or cleared: a person's "no place") over `file` (the file's GPS); null = none.
 *
 * The effective values live in the columns every reader already uses (taken_time, capture_offset_minutes,
 * gps_latitude, gps_longitude), so the timeline, map, places, events and search follow without knowing any of
 * this; the file's values are kept in `file_*` so a restore and an undo can put them back.
 */
import type { AssetRow } from './assets.store.ts';

export type TimeSource = 'file' | 'container' | 'file_modified' | 'user';
export type PlaceSource = 'file' | 'user';

/** The capture columns of migration 0026 on an asset row. */
export interface CaptureColumns {
  file_modified_time: number | null;
  file_modified_offset_minutes: number | null;
  file_taken_time: number | null;
  file_capture_offset_minutes: number | null;
  file_time_source: Exclude<TimeSource, 'user'> | null;
  file_gps_latitude: number | null;
  file_gps_longitude: number | null;
  time_source: TimeSource | null;
  place_source: PlaceSource | null;
}

/** What the pipeline read from the file's metadata. */
export interface ReadCapture {
  taken_time: number | null;
  capture_offset_minutes: number | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
}

type Fields = Partial<Pick<AssetRow, 'taken_time' | 'capture_offset_minutes' | 'gps_latitude' | 'gps_longitude'> & CaptureColumns>;

/**
 * The columns to write after reading the file: the file's values (its metadata's date, else its modification
 * time) always; the effective ones only where no person corrected them.
 */
export function captureFields(row: Pick<AssetRow, 'type'> & Partial<CaptureColumns>, read: ReadCapture): Fields {
  const metadataSource = row.type === 'PHOTO' ? 'file' : 'container';
  const fromMetadata = read.taken_time !== null;
  const modified = row.file_modified_time ?? null;
  const file: Fields = {
    file_taken_time: fromMetadata ? read.taken_time : modified,
    file_capture_offset_minutes: fromMetadata ? read.capture_offset_minutes : modified === null ? null : (row.file_modified_offset_minutes ?? null),
    file_time_source: fromMetadata ? metadataSource : modified === null ? null : 'file_modified',
    file_gps_latitude: read.gps_latitude,
    file_gps_longitude: read.gps_longitude,
  };
  const out: Fields = { ...file };
  if (row.time_source !== 'user') Object.assign(out, fileTime(file));
  if (row.place_source !== 'user') Object.assign(out, filePlace(file));
  return out;
}

/** The effective time columns when the file's values stand (a restore, or no correction). */
export function fileTime(f: Pick<Fields, 'file_taken_time' | 'file_capture_offset_minutes' | 'file_time_source'>): Fields {
  return { taken_time: f.file_taken_time ?? null, capture_offset_minutes: f.file_capture_offset_minutes ?? null, time_source: f.file_time_source ?? null };
}

/** The effective place columns when the file's values stand. */
export function filePlace(f: Pick<Fields, 'file_gps_latitude' | 'file_gps_longitude'>): Fields {
  const lat = f.file_gps_latitude ?? null;
  const lon = f.file_gps_longitude ?? null;
  return { gps_latitude: lat, gps_longitude: lon, place_source: lat !== null && lon !== null ? 'file' : null };
}
