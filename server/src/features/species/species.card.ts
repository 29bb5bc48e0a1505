/**
 * From iNaturalist taxa to the card Hearth serves: which search result is meant, and what of it is shown.
 *
 * Decisions:
 * - The match: among active taxa (an inactive one is a retired name whose page points elsewhere), first the
 *   one whose scientific name is the name asked (case and spacing aside), then, when the question was a
 *   common name, the one whose preferred common name or matched term is it, then the first active result
 *   (iNaturalist ranks by relevance). No active result: no match.
 * - The summary is plain text: iNaturalist passes Wikipedia's HTML (`<i>Turdus merula</i>`, `<b>`, entities);
 *   tags are dropped, entities decoded, white space collapsed. A card shows text, never markup.
 * - Links and image addresses are kept only when they are http(s) URLs: the card's consumer puts them in
 *   `href` and `src`.
 */
import type { Taxon, TaxonPhoto } from './inaturalist.client.ts';

export type MatchedBy = 'scientific_name' | 'common_name';

export interface SpeciesImage {
  url: string;
  square_url: string | null;
  attribution: string | null;
  license_code: string | null;
}

/** The card without `cached`, as the cache keeps it. */
export interface StoredCard {
  taxon_id: number;
  scientific_name: string;
  common_name: string | null;
  rank: string | null;
  iconic_taxon_name: string | null;
  summary: string | null;
  wikipedia_url: string | null;
  image: SpeciesImage | null;
  source: 'inaturalist';
  source_url: string;
  matched_by: MatchedBy;
  locale: string;
  fetched_at: string;
}

/** Case, Unicode form and spacing aside: how two names are compared and how questions are keyed. */
export function normaliseName(s: string): string {
  return s.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
}

export function bestMatch(results: readonly Taxon[], asked: string, by: MatchedBy): Taxon | null {
  const want = normaliseName(asked);
  const active = results.filter((t) => t.is_active !== false);
  const same = (s: string | null | undefined) => typeof s === 'string' && normaliseName(s) === want;
  return (
    active.find((t) => same(t.name)) ??
    (by === 'common_name' ? active.find((t) => same(t.preferred_common_name) || same(t.matched_term)) : undefined) ??
    active[0] ??
    null
  );
}

export function toCard(t: Taxon, matchedBy: MatchedBy, locale: string, fetchedAt: Date): StoredCard {
  return {
    taxon_id: t.id,
    scientific_name: t.name,
    common_name: text(t.preferred_common_name),
    rank: text(t.rank),
    iconic_taxon_name: text(t.iconic_taxon_name),
    summary: t.wikipedia_summary ? htmlToPlainText(t.wikipedia_summary) || null : null,
    wikipedia_url: httpUrl(t.wikipedia_url),
    image: image(t.default_photo),
    source: 'inaturalist',
    source_url: `https://www.inaturalist.org/taxa/${t.id}`,
    matched_by: matchedBy,
    locale,
    fetched_at: fetchedAt.toISOString(),
  };
}

function image(p: TaxonPhoto | null | undefined): SpeciesImage | null {
  const url = httpUrl(p?.medium_url) ?? httpUrl(p?.url);
  if (!p || !url) return null;
  return { url, square_url: httpUrl(p.square_url), attribution: text(p.attribution), license_code: text(p.license_code) };
}

function text(s: string | null | undefined): string | null {
  const t = typeof s === 'string' ? stripControls(s).trim() : '';
  return t === '' ? null : t;
}

function httpUrl(s: string | null | undefined): string | null {
  if (typeof s !== 'string') return null;
  try {
    const u = new URL(s.trim());
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—' };

/** Wikipedia's HTML summary as plain text: tags out (script and style with their content), entities decoded. */
export function htmlToPlainText(html: string): string {
  const noTags = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    // Block boundaries become spaces so that words of adjacent paragraphs do not run together.
    .replace(/<\/?(p|br|div|li|ul|ol|h[1-6])\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  const decoded = noTags.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ent: string) => {
    if (ent[0] === '#') {
      const cp = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : ' ';
    }
    return NAMED_ENTITIES[ent.toLowerCase()] ?? whole;
  });
  return stripControls(decoded).replace(/\s+/g, ' ').trim();
}

// eslint-disable-next-line no-control-regex -- removing control characters from outside text is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

function stripControls(s: string): string {
  return s.replace(CONTROLS, '');
}
