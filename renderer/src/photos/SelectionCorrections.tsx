/**
 * "Adjust date…" and "Set place…" for a selection (issue 24): every selected photo shifted by the same amount
 * (a camera clock set wrongly) and/or put in one zone (a camera left on home time), or given one place by a
 * town's name (or none). Each save says what it did in a toast with Undo (corrections-api.ts). Panels like
 * "Tag…" (BulkTagMenu.tsx), so they sit under their button on a wide screen and in the "More" menu on a phone.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { messageOf, request } from '../api/problem';
import { Button } from '../components/Button';
import { placeNames, useCorrection, ZONES, zoneLabel, type Correction } from './corrections-api';

interface Props {
  ids: readonly string[];
  disabled: boolean;
  onDone: () => void;
}

export function AdjustDateMenu({ ids, disabled, onDone }: Props) {
  const [open, setOpen] = useState(false);
  const [direction, setDirection] = useState<'later' | 'earlier'>('later');
  const [days, setDays] = useState('0');
  const [hours, setHours] = useState('0');
  const [minutes, setMinutes] = useState('0');
  const [zone, setZone] = useState('keep');
  const { run, mutation } = useCorrection();
  const amount = (Number(days) || 0) * 1440 + (Number(hours) || 0) * 60 + (Number(minutes) || 0);
  const shift = direction === 'later' ? amount : -amount;
  const nothing = shift === 0 && zone === 'keep';
  const n = ids.length;
  const save = () =>
    run(
      () =>
        request(
          api.POST('/api/v1/assets/capture-times', {
            body: {
              asset_ids: [...ids],
              ...(shift !== 0 ? { shift_minutes: shift } : {}),
              ...(zone !== 'keep' ? { offset_minutes: zone === 'unknown' ? null : Number(zone) } : {}),
            },
          }),
        ) as Promise<Correction>,
      () => {
        setOpen(false);
        onDone();
      },
    );
  const num = (label: string, value: string, set: (v: string) => void, max: number) => (
    <label className="adjust-date__field">
      {label}
      <input type="number" inputMode="numeric" min={0} max={max} value={value} onChange={(e) => set(e.target.value)} />
    </label>
  );

  return (
    <div className="tag-menu">
      <Button variant="secondary" aria-expanded={open} disabled={disabled} onClick={() => setOpen((v) => !v)}>
        Adjust date…
      </Button>
      {open && (
        <div className="tag-menu__panel" role="dialog" aria-label="Adjust date">
          <form
            className="adjust-date"
            onSubmit={(e) => {
              e.preventDefault();
              if (!nothing) save();
            }}
          >
            <label className="adjust-date__field">
              Shift
              <select value={direction} onChange={(e) => setDirection(e.target.value as 'later' | 'earlier')}>
                <option value="later">Later by</option>
                <option value="earlier">Earlier by</option>
              </select>
            </label>
            <div className="adjust-date__amount">
              {num('Days', days, setDays, 36500)}
              {num('Hours', hours, setHours, 23)}
              {num('Minutes', minutes, setMinutes, 59)}
            </div>
            <label className="adjust-date__field">
              Zone
              <select value={zone} onChange={(e) => setZone(e.target.value)}>
                <option value="keep">Keep each photo's zone</option>
                <option value="unknown">Unknown (as the camera showed)</option>
                {ZONES.map((z) => (
                  <option key={z} value={String(z)}>
                    {zoneLabel(z)}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" busy={mutation.isPending} busyLabel="Adjusting…" disabled={nothing}>
              {n === 1 ? 'Adjust 1' : `Adjust ${n}`}
            </Button>
          </form>
          {mutation.isError && <p className="field__error">{messageOf(mutation.error)}</p>}
        </div>
      )}
    </div>
  );
}

export function SetPlaceMenu({ ids, disabled, onDone }: Props) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const { run, mutation } = useCorrection();
  const q = name.trim();
  const suggestions = useQuery({ queryKey: ['place-names', q], queryFn: () => placeNames(q), enabled: open && q.length >= 2 });
  const n = ids.length;
  const save = (body: { place_name: string } | { latitude: null; longitude: null }) =>
    run(
      () => request(api.POST('/api/v1/assets/locations', { body: { asset_ids: [...ids], ...body } })) as Promise<Correction>,
      () => {
        setOpen(false);
        onDone();
      },
    );

  return (
    <div className="tag-menu">
      <Button variant="secondary" aria-expanded={open} disabled={disabled} onClick={() => setOpen((v) => !v)}>
        Set place…
      </Button>
      {open && (
        <div className="tag-menu__panel" role="dialog" aria-label="Set place">
          <form
            className="tag-menu__form"
            onSubmit={(e) => {
              e.preventDefault();
              if (q) save({ place_name: q });
            }}
          >
            <input aria-label="Place name" list="selection-place-names" placeholder="Town or city" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
            <Button type="submit" variant="secondary" busy={mutation.isPending} busyLabel="Saving…" disabled={!q}>
              {n === 1 ? 'Set on 1' : `Set on ${n}`}
            </Button>
          </form>
          <datalist id="selection-place-names">
            {(suggestions.data?.places ?? []).map((p) => (
              <option key={`${p.name}|${p.region}|${p.country_code}|${p.latitude}`} value={p.name}>
                {[p.name, p.region, p.country].filter(Boolean).join(', ')}
              </option>
            ))}
          </datalist>
          <Button variant="secondary" disabled={mutation.isPending} onClick={() => save({ latitude: null, longitude: null })}>
            No place
          </Button>
          {mutation.isError && <p className="field__error">{messageOf(mutation.error)}</p>}
        </div>
      )}
    </div>
  );
}
