/**
 * The timeline's filters as they live in the page's URL (so a filtered view survives a reload and can
 * be bookmarked or shared within the household), read into the unified query's filter, and described
 * as removable chips ("Camera: Nikon D70").
 *
 * `make` + `camera` are the exact recorded values (getFilterOptions `cameras`); `repo` + `folder` a
 * folder picked in the folder picker; `owner` a member who shares their library with me (or me). The stacks switch (`stacks=expanded`) lives in the URL too, but
 * it is a way of looking rather than a filter: clearing the filters keeps it.
 */
import { formatDate } from '../../lib/dates';
import type { AssetFilter } from '../../photos/library-api';

export const FILTER_KEYS = ['make', 'camera', 'lens', 'from', 'to', 'type', 'rating', 'tag', 'folder', 'repo', 'owner'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface CameraOption {
  make: string | null;
  model: string;
  name: string;
}

export function filterFromParams(params: URLSearchParams): AssetFilter | undefined {
  const f: AssetFilter = {};
  const get = (k: FilterKey) => params.get(k) || null;
  const [make, camera, lens, from, to, type, rating, tag, folder, repo, owner] = FILTER_KEYS.map(get);
  if (make) f.camera_make = make;
  if (camera) f.camera_model = camera;
  if (lens) f.lens = lens;
  if (from || to) f.date = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  if (type === 'PHOTO' || type === 'VIDEO' || type === 'AUDIO') f.type = type;
  if (rating && /^[0-5]$/.test(rating)) f.rating = Number(rating);
  if (tag) f.tag_name = tag;
  if (folder) f.folder_path = folder.replace(/^\/+|\/+$/g, '');
  if (repo && folder) f.repository_id = repo;
  if (owner && /^\d+$/.test(owner)) f.owner_id = Number(owner);
  return Object.keys(f).length ? f : undefined;
}

export interface Chip {
  /** Stable key, and what the chip's remove button says. */
  id: string;
  label: string;
  /** The URL keys that go when the chip is removed. */
  keys: FilterKey[];
}

const TYPE_NAMES: Record<string, string> = { PHOTO: 'Photos', VIDEO: 'Videos', AUDIO: 'Audio' };

const dayLabel = (iso: string) => {
  const d = new Date(`${iso}T12:00:00`);
  return Number.isNaN(d.getTime()) ? iso : formatDate(d);
};

/** The filters set, one chip each; a camera shows by its name, make and model as one chip. */
export function chipsOf(params: URLSearchParams, cameras: readonly CameraOption[] | undefined, personName?: (userId: string) => string | undefined): Chip[] {
  const chips: Chip[] = [];
  const make = params.get('make');
  const camera = params.get('camera');
  if (camera) {
    const known = cameras?.find((c) => c.model === camera && (!make || c.make === make));
    chips.push({ id: 'camera', label: `Camera: ${known?.name ?? (make && !camera.toLowerCase().startsWith(make.toLowerCase()) ? `${make} ${camera}` : camera)}`, keys: ['make', 'camera'] });
  } else if (make) {
    chips.push({ id: 'make', label: `Make: ${make}`, keys: ['make'] });
  }
  const lens = params.get('lens');
  if (lens) chips.push({ id: 'lens', label: `Lens: ${lens}`, keys: ['lens'] });
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && from === to) chips.push({ id: 'date', label: `On ${dayLabel(from)}`, keys: ['from', 'to'] });
  else {
    if (from) chips.push({ id: 'from', label: `From ${dayLabel(from)}`, keys: ['from'] });
    if (to) chips.push({ id: 'to', label: `Until ${dayLabel(to)}`, keys: ['to'] });
  }
  const type = params.get('type');
  if (type && TYPE_NAMES[type]) chips.push({ id: 'type', label: `Only ${TYPE_NAMES[type]!.toLowerCase()}`, keys: ['type'] });
  const rating = params.get('rating');
  if (rating && /^[0-5]$/.test(rating)) chips.push({ id: 'rating', label: rating === '0' ? 'Unrated' : `Rated ${'★'.repeat(Number(rating))}`, keys: ['rating'] });
  const tag = params.get('tag');
  if (tag) chips.push({ id: 'tag', label: `Tag: ${tag}`, keys: ['tag'] });
  const folder = params.get('folder');
  if (folder) chips.push({ id: 'folder', label: `Folder: ${folder.replace(/^\/+|\/+$/g, '')}`, keys: ['folder', 'repo'] });
  const owner = params.get('owner');
  if (owner) chips.push({ id: 'owner', label: `Shared by: ${personName?.(owner) ?? 'a member'}`, keys: ['owner'] });
  return chips;
}
