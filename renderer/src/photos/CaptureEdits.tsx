/**
 * The viewer's corrections of when and where (issue 24; server: features/assets/corrections): set the date,
 * time and zone, set the place by a town's name (offline gazetteer suggestions) or on a small map
 * (PlacePicker.tsx), or clear it, go back to the
 * file's own values; each save says what it did in a toast with Undo (corrections-api.ts). A date that comes from the file's modification time is marked so
 * a person knows to check it.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { messageOf, request } from '../api/problem';
import { Button } from '../components/Button';
import { placeNames, useCorrection, ZONES, zoneLabel, type Correction } from './corrections-api';
import { PlacePicker } from './PlacePicker';
import type { components } from '../api/schema';

type Detail = components['schemas']['AssetDetail'];

/** The wall clock of a capture time ("YYYY-MM-DDTHH:mm") in its own zone (UTC when unknown). */
function wallClock(iso: string | null, offset: number | null): string {
  const ms = iso ? Date.parse(iso) : Date.now();
  return new Date(ms + (offset ?? 0) * 60_000).toISOString().slice(0, 16);
}

export function CaptureEdits({ asset }: { asset: Detail }) {
  const [editing, setEditing] = useState<'time' | 'place' | null>(null);
  const [local, setLocal] = useState('');
  const [zone, setZone] = useState('unknown');
  const [placeName, setPlaceName] = useState('');
  const [picked, setPicked] = useState<{ lat: number; lon: number } | null>(null);
  const { run, mutation: save } = useCorrection();
  const id = asset.asset_id;
  const path = { params: { path: { id } } };
  const send = (op: 'time' | 'place' | 'spot' | 'clear-place' | 'restore-time' | 'restore-place') =>
    run(() => {
      if (op === 'time') return request(api.PUT('/api/v1/assets/{id}/capture-time', { ...path, body: { local_time: local, offset_minutes: zone === 'unknown' ? null : Number(zone) } })) as Promise<Correction>;
      if (op === 'place') return request(api.PUT('/api/v1/assets/{id}/location', { ...path, body: { place_name: placeName.trim() } })) as Promise<Correction>;
      if (op === 'spot' && picked) return request(api.PUT('/api/v1/assets/{id}/location', { ...path, body: { latitude: picked.lat, longitude: picked.lon } })) as Promise<Correction>;
      if (op === 'clear-place') return request(api.PUT('/api/v1/assets/{id}/location', { ...path, body: { latitude: null, longitude: null } })) as Promise<Correction>;
      if (op === 'restore-time') return request(api.DELETE('/api/v1/assets/{id}/capture-time', path)) as Promise<Correction>;
      return request(api.DELETE('/api/v1/assets/{id}/location', path)) as Promise<Correction>;
    }, () => setEditing(null));
  const suggestions = useQuery({
    queryKey: ['place-names', placeName.trim()],
    queryFn: () => placeNames(placeName.trim()),
    enabled: editing === 'place' && placeName.trim().length >= 2,
  });

  return (
    <section className="capture-edits">
      {asset.time_source === 'file_modified' && <p className="field__hint">Date from the file's modification time — check it.</p>}
      {asset.time_source === 'user' && <p className="field__hint">Date set by you.</p>}
      {asset.place_source === 'user' && <p className="field__hint">{asset.gps_latitude === null ? 'Place cleared by you.' : 'Place set by you.'}</p>}
      <div className="capture-edits__actions">
        <Button
          variant="secondary"
          onClick={() => {
            setLocal(wallClock(asset.taken_time, asset.capture_offset_minutes));
            setZone(asset.capture_offset_minutes === null ? 'unknown' : String(asset.capture_offset_minutes));
            setEditing(editing === 'time' ? null : 'time');
          }}
        >
          Edit date &amp; time
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            setPicked(null);
            setEditing(editing === 'place' ? null : 'place');
          }}
        >
          Edit place
        </Button>
        {asset.time_source === 'user' && (
          <Button variant="secondary" onClick={() => send('restore-time')}>
            Restore the file's date
          </Button>
        )}
        {asset.place_source === 'user' && (
          <Button variant="secondary" onClick={() => send('restore-place')}>
            Restore the file's place
          </Button>
        )}
      </div>
      {editing === 'time' && (
        <form
          aria-label="Edit date and time"
          onSubmit={(e) => {
            e.preventDefault();
            send('time');
          }}
        >
          <label>
            Date and time
            <input type="datetime-local" value={local} required onChange={(e) => setLocal(e.target.value)} />
          </label>
          <label>
            Zone
            <select value={zone} onChange={(e) => setZone(e.target.value)}>
              <option value="unknown">Unknown (as the camera showed)</option>
              {ZONES.map((z) => (
                <option key={z} value={String(z)}>
                  {zoneLabel(z)}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" busy={save.isPending} busyLabel="Saving…">
            Save date
          </Button>
        </form>
      )}
      {editing === 'place' && (
        <form
          aria-label="Edit place"
          onSubmit={(e) => {
            e.preventDefault();
            if (placeName.trim()) send('place');
          }}
        >
          <label>
            Place name
            <input list={`places-${id}`} value={placeName} maxLength={200} placeholder="Town or city" onChange={(e) => setPlaceName(e.target.value)} />
          </label>
          <datalist id={`places-${id}`}>
            {(suggestions.data?.places ?? []).map((p) => (
              <option key={`${p.name}|${p.region}|${p.country_code}|${p.latitude}`} value={p.name}>
                {[p.name, p.region, p.country].filter(Boolean).join(', ')}
              </option>
            ))}
          </datalist>
          <Button type="submit" busy={save.isPending} busyLabel="Saving…">
            Save place
          </Button>
          <Button variant="secondary" onClick={() => send('clear-place')}>
            No place
          </Button>
        </form>
      )}
      {editing === 'place' && (
        <div className="capture-edits__map">
          <PlacePicker latitude={picked?.lat ?? asset.gps_latitude} longitude={picked?.lon ?? asset.gps_longitude} onPick={(lat, lon) => setPicked({ lat, lon })} />
          {picked && (
            <Button busy={save.isPending} busyLabel="Saving…" onClick={() => send('spot')}>
              Save this spot ({picked.lat.toFixed(3)}, {picked.lon.toFixed(3)})
            </Button>
          )}
        </div>
      )}
      {save.isError && <p className="field__error">{messageOf(save.error)}</p>}
    </section>
  );
}
