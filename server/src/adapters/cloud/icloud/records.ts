/**
 * CloudKit photo records → the files an import fetches. A photo is a CPLMaster (the files: original, RAW
 * alternative, Live Photo video) and a CPLAsset (what the person did with it: date, zone offset, favourite,
 * hidden, place, caption). One RemoteItem per file, the RAW and the video marked as companions of the
 * original so the library keeps them as one capture.
 */
import type { ListingProblem, RemoteFacts, RemoteItem } from '../provider.ts';
import { decodeLocation } from './location.ts';

export interface CkField {
  value?: unknown;
  type?: string;
}

export interface CkRecord {
  recordName: string;
  recordType: string;
  fields: Record<string, CkField | undefined>;
  modified?: { timestamp?: number };
  deleted?: boolean;
}

/** The file resources imported, by CloudKit field prefix. */
export const RESOURCES = ['resOriginal', 'resOriginalAlt', 'resOriginalVidCompl'] as const;
export type ResourceKey = (typeof RESOURCES)[number];

/** File extensions for CloudKit's type identifiers (the list icloudpd knows). */
const EXTENSIONS: Record<string, string> = {
  'public.heic': 'HEIC',
  'public.heif': 'HEIF',
  'public.jpeg': 'JPG',
  'public.png': 'PNG',
  'com.apple.quicktime-movie': 'MOV',
  'public.mpeg-4': 'MP4',
  'com.compuserve.gif': 'GIF',
  'com.adobe.raw-image': 'DNG',
  'com.canon.cr2-raw-image': 'CR2',
  'com.canon.crw-raw-image': 'CRW',
  'com.canon.cr3-raw-image': 'CR3',
  'com.sony.arw-raw-image': 'ARW',
  'com.fuji.raw-image': 'RAF',
  'com.panasonic.rw2-raw-image': 'RW2',
  'com.nikon.nrw-raw-image': 'NRW',
  'com.nikon.raw-image': 'NEF',
  'com.pentax.raw-image': 'PEF',
  'com.olympus.raw-image': 'ORF',
  'com.olympus.or-raw-image': 'ORF',
};

/** Where a listed file's bytes are, kept beside the item (download URLs are not part of RemoteItem). */
export interface ResourceLocation {
  url: string;
  size: number | null;
}

export interface ListedFile {
  item: RemoteItem;
  location: ResourceLocation;
}

function num(f: CkField | undefined): number | null {
  return typeof f?.value === 'number' && Number.isFinite(f.value) ? f.value : null;
}

function str(f: CkField | undefined): string | null {
  return typeof f?.value === 'string' ? f.value : null;
}

/** A STRING as it is, ENCRYPTED_BYTES as base64 of UTF-8 (filenameEnc, captionEnc). */
export function decodeText(f: CkField | undefined): string | null {
  const v = str(f);
  if (v === null) return null;
  if (f?.type === 'ENCRYPTED_BYTES') {
    const text = Buffer.from(v, 'base64').toString('utf8');
    return text.includes('\uFFFD') ? null : text;
  }
  return v;
}

interface Resource {
  key: ResourceKey;
  url: string;
  size: number | null;
  checksum: string | null;
  fileType: string | null;
}

/** A resource from the asset record first (an edit may override it), else the master, as icloudpd reads it. */
function resourceOf(master: CkRecord, asset: CkRecord | undefined, key: ResourceKey): Resource | null {
  const holder = asset?.fields[`${key}Res`] ? asset : master.fields[`${key}Res`] ? master : null;
  const res = holder?.fields[`${key}Res`]?.value as { downloadURL?: unknown; size?: unknown; fileChecksum?: unknown } | undefined;
  if (!holder || !res || typeof res.downloadURL !== 'string') return null;
  return {
    key,
    url: res.downloadURL,
    size: typeof res.size === 'number' ? res.size : null,
    checksum: typeof res.fileChecksum === 'string' ? res.fileChecksum : null,
    fileType: str(holder.fields[`${key}FileType`]),
  };
}

function splitName(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : [name, ''];
}

/** Names the files: the original as iCloud has it, the RAW and the video with the original's stem and their own extension. */
function nameFor(baseName: string, r: Resource, originalName: string): string {
  const ext = (r.fileType && EXTENSIONS[r.fileType]) ?? null;
  const [stem, ownExt] = splitName(baseName);
  if (r.key === 'resOriginal') return ownExt || !ext ? baseName : `${baseName}.${ext}`;
  const name = `${stem}.${ext ?? (r.key === 'resOriginalVidCompl' ? 'MOV' : ownExt || 'bin')}`;
  return name.toLowerCase() === originalName.toLowerCase() ? `${stem} (${r.key === 'resOriginalAlt' ? 'alternative' : 'live'}).${splitName(name)[1]}` : name;
}

function factsOf(asset: CkRecord | undefined, albumNames: string[], hiddenListing: boolean): RemoteFacts {
  const facts: RemoteFacts = { albumNames };
  const f = asset?.fields ?? {};
  const date = num(f.assetDate);
  if (date !== null) {
    const offset = num(f.timeZoneOffset);
    facts.capturedAt = { time: date, offsetMinutes: offset === null ? null : Math.round(offset / 60) };
  }
  const favorite = num(f.isFavorite);
  if (favorite !== null) facts.favorite = favorite === 1;
  const hidden = num(f.isHidden);
  facts.archived = hiddenListing || hidden === 1;
  const lat = num(f.locationLatitude);
  const lon = num(f.locationLongitude);
  const enc = str(f.locationEnc);
  const gps = lat !== null && lon !== null ? { latitude: lat, longitude: lon } : enc ? decodeLocation(enc) : null;
  if (gps) facts.gps = gps;
  const caption = decodeText(f.captionEnc);
  if (caption) facts.description = caption;
  return facts;
}

/** A name for a record without filenameEnc: its record name, made safe for a file name. */
function fallbackName(master: CkRecord): string {
  return master.recordName.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The files of one photo or video, or why it cannot be offered. */
export function filesOf(master: CkRecord, asset: CkRecord | undefined, albumNames: string[], hiddenListing: boolean): (ListedFile | ListingProblem)[] {
  const original = resourceOf(master, asset, 'resOriginal');
  if (!original) return [{ problem: true, where: master.recordName, reason: 'iCloud lists this item without an original file to download.' }];
  const baseName = decodeText(master.fields.filenameEnc) ?? fallbackName(master);
  const originalName = nameFor(baseName, original, baseName);
  const originalId = `${master.recordName}:resOriginal`;
  const facts = factsOf(asset, albumNames, hiddenListing);
  const out: ListedFile[] = [];
  for (const key of RESOURCES) {
    const r = key === 'resOriginal' ? original : resourceOf(master, asset, key);
    if (!r) continue;
    const modified = master.modified?.timestamp ?? 0;
    const item: RemoteItem = {
      id: `${master.recordName}:${key}`,
      version: r.checksum ?? `${r.size ?? 0}:${modified}`,
      name: key === 'resOriginal' ? originalName : nameFor(baseName, r, originalName),
      folder: [],
      size: r.size,
      facts: key === 'resOriginal' ? facts : { ...facts, companionOf: originalId },
    };
    out.push({ item, location: { url: r.url, size: r.size } });
  }
  return out;
}
