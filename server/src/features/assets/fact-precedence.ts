/**
 * Which value of each fact an asset shows, and where it comes from: ONE rule, per field, for every source that hands
 * a file to the catalog (uploads, scans, the watcher, importers, approved folders) and every re-read of the file.
 *
 *   field                     a person's edit         > source facts        > embedded metadata       > the file's own dates
 *   ------------------------  ----------------------  --------------------  ------------------------  -------------------------
 *   capture time and zone     `user` (corrections)    `source` capturedAt   `file` (EXIF/XMP/IPTC),   `file_modified` (the disk's
 *                                                                           `container` (video/audio)  mtime, or the uploading
 *                                                                                                      device's `last_modified`)
 *   place (GPS)               `user` (set or cleared) gps (null = no place)  the file's GPS            -
 *   description               any description held    description          the embedded caption      -
 *   favourite                 (see below)             favorite             -                         -
 *   rating                    any rating held (1-5)   rating               the embedded rating       -
 *
 * - Time and place are recomputed on every run from what is kept: the person's correction is marked in
 *   `time_source`/`place_source` `user`, the source's facts are kept in `asset_source_facts` (migration 0031), the
 *   file's values in `file_*` (migration 0026). So a re-read or a re-run never loses a person's edit and applies the
 *   source's facts again. null capture time: no date at all (an upload that did not say when its file was modified).
 * - `place_source` has no `source` value (the contract lists `file` and `user`): a place from the source's facts is
 *   `file`, which means "not a person's". Only `time_source` tells the source apart (`source`).
 * - Description, favourite and rating have no per-field mark of a person's edit. Decision: what the asset holds
 *   stands (a person's caption, like or stars are never overwritten); the source's value fills an empty field, and
 *   only while its facts are new (not yet applied, `fresh`), so a person who cleared a like or a caption the
 *   source gave does not get it back from a re-run. The embedded caption and rating fill an empty field on any run
 *   (as before source facts existed).
 * - Album names (SourceFacts.albumNames) are not a field of the asset: they are kept with the facts, and the names
 *   not named before go out on the `asset.sourced` change for the albums feature to act on
 *   (features/albums/source-albums.ts). The kept names are the union of every name the asset's sources named, so they
 *   are also the names already applied: each name is applied once (a person who took the photo out of an album does
 *   not get it put back by a re-run of the same facts), and a re-run whose facts name a NEW album adds it.
 *   Names are compared trimmed and case-insensitively (`albumKey`).
 *
 * Re-runs (`mergeFacts`): a source handing content the owner already has, with facts, is heard again
 * (features/intake/door.ts answers `updated` when the kept facts change, `unchanged` when they do not):
 * - the same item of the source (same `sourceRef` source and id, or no item named when the facts were kept): its new
 *   facts replace the kept ones (a new `version`, or different values), the album names joined to those kept, and the
 *   effective values are settled again from the kept `file_*` columns and the new facts (`resettleFacts`, no new read
 *   of the file). The one-shot facts are fresh again only when one of their values changed: a new version that moved
 *   the time does not give back a favourite the person cleared;
 * - another item holding the same content (Google Takeout puts a photo in "Photos from 2020" and in each album's
 *   folder): the kept facts stand (the first item's time and place), only its album names join the kept ones.
 * An upload (the person's own file again) is a duplicate and says nothing new: its facts are not merged.
 *
 * The effective values live in the columns every reader already uses (taken_time, capture_offset_minutes,
 * gps_latitude, gps_longitude, description, liked, rating), so the timeline, map, places, events and search follow
 * without knowing any of this; the file's values are kept in `file_*` so a restore and an undo can put them back.
 *
 * Pure: no I/O. The pipeline calls `settleFacts` in its commit transaction.
 */
import type { AssetRow } from './assets.store.ts';

export type TimeSource = 'source' | 'file' | 'container' | 'file_modified' | 'user';
export type PlaceSource = 'file' | 'user';

/** A time as a source or device reported it: the instant, and the zone when it said. */
export interface ReportedTime {
  time: number;
  offsetMinutes: number | null;
}

/**
 * What a source says of a file it hands to the catalog (features/intake, `Admission.facts`): all optional, absent =
 * the source does not say.
 */
