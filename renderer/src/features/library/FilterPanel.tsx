/**
 * The filter form, opened by the Filters button (FilterBar.tsx): a sheet from the bottom on phones
 * (over a dimmed page; a tap outside or "Show results" closes it), a panel under the button on wider
 * screens (filters.css). Every change applies at once (the grid behind follows); Escape closes.
 *
 * Cameras are offered by name ("Nikon D70") from getFilterOptions' `cameras`, and choosing one sets
 * both its recorded make and model; the folder is picked by browsing (FolderPicker), not typed.
 */
import { useEffect, useRef, useState } from 'react';
import type { paths } from '../../api/schema';
import { Button } from '../../components/Button';
import { FolderPicker } from '../folders';
import { SharedBySelect } from '../sharing';
import type { FilterKey } from './filter-params';

type FilterOptions = paths['/api/v1/assets/filter-options']['get']['responses'][200]['content']['application/json'];

const SEP = '\u001f';
const cameraKey = (make: string | null, model: string) => `${make ?? ''}${SEP}${model}`;

interface Props {
  id: string;
  params: URLSearchParams;
  options: FilterOptions | undefined;
  update: (change: (next: URLSearchParams) => void) => void;
  onClearAll: () => void;
  onClose: () => void;
}

export function FilterPanel({ id, params, options, update, onClearAll, onClose }: Props) {
  const [picking, setPicking] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const set = (key: FilterKey, value: string) => update((next) => (value ? next.set(key, value) : next.delete(key)));

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('select, input, button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const make = params.get('make') ?? '';
  const camera = params.get('camera') ?? '';
  const cameras = options?.cameras ?? [];
  const current = camera ? cameraKey(make || (cameras.find((c) => c.model === camera)?.make ?? null), camera) : '';
  const folder = params.get('folder') ?? '';

  return (
    <>
      <div className="filter-sheet__backdrop" aria-hidden="true" onClick={onClose} />
      <div ref={panel} id={id} className="filter-sheet" role="dialog" aria-label="Choose filters">
        <form className="filters" role="search" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Camera
            <select
              value={current}
              onChange={(e) =>
                update((next) => {
                  const [m, model] = e.target.value ? e.target.value.split(SEP) : ['', ''];
                  if (m) next.set('make', m);
                  else next.delete('make');
                  if (model) next.set('camera', model);
                  else next.delete('camera');
                })
              }
            >
              <option value="">Any camera</option>
              {cameras.map((c) => (
                <option key={cameraKey(c.make, c.model)} value={cameraKey(c.make, c.model)}>
                  {c.name}
                </option>
              ))}
              {current && !cameras.some((c) => cameraKey(c.make, c.model) === current) && <option value={current}>{camera}</option>}
            </select>
          </label>
          {!camera && (options?.camera_makes.length ?? 0) > 1 && (
            <label>
              Make
              <select value={make} onChange={(e) => set('make', e.target.value)}>
                <option value="">Any make</option>
                {options!.camera_makes.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </label>
          )}
          <label>
            Lens
            <select value={params.get('lens') ?? ''} onChange={(e) => set('lens', e.target.value)}>
              <option value="">Any lens</option>
              {(options?.lenses ?? []).map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <label>
            From
            <input type="date" value={params.get('from') ?? ''} onChange={(e) => set('from', e.target.value)} />
          </label>
          <label>
            To
            <input type="date" value={params.get('to') ?? ''} onChange={(e) => set('to', e.target.value)} />
          </label>
          <label>
            Type
            <select value={params.get('type') ?? ''} onChange={(e) => set('type', e.target.value)}>
              <option value="">Everything</option>
              <option value="PHOTO">Photos</option>
              <option value="VIDEO">Videos</option>
              <option value="AUDIO">Audio</option>
            </select>
          </label>
          <label>
            Rating
            <select value={params.get('rating') ?? ''} onChange={(e) => set('rating', e.target.value)}>
              <option value="">Any rating</option>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {'★'.repeat(n)}
                </option>
              ))}
              <option value="0">Unrated</option>
            </select>
          </label>
          <label>
            Tag
            <input type="search" value={params.get('tag') ?? ''} placeholder="Any tag" onChange={(e) => set('tag', e.target.value)} />
          </label>
          <SharedBySelect value={params.get('owner') ?? ''} onChange={(v) => set('owner', v)} />
          <div className="filters__folder">
            <span className="filters__folder-label">Folder</span>
            {picking ? (
              <FolderPicker
                onCancel={() => setPicking(false)}
                onPick={(f) => {
                  update((next) => {
                    next.set('folder', f.path);
                    next.set('repo', f.repositoryId);
                  });
                  setPicking(false);
                }}
              />
            ) : (
              <div className="filters__folder-line">
                <span className="filters__folder-value">{folder || 'Any folder'}</span>
                <Button variant="secondary" className="button--small" onClick={() => setPicking(true)}>
                  {folder ? 'Change folder' : 'Choose folder'}
                </Button>
              </div>
            )}
          </div>
        </form>
        <div className="filter-sheet__actions">
          <Button variant="quiet" onClick={onClearAll}>
            Clear all
          </Button>
          <Button onClick={onClose}>Show results</Button>
        </div>
      </div>
    </>
  );
}
