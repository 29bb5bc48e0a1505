/**
 * The parts of a query other than dates: media type, favourites, ratings, file types, and the
 * cameras and lenses of the catalog. Each rule looks at the lexemes from one position and says how
 * many it understood and which filter part they stand for.
 *
 * Ratings: "5 stars" is exactly five; "4+ stars", "at least 3 stars", "3 stars or more" and
 * "rated at least 3" are `rating_min` (five or more is exactly five); "unrated" is rating 0. A count
 * of stars outside 0..5 is not a rating (left to the search).
 */
import { DateReader, type DateRange } from './dates.ts';
import { formatDay } from './calendar.ts';
import type { AssetFilter } from './filter.ts';
import { classOf, has, type Lexeme } from './lexicon.ts';

export type PartKind = 'date' | 'media_type' | 'live_photo' | 'screenshot' | 'favourite' | 'rating' | 'file_type' | 'camera_make' | 'camera_model' | 'lens' | 'place' | 'person';

export interface Match {
  len: number;
  kind: PartKind;
  filter: AssetFilter;
}

export type Rule = (lxs: Lexeme[], i: number) => Match | null;

export function dateRule(reader: DateReader): Rule {
  return (lxs, i) => {
    const found = reader.read(lxs, i);
    return found ? { len: found.len, kind: 'date', filter: { date: dateFilter(found.value) } } : null;
  };
}

function dateFilter(r: DateRange): { from?: string; to?: string } {
  return { ...(r.from !== undefined ? { from: formatDay(r.from) } : {}), ...(r.to !== undefined ? { to: formatDay(r.to) } : {}) };
}

export const mediaRule: Rule = (lxs, i) => {
  const m = classOf(lxs[i], 'media');
  return m ? { len: 1, kind: m.kind, filter: structuredClone(m.filter) } : null;
};

export const favouriteRule: Rule = (lxs, i) => (has(lxs[i], 'favourite') ? { len: 1, kind: 'favourite', filter: { liked: true } } : null);

export const fileTypeRule: Rule = (lxs, i) => {
  const t = classOf(lxs[i], 'fileType');
  return t ? { len: 1, kind: 'file_type', filter: structuredClone(t.filter) } : null;
};

const stars = (lx: Lexeme | undefined): { n: number; plus: boolean } | undefined => {
  const n = classOf(lx, 'number');
  return n && !n.article && n.digits <= 1 && n.value <= 5 ? { n: n.value, plus: n.plus } : undefined;
};

export const ratingRule: Rule = (lxs, i) => {
  if (has(lxs[i], 'unrated')) return { len: 1, kind: 'rating', filter: { rating: 0 } };
  let k = i;
  const rated = has(lxs[k], 'rated');
  if (rated) k++;
  const atLeast = has(lxs[k], 'atLeast');
  if (atLeast) k++;
  const s = stars(lxs[k]);
  if (!s) return null;
  k++;
  const star = has(lxs[k], 'star');
  if (star) k++;
  // "rated 4" needs no "stars"; a bare number never is a rating.
  if (!star && !rated) return null;
  const orMore = has(lxs[k], 'orMore');
  if (orMore) k++;
  const min = atLeast || orMore || s.plus;
  if (!min) return { len: k - i, kind: 'rating', filter: { rating: s.n } };
  if (s.n === 0) return null;
  return { len: k - i, kind: 'rating', filter: s.n === 5 ? { rating: 5 } : { rating_min: s.n } };
};

/** Whether a camera introducer ("with", "shot on") comes before lexeme i, past stop words ("with my apple"). */
function introduced(lxs: Lexeme[], i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    if (has(lxs[k], 'cameraIntro')) return true;
    if (!lxs[k]!.stopOnly) return false;
  }
  return false;
}

export const catalogRule: Rule = (lxs, i) => {
  const lx = lxs[i];
  const c = classOf(lx, 'catalog');
  if (!c) return null;
  // A person's name ("Anna", "with Anna": "with" is a stop word and joins the chip): photos with them.
  if (c.field === 'person') return { len: 1, kind: 'person', filter: { person_ids: [Number(c.value)] } };
  if (has(lx, 'ordinaryCamera') && !introduced(lxs, i)) return null;
  return { len: 1, kind: c.field, filter: { [c.field]: c.value } };
};

/**
 * A place of the caller's photos after a place word: "in Lisbon", "near Tuscany", "at the Rocks" is
 * not (only the catalog's names count). The filter is queryAssets' location box around the caller's
 * photos taken there. A place name alone ("Lisbon") is left to the search, whose place channel finds it.
 */
export const placeRule: Rule = (lxs, i) => {
  if (!has(lxs[i], 'placeIntro')) return null;
  const p = classOf(lxs[i + 1], 'place');
  return p ? { len: 2, kind: 'place', filter: { location: { ...p.location } } } : null;
};