export interface SourceFacts {
  capturedAt?: ReportedTime;
  /** null = "no place". */
  gps?: { latitude: number; longitude: number } | null;
  description?: string;
  favorite?: boolean;
  rating?: 0 | 1 | 2 | 3 | 4 | 5;
  albumNames?: string[];
  /** The name to show, search and download; the stored file may be `name (1).ext`. */
  originalName?: string;
  /**
   * The file's own modification time as the source knew it (the capture time of last resort). null: the source
   * could not say, and the stored copy's time (its arrival) must not be used either.
   */
  fileModified?: ReportedTime | null;
  /** The source's own id of the item, for re-runs. */
  sourceRef?: { source: string; id: string; version?: string };
}

/** The facts of SourceFacts this rule decides on (the others are applied at the catalog write or by other features). */
export const PRECEDENCE_FACTS = ['capturedAt', 'gps', 'description', 'favorite', 'rating', 'albumNames'] as const;

/**
 * Whether the source said anything this rule (or the albums feature) acts on, named the item, or named the file (a
 * name a source gave stands: a scan does not rename the asset after its file, catalog-writer.ts): worth keeping.
 */
export function factsWorthKeeping(f: SourceFacts | undefined): f is SourceFacts {
  return !!f && (f.sourceRef !== undefined || f.originalName !== undefined || PRECEDENCE_FACTS.some((k) => f[k] !== undefined));
}

/** How two album names are compared: trimmed, case-insensitively ("Trip " and "trip" are one album). */
export function albumKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase();
}

/** What keeping a source's facts for an asset that may already have some does (the rule's "Re-runs" above). */
export interface FactsMerge {
  /** The facts to keep. */
  facts: SourceFacts;
  /** Whether they differ from the kept ones (nothing to write when not). */
  changed: boolean;
  /** Whether a one-shot fact (description, favourite, rating) changed: they are fresh again. */
  oneShotChanged: boolean;
  /** Album names none of the kept facts named (as given, trimmed; one per key): to apply. */
  newAlbumNames: string[];
}

const ONE_SHOT = ['description', 'favorite', 'rating'] as const;

/** The facts to keep when a source hands `given` for an asset whose kept facts are `kept` (null: none yet). */
export function mergeFacts(kept: SourceFacts | null, given: SourceFacts): FactsMerge {
  const keys = new Set((kept?.albumNames ?? []).map(albumKey));
  const newAlbumNames: string[] = [];
  for (const name of given.albumNames ?? []) {
    const key = albumKey(name);
    if (key === '' || keys.has(key)) continue;
    keys.add(key);
    newAlbumNames.push(name.trim());
  }
  const albumNames = [...(kept?.albumNames ?? []), ...newAlbumNames];
  const sameItem = !kept?.sourceRef || (given.sourceRef?.source === kept.sourceRef.source && given.sourceRef.id === kept.sourceRef.id);
  const base: SourceFacts = !kept ? given : sameItem ? { ...(kept.originalName !== undefined ? { originalName: kept.originalName } : {}), ...given } : kept;
  const { albumNames: _dropped, ...rest } = base;
  const facts: SourceFacts = albumNames.length ? { ...rest, albumNames } : rest;
  const oneShotChanged = !kept || ONE_SHOT.some((k) => canonical(kept[k]) !== canonical(facts[k]));
  return { facts, changed: !kept || canonical(kept) !== canonical(facts), oneShotChanged, newAlbumNames };
}

/** JSON with object keys sorted: two facts are the same whatever order their source wrote the keys in. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x)) ?? 'undefined';
}

/** The capture columns of migration 0026 on an asset row. */
export interface CaptureColumns {
  file_modified_time: number | null;
  file_modified_offset_minutes: number | null;
  file_taken_time: number | null;
  file_capture_offset_minutes: number | null;
  file_time_source: Exclude<TimeSource, 'user' | 'source'> | null;
  file_gps_latitude: number | null;
  file_gps_longitude: number | null;
  time_source: TimeSource | null;
  place_source: PlaceSource | null;
}

/** What the pipeline read from the file's metadata (null: the file does not say). */
export interface ReadCapture {
  taken_time: number | null;
  capture_offset_minutes: number | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  /** The embedded caption and rating (photos); absent for media without them. */
  description?: string | null;
  rating?: number | null;
}

/** The source's facts as kept (asset_source_facts): `fresh` while the one-shot ones were never applied. */
export interface KeptFacts {
  facts: SourceFacts;
  fresh: boolean;
}

type Fields = Partial<Pick<AssetRow, 'taken_time' | 'capture_offset_minutes' | 'gps_latitude' | 'gps_longitude' | 'description' | 'liked' | 'rating'> & CaptureColumns>;

