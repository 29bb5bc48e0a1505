/**
 * The timeline's filters behind one "Filters" button, so that a phone's first screen shows photos
 * rather than a form: the button (with how many are set), a chip for each filter set (each removable,
 * and "Clear all"), and the stacks switch. The button opens the filter panel (FilterPanel.tsx): a
 * sheet from the bottom on phones, a panel under the button on wider screens.
 * The filters live in the URL (filter-params.ts).
 */
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { Icon } from '../../components/Icon';
import { FILTER_KEYS, chipsOf, filterFromParams, type FilterKey } from './filter-params';
import { FilterPanel } from './FilterPanel';
import { usePersonName } from '../sharing';
import type { AssetFilter, StackMode } from '../../photos/library-api';
import './filters.css';

/** The filter the URL asks for, or undefined when none; `active`: how many filters are set. */
export function useUrlFilter(): { filter: AssetFilter | undefined; active: number } {
  const [params] = useSearchParams();
  const filter = filterFromParams(params);
  return { filter, active: filter ? Object.keys(filter).length : 0 };
}

/** How stacks show in the timeline: one tile each (the default), or every member its own tile. */
export function useUrlStackMode(): StackMode {
  const [params] = useSearchParams();
  return params.get('stacks') === 'expanded' ? 'expanded' : 'collapsed';
}

export function useFilterOptions() {
  return useQuery({
    queryKey: ['library', 'filter-options'],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/filter-options', { signal })),
    staleTime: 60_000,
  });
}

export function FilterBar() {
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const options = useFilterOptions();
  const personName = usePersonName();
  const chips = chipsOf(params, options.data?.cameras, personName);

  const update = (change: (next: URLSearchParams) => void) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        change(next);
        return next;
      },
      { replace: true },
    );
  const remove = (keys: FilterKey[]) => update((next) => keys.forEach((k) => next.delete(k)));
  const clearAll = () => update((next) => FILTER_KEYS.forEach((k) => next.delete(k)));

  return (
    <div className="filter-bar">
      <div className="filter-bar__line">
        <button
          type="button"
          className={['button', 'button--secondary', 'filter-bar__button', chips.length ? 'filter-bar__button--set' : ''].filter(Boolean).join(' ')}
          aria-expanded={open}
          aria-controls={panelId}
          aria-haspopup="dialog"
          aria-label={chips.length ? `Filters, ${chips.length} set` : 'Filters'}
          onClick={() => setOpen(!open)}
        >
          <Icon name="menu" size={16} />
          Filters
          {chips.length > 0 && (
            <span className="filter-bar__count" aria-hidden="true">
              {chips.length}
            </span>
          )}
        </button>
        <label className="filters__switch" title="Show every photo of a stack as its own tile">
          <input
            type="checkbox"
            role="switch"
            checked={params.get('stacks') === 'expanded'}
            onChange={(e) => update((next) => (e.target.checked ? next.set('stacks', 'expanded') : next.delete('stacks')))}
          />
          Expand stacks
        </label>
      </div>
      {chips.length > 0 && (
        <ul className="filter-chips" aria-label="Filters set">
          {chips.map((chip) => (
            <li key={chip.id} className="filter-chip">
              <span className="filter-chip__label">{chip.label}</span>
              <button type="button" className="filter-chip__remove" aria-label={`Remove filter ${chip.label}`} onClick={() => remove(chip.keys)}>
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
          {chips.length > 1 && (
            <li>
              <button type="button" className="button button--quiet button--small" onClick={clearAll}>
                Clear all
              </button>
            </li>
          )}
        </ul>
      )}
      {open && <FilterPanel id={panelId} params={params} options={options.data} update={update} onClearAll={clearAll} onClose={() => setOpen(false)} />}
    </div>
  );
}
