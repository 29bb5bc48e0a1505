/**
 * An album folder's `metadata.json`: its title and, when Google knows one, its place (the fallback place of its
 * photos that have none). Two shapes exist: the current flat one (`title`, `enrichments`, `geoData`) and the older
 * `albumData` wrapper (`title`, `geoInfo`). Location enrichments give E7 integers (degrees × 10⁷).
 */
import { placeOf } from './sidecar.ts';

export interface AlbumMetadata {
  title: string | null;
  place: { latitude: number; longitude: number } | undefined;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function enrichmentPlace(enrichments: unknown): { latitude: number; longitude: number } | undefined {
  if (!Array.isArray(enrichments)) return undefined;
  for (const e of enrichments) {
    const locations = isObject(e) && isObject(e['locationEnrichment']) ? e['locationEnrichment']['location'] : undefined;
    if (!Array.isArray(locations)) continue;
    for (const l of locations) {
      if (!isObject(l)) continue;
      const place = placeOf({ latitude: Number(l['latitudeE7']) / 1e7, longitude: Number(l['longitudeE7']) / 1e7 });
      if (place) return place;
    }
  }
  return undefined;
}

/** Throws when the text is not a JSON object. */
export function parseAlbumMetadata(json: string): AlbumMetadata {
  const doc: unknown = JSON.parse(json);
  if (!isObject(doc)) throw new Error('album metadata is not a JSON object');
  const album = isObject(doc['albumData']) ? doc['albumData'] : doc;
  const title = typeof album['title'] === 'string' && album['title'].trim() !== '' ? album['title'].trim() : null;
  const place = enrichmentPlace(album['enrichments']) ?? placeOf(album['geoData']) ?? placeOf(album['geoInfo']);
  return { title, place };
}

/** File names Takeout gives a folder's own metadata (translated in some languages), never a photo's sidecar. */
export const FOLDER_METADATA_NAMES = new Set([
  'metadata.json',
  'metadaten.json',
  'métadonnées.json',
  'metadatos.json',
  'metadati.json',
]);

/** Other JSON files Takeout writes that describe nothing in particular for import. */
export const NON_SIDECAR_JSON = new Set(['print-subscriptions.json', 'shared_album_comments.json', 'user-generated-memory-titles.json']);
