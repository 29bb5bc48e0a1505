/**
 * A person's corrections of when and where their photos and videos were taken (issue 24): a scanned print, a
 * camera with a wrong clock, a phone without GPS.
 *
 * Decisions (the contract is silent):
 * - Owner only (the access layer's `change`: another member's asset answers 404, one shared with the caller
 *   403 `asset_read_only`); an asset in the Trash answers 409 `asset_in_trash` like every other edit.
 * - One asset: a date, time of day and zone (`offset_minutes`; null = zone unknown, the time is then kept as
 *   the wall clock, the convention of zone-less files, adapters/media/capture-time.ts). Many: the same shift for
 *   all (minutes; a camera clock set wrongly) and/or one zone for all (each keeps the wall clock its camera
 *   showed, now read in that zone: a camera left on home time). Assets without any date cannot be shifted:
 *   they are left as they are and listed in `skipped`.
 * - Place: a position, or a place name looked up in the offline gazetteer (features/places: the best match,
 *   see place-search.ts; 422 `place_not_found` when none), or none at all (cleared: a person's "no place" also
 *   wins over the file's GPS).
 * - The person's values win over every other source and survive re-processing (fact-precedence.ts); the
 *   file is never rewritten. "Restore" puts the file's values back.
 * - Every save (a correction, a restore) is one correction, answered with its `correction_id`;
 *   undoAssetCorrection puts back what each asset had before it, except on assets a later correction of the
 *   same kind changed since (undo the later one first). A correction is undone once (409 after that).
 * - What follows an edit: the columns every reader uses change in place, so the change journal's triggers
 *   renew the cached lists, the map and statistics, the photo-events triggers mark the dates to regroup; the
 *   `asset.corrected` event queues the events rebuild and the naming of a new position (container.ts).
 */
import type { Access } from '../../../platform/access/index.ts';
import { tx, type Db } from '../../../platform/db/connection.ts';
import type { Actor } from '../../../platform/http/context.ts';
import { Conflict, Invalid } from '../../../platform/http/errors.ts';
import { uuidv7 } from '../../../platform/ids.ts';
import { parseWallClock, toTakenTime } from '../../../adapters/media/capture-time.ts';
import { geohashFields, reverseGeocoder, searchPlaceNames } from '../../places/index.ts';
import { assetRef, type AssetChangeBus } from '../asset-changes.ts';
import { AssetsStore, type AssetRow } from '../assets.store.ts';
import { uncorrectedPlace, uncorrectedTime } from '../fact-precedence.ts';
import { CorrectionsStore, type CorrectionKind } from './corrections.store.ts';

const TIME_COLUMNS = ['taken_time', 'capture_offset_minutes', 'time_source'] as const;
const PLACE_COLUMNS = ['gps_latitude', 'gps_longitude', 'place_source'] as const;
const EARLIEST = Date.UTC(1826, 0, 1);
const DAY_MS = 86_400_000;

type Changes = Partial<AssetRow>;

export interface CorrectionResult {
  correction_id: string;
  kind: CorrectionKind;
  asset_ids: string[];
  skipped: { asset_id: string; reason: string }[];
  message: string;
}

export interface PlaceInput {
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
  place_name?: string | undefined;
}

