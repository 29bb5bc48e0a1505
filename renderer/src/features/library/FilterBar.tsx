/**
 * Filters of the timeline (camera make and model, lens, dates, type, rating, tag, folder, who shared), kept in the page's URL
 * so that a filtered view survives a reload and can be bookmarked or shared within the household.
 * The stacks switch (`stacks=expanded`: every member of a stack its own tile) lives there too, but
 * it is a way of looking rather than a filter: "Clear filters" keeps it.
 */
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { SharedBySelect } from '../sharing/SharedBySelect';
import type { AssetFilter, StackMode } from './library-api';

const KEYS = ['make', 'camera', 'lens', 'from', 'to', 'type', 'rating', 'tag', 'folder', 'owner'] as const;

/** The filter the URL asks for, or undefined when none. */
export function useUrlFilter(): { filter: AssetFilter | undefined; active: number } {
  const [params] = useSearchParams();
  const f: AssetFilter = {};
  const make = params.get('make');
  const camera = params.get('camera');
  const lens = params.get('lens');
  const from = params.get('from');
  const to = params.get('to');
  const type = params.get('type');
  const rating = params.get('rating');
  const tag = params.get('tag');
  const folder = params.get('folder');
  const owner = params.get('owner');
  if (make) f.camera_make = make;
  if (camera) f.camera_model = camera;
  if (lens) f.lens = lens;
  if (from || to) f.date = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  if (type === 'PHOTO' || type === 'VIDEO' || type === 'AUDIO') f.type = type;
  if (rating && /^[0-5]$/.test(rating)) f.rating = Number(rating);
  if (tag) f.tag_name = tag;
  if (folder) f.folder_path = folder.replace(/^\/+|\/+$/g, '');
  if (owner && /^\d+$/.test(owner)) f.owner_id = Number(owner);
  const active = Object.keys(f).length;
  return { filter: active ? f : undefined, active };
}

/** How stacks show in the timeline: one tile each (the default), or every member its own tile. */
export function useUrlStackMode(): StackMode {
  const [params] = useSearchParams();
  return params.get('stacks') === 'expanded' ? 'expanded' : 'collapsed';
}

export function FilterBar() {
  const [params, setParams] = useSearchParams();
  const options = useQuery({
    queryKey: ['library', 'filter-options'],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/filter-options', { signal })),
    staleTime: 60_000,
  });
  const set = (key: (typeof KEYS)[number] | 'stacks', value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const any = KEYS.some((k) => params.get(k));

  return (
    <form className="filters" role="search" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <OptionSelect label="Make" anyLabel="Any make" value={params.get('make') ?? ''} values={options.data?.camera_makes} onChange={(v) => set('make', v)} />
      <OptionSelect label="Camera" anyLabel="Any camera" value={params.get('camera') ?? ''} values={options.data?.camera_models} onChange={(v) => set('camera', v)} />
      <OptionSelect label="Lens" anyLabel="Any lens" value={params.get('lens') ?? ''} values={options.data?.lenses} onChange={(v) => set('lens', v)} />
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
      <label>
        Folder
        <input type="search" value={params.get('folder') ?? ''} placeholder="e.g. 2024/summer" onChange={(e) => set('folder', e.target.value)} />
      </label>
      <SharedBySelect value={params.get('owner') ?? ''} onChange={(v) => set('owner', v)} />
      <label className="filters__switch" title="Show every photo of a stack as its own tile">
        <input
          type="checkbox"
          role="switch"
          checked={params.get('stacks') === 'expanded'}
          onChange={(e) => set('stacks', e.target.checked ? 'expanded' : '')}
        />
        Expand stacks
      </label>
      {any && (
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setParams((prev) => new URLSearchParams(prev.get('stacks') ? { stacks: prev.get('stacks')! } : {}), { replace: true })}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}

/** One filter chosen from the values the library has (getFilterOptions), or any. */
function OptionSelect(props: { label: string; anyLabel: string; value: string; values: string[] | undefined; onChange: (value: string) => void }) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.anyLabel}</option>
        {(props.values ?? []).map((v) => (
          <option key={v}>{v}</option>
        ))}
      </select>
    </label>
  );
}