type Row = Pick<AssetRow, 'type'> & Partial<CaptureColumns> & Partial<Pick<AssetRow, 'description' | 'liked' | 'rating'>>;

/**
 * The columns to write after reading the file: the file's values (its metadata's date, else its modification
 * time) always; the effective ones by the rule above.
 */
export function settleFacts(row: Row, read: ReadCapture, kept: KeptFacts | null = null): Fields {
  const facts = kept?.facts ?? {};
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
  return { ...file, ...effective(row, file, facts, kept?.fresh ?? false, read) };
}

/**
 * The effective columns again after a source handed new facts for a file the catalog holds (a re-run whose item
 * changed, features/intake/door.ts), without reading the file: from the file's values kept in `file_*` and the new
 * facts, by the same rule (a person's time or place still wins; the one-shot facts fill empty fields while fresh).
 * The embedded caption and rating had their turn when the file was read.
 */
export function resettleFacts(row: Row & Partial<Pick<AssetRow, 'taken_time' | 'capture_offset_minutes' | 'gps_latitude' | 'gps_longitude'>>, kept: KeptFacts): Fields {
  return effective(row, row, kept.facts, kept.fresh, {});
}

/** The effective values by the rule, from the file's values (`file`) and the source's facts. */
function effective(row: Row, file: Fields, facts: SourceFacts, fresh: boolean, read: Pick<ReadCapture, 'description' | 'rating'>): Fields {
  const out: Fields = {};
  if (row.time_source !== 'user') Object.assign(out, sourceTime(facts) ?? fileTime(file));
  if (row.place_source !== 'user') Object.assign(out, sourcePlace(facts) ?? filePlace(file));

  const empty = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
  if (empty(row.description)) {
    const caption = fresh && !empty(facts.description) ? facts.description : !empty(read.description) ? read.description : undefined;
    if (caption !== undefined && caption !== null) out.description = caption;
  }
  if (!row.rating) {
    const stars = fresh && facts.rating ? facts.rating : read.rating ? Math.max(0, Math.min(5, Math.round(read.rating))) : 0;
    if (stars) out.rating = stars;
  }
  if (!row.liked && fresh && facts.favorite === true) out.liked = 1;
  return out;
}

/** The effective time columns from the source's facts, when it gave a capture time. */
function sourceTime(f: SourceFacts): Fields | null {
  if (!f.capturedAt) return null;
  return { taken_time: f.capturedAt.time, capture_offset_minutes: f.capturedAt.offsetMinutes, time_source: 'source' };
}

/** The effective place columns from the source's facts, when it said where (or that there is no place). */
function sourcePlace(f: SourceFacts): Fields | null {
  if (f.gps === undefined) return null;
  if (f.gps === null) return { gps_latitude: null, gps_longitude: null, place_source: null };
  return { gps_latitude: f.gps.latitude, gps_longitude: f.gps.longitude, place_source: 'file' };
}

/**
 * The effective time columns once a person's correction is taken back (restoreAssetCaptureTime): the next in the
 * rule, the source's capture time, else the file's.
 */
export function uncorrectedTime(row: Pick<Fields, 'file_taken_time' | 'file_capture_offset_minutes' | 'file_time_source'>, kept: KeptFacts | null): Fields {
  return (kept && sourceTime(kept.facts)) ?? fileTime(row);
}

/** The effective place columns once a person's correction is taken back (restoreAssetLocation): the source's, else the file's. */
export function uncorrectedPlace(row: Pick<Fields, 'file_gps_latitude' | 'file_gps_longitude'>, kept: KeptFacts | null): Fields {
  return (kept && sourcePlace(kept.facts)) ?? filePlace(row);
}

/** The effective time columns when the file's values stand (no correction, no source time). */
export function fileTime(f: Pick<Fields, 'file_taken_time' | 'file_capture_offset_minutes' | 'file_time_source'>): Fields {
  return { taken_time: f.file_taken_time ?? null, capture_offset_minutes: f.file_capture_offset_minutes ?? null, time_source: f.file_time_source ?? null };
}

/** The effective place columns when the file's values stand. */
export function filePlace(f: Pick<Fields, 'file_gps_latitude' | 'file_gps_longitude'>): Fields {
  const lat = f.file_gps_latitude ?? null;
  const lon = f.file_gps_longitude ?? null;
  return { gps_latitude: lat, gps_longitude: lon, place_source: lat !== null && lon !== null ? 'file' : null };
}