export class CorrectionsService {
  private readonly assets: AssetsStore;
  private readonly store: CorrectionsStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly changes: AssetChangeBus,
    private readonly now: () => number = Date.now,
  ) {
    this.assets = new AssetsStore(db);
    this.store = new CorrectionsStore(db);
  }

  /** updateAssetCaptureTime: one asset's date, time and zone. */
  setTime(actor: Actor, assetId: string, input: { local_time: string; offset_minutes: number | null }): CorrectionResult {
    const [row] = this.editable(actor, [assetId], () => 'path.id');
    const wall = parseWallClock(input.local_time);
    if (!wall || wall.offsetMinutes !== null) {
      throw new Invalid('local_time must be a date and time without zone, like 2024-05-01T14:30 (the zone goes in offset_minutes).', [{ field: 'body.local_time', message: 'must be YYYY-MM-DDTHH:mm[:ss] without a zone' }]);
    }
    const taken = Date.parse(toTakenTime(wall.local, input.offset_minutes));
    this.inRange(taken, 'body.local_time');
    return this.apply(actor, 'time', [{ row: row!, next: { taken_time: taken, capture_offset_minutes: input.offset_minutes, time_source: 'user' } }], [], 'Date and time set.');
  }

  /** updateAssetsCaptureTime: the same shift and/or zone for many. */
  shiftTimes(actor: Actor, input: { asset_ids: string[]; shift_minutes?: number | undefined; offset_minutes?: number | null | undefined }): CorrectionResult {
    if (input.shift_minutes === undefined && input.offset_minutes === undefined) {
      throw new Invalid('Send shift_minutes, offset_minutes or both.', [{ field: 'body.shift_minutes', message: 'send shift_minutes or offset_minutes' }]);
    }
    const rows = this.editable(actor, input.asset_ids, (i) => `body.asset_ids.${i}`);
    const changes: { row: AssetRow; next: Changes }[] = [];
    const skipped: CorrectionResult['skipped'] = [];
    for (const row of rows) {
      if (row.taken_time === null) {
        skipped.push({ asset_id: row.asset_id, reason: 'no_date' });
        continue;
      }
      let taken = row.taken_time + (input.shift_minutes ?? 0) * 60_000;
      let offset = row.capture_offset_minutes;
      if (input.offset_minutes !== undefined) {
        // The wall clock the camera showed stays; it is now read in the new zone.
        const wallClock = taken + (offset ?? 0) * 60_000;
        offset = input.offset_minutes;
        taken = wallClock - (offset ?? 0) * 60_000;
      }
      this.inRange(taken, 'body.shift_minutes');
      changes.push({ row, next: { taken_time: taken, capture_offset_minutes: offset, time_source: 'user' } });
    }
    const what = [input.shift_minutes ? `shifted by ${describeMinutes(input.shift_minutes)}` : '', input.offset_minutes !== undefined ? 'zone set' : ''].filter(Boolean).join(', ');
    return this.apply(actor, 'time', changes, skipped, `${changes.length} ${changes.length === 1 ? 'date' : 'dates'} ${what || 'unchanged'}.`);
  }

  /** restoreAssetCaptureTime: the file's own date again (the source's, where a source gave one: fact-precedence.ts). */
  restoreTime(actor: Actor, assetId: string): CorrectionResult {
    const [row] = this.editable(actor, [assetId], () => 'path.id');
    return this.apply(actor, 'time', [{ row: row!, next: uncorrectedTime(row!, this.assets.sourceFacts(row!.asset_id)) }], [], "The file's date is back.");
  }

  /** updateAssetLocation / updateAssetsLocation: a position, a place name, or none. */
  setPlace(actor: Actor, assetIds: string[], input: PlaceInput, field: (i: number) => string): CorrectionResult {
    const rows = this.editable(actor, assetIds, field);
    const { lat, lon, label } = this.position(input);
    const next: Changes = { gps_latitude: lat, gps_longitude: lon, place_source: 'user' };
    const n = rows.length;
    const message = lat === null ? `Place cleared on ${n} ${n === 1 ? 'item' : 'items'}.` : `Place set to ${label} on ${n} ${n === 1 ? 'item' : 'items'}.`;
    return this.apply(actor, 'place', rows.map((row) => ({ row, next })), [], message);
  }

  /** restoreAssetLocation: the file's own position again (or none when it has none; the source's where it gave one). */
  restorePlace(actor: Actor, assetId: string): CorrectionResult {
    const [row] = this.editable(actor, [assetId], () => 'path.id');
    return this.apply(actor, 'place', [{ row: row!, next: uncorrectedPlace(row!, this.assets.sourceFacts(row!.asset_id)) }], [], "The file's place is back.");
  }

  /** undoAssetCorrection. */
  undo(actor: Actor, correctionId: string): CorrectionResult {
    const c = this.store.byId(this.access.require(actor, 'asset_correction', correctionId, 'change'))!;
    if (c.undone_at !== null) throw new Conflict('This correction was undone already.', 'correction_already_undone');
    const columns = c.kind === 'time' ? TIME_COLUMNS : PLACE_COLUMNS;
    return tx(this.db, () => {
      const items = this.store.undoableItems(c);
      const restored: string[] = [];
      const now = this.now();
      for (const item of items) {
        const row = this.assets.byId(item.asset_id);
        if (!row) continue;
        const previous = JSON.parse(item.previous) as Changes;
        const next: Changes = {};
        for (const k of columns) (next as Record<string, unknown>)[k] = (previous as Record<string, unknown>)[k] ?? null;
        this.write(row, c.kind, next, now);
        restored.push(row.asset_id);
      }
      this.store.markUndone(c.correction_id, now);
      const skipped = this.db
        .prepare('SELECT asset_id FROM asset_correction_items WHERE correction_id = ?')
        .all(c.correction_id)
        .map((r) => (r as { asset_id: string }).asset_id)
        .filter((id) => !restored.includes(id))
        .map((asset_id) => ({ asset_id, reason: 'corrected_since' }));
      return { correction_id: c.correction_id, kind: c.kind, asset_ids: restored, skipped, message: `Undone on ${restored.length} ${restored.length === 1 ? 'item' : 'items'}.` };
    });
  }

  /** The caller's assets to correct, out of the Trash: 404/403 from the access layer, 409 in the Trash. */
  private editable(actor: Actor, assetIds: string[], field: (i: number) => string): AssetRow[] {
    const ids = [...new Set(assetIds.map((id) => id.toLowerCase()))];
    const rows = this.assets.byIds(this.access.requireAll(actor, 'asset', ids, 'change', (i) => field(assetIds.findIndex((x) => x.toLowerCase() === ids[i]))));
    const trashed = rows.filter((r) => r.is_deleted);
    if (trashed.length) {
      throw new Conflict(`${trashed.length === 1 ? 'The item is' : `${trashed.length} items are`} in the Trash; restore ${trashed.length === 1 ? 'it' : 'them'} before correcting.`, 'asset_in_trash');
    }
    return rows;
  }

  private inRange(ms: number, field: string): void {
    if (!Number.isFinite(ms) || ms < EARLIEST || ms > this.now() + DAY_MS) {
      throw new Invalid('The date must lie between 1826 and today.', [{ field, message: 'gives a date before 1826 or in the future' }], 'date_out_of_range');
    }
  }

  private position(input: PlaceInput): { lat: number | null; lon: number | null; label: string } {
    const hasCoordinates = input.latitude !== undefined || input.longitude !== undefined;
    if (input.place_name !== undefined) {
      if (hasCoordinates) throw new Invalid('Send either latitude and longitude or place_name, not both.', [{ field: 'body.place_name', message: 'send it without latitude/longitude' }]);
      const [hit] = searchPlaceNames(reverseGeocoder, input.place_name, 1);
      if (!hit) throw new Invalid(`No place called "${input.place_name}" is known.`, [{ field: 'body.place_name', message: 'no such place in the gazetteer' }], 'place_not_found');
      return { lat: hit.latitude, lon: hit.longitude, label: [hit.name, hit.country].join(', ') };
    }
    if (input.latitude === undefined || input.longitude === undefined) {
      const missing = input.latitude === undefined ? 'body.latitude' : 'body.longitude';
      throw new Invalid('Send latitude and longitude (both null to clear the place), or place_name.', [{ field: missing, message: 'is required' }]);
    }
    if ((input.latitude === null) !== (input.longitude === null)) {
      throw new Invalid('latitude and longitude are both numbers, or both null (no place).', [{ field: input.latitude === null ? 'body.latitude' : 'body.longitude', message: 'must be null only with the other' }]);
    }
    if (input.latitude === 0 && input.longitude === 0) {
      throw new Invalid('(0, 0) is what an empty GPS block says, not a place: send null to clear the place.', [{ field: 'body.latitude', message: '(0, 0) is not a place' }]);
    }
    return { lat: input.latitude, lon: input.longitude, label: `${input.latitude?.toFixed(5)}, ${input.longitude?.toFixed(5)}` };
  }

  /** One correction: the previous values kept for undo, the new ones written, the followers told. */
  private apply(actor: Actor, kind: CorrectionKind, changes: { row: AssetRow; next: Changes }[], skipped: CorrectionResult['skipped'], message: string): CorrectionResult {
    const columns = kind === 'time' ? TIME_COLUMNS : PLACE_COLUMNS;
    const now = this.now();
    const correctionId = uuidv7(now);
    tx(this.db, () => {
      const items = changes.map(({ row }) => ({ asset_id: row.asset_id, previous: Object.fromEntries(columns.map((k) => [k, row[k] ?? null])) }));
      this.store.insert({ correction_id: correctionId, owner_id: actor.userId, kind, created_at: now }, items);
      for (const { row, next } of changes) this.write(row, kind, next, now);
    });
    return { correction_id: correctionId, kind, asset_ids: changes.map((c) => c.row.asset_id), skipped, message };
  }

  private write(row: AssetRow, kind: CorrectionKind, next: Changes, now: number): void {
    // The geohashes go with the position (features/places), so the map and places never see a stale cell.
    const fields = kind === 'place' ? { ...next, ...geohashFields(next.gps_latitude ?? null, next.gps_longitude ?? null) } : next;
    this.assets.update(row.asset_id, fields, now);
    this.changes.emit('asset.corrected', { ...assetRef(row), what: kind });
  }
}

/** "2 days 3 hours", "-45 minutes". */
function describeMinutes(total: number): string {
  const sign = total < 0 ? '-' : '';
  let m = Math.abs(total);
  const parts: string[] = [];
  for (const [size, word] of [[1440, 'day'], [60, 'hour'], [1, 'minute']] as const) {
    const n = Math.floor(m / size);
    m -= n * size;
    if (n) parts.push(`${n} ${word}${n === 1 ? '' : 's'}`);
  }
  return sign + parts.join(' ');
}
