/**
 * An iCloud Photos library for the replay (icloud-replay.ts), built from the recorded listings: RAW_ID a ProRAW DNG
 * with its Live Photo video, JPEG_ID a JPEG with a RAW alternative and its video, CN_ID a JPEG with a non-ASCII name
 * whose video has the same bytes as RAW_ID's (one of the two is skipped), and a hidden JPEG; two albums. Every
 * file's download address is its own path on the content host, served with a corpus file. Shared by the server
 * test of the import (cloud/icloud-import.test.ts) and the browser spec (test/e2e/icloud.spec.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../media/corpus.ts';
import { bodyOf, jsonInteraction, loadCassette, withBody, type Interaction, type MediaFile } from './icloud-replay.ts';

/** A CloudKit record as the recordings hold it. */
export interface Rec {
  recordName: string;
  recordType: string;
  fields: Record<string, { value: unknown; type?: string } | undefined>;
}
/** A page of a CloudKit query's answer. */
export interface PageBody {
  records: Rec[];
  continuationMarker?: string;
}

/** The client id of the recordings: CloudKit's recorded query strings carry it. */
export const CLIENT_ID = 'DE309E26-942E-11E8-92F5-14109FE0B321';

const RAW = loadCassette('listing_photos_raw');
const ALBUMS = loadCassette('listing_albums');
const CHINESE = loadCassette('listing_photos_chinese')[5]!;
/** The records/query address icloudpd's listings use (its clientId and dsid are in the query). */
const QUERY = RAW[1]!.request.uri;

const RAW_ID = 'AY6c+BsE0jjaXx9tmVGJM1D2VcEO';
const JPEG_ID = 'AR8OijSKPNBuzFZHNvRpv+yNookj';
const PLAIN_ID = 'AZ/wAGT9P6jhr0NKCjLyh7KawNEx';
/** The Chinese recording's photo (the same record as RAW_ID, its name not ASCII), listed here under its own name. */
const CN_ID = 'CN-7409';
const HIDDEN_ID = 'HIDDEN-7407';

const page = (records: Rec[], more = false): Interaction => jsonInteraction('POST', QUERY, 200, { records, ...(more ? { continuationMarker: 'more' } : {}) });
const masterRefOf = (r: Rec) => (r.fields.masterRef?.value as { recordName?: string } | undefined)?.recordName;
const master = (b: PageBody, name: string) => b.records.find((r) => r.recordType === 'CPLMaster' && r.recordName === name)!;
const assetOf = (b: PageBody, name: string) => b.records.find((r) => r.recordType === 'CPLAsset' && masterRefOf(r) === name)!;

/** A photo's master and asset records under another record name. */
function renamed(b: PageBody, from: string, to: string): [Rec, Rec] {
  const m = structuredClone(master(b, from));
  const a = structuredClone(assetOf(b, from));
  m.recordName = to;
  a.recordName = `${to}-asset`;
  a.fields.masterRef = { type: 'REFERENCE', value: { recordName: to } };
  return [m, a];
}

function pairs(body: PageBody, names: string[]): Rec[] {
  return body.records.filter((r) => names.includes(r.recordName) || names.includes(masterRefOf(r) ?? ''));
}

/** One file of the listing: what the import should make of it. */
export interface Expected {
  id: string;
  name: string;
  taken: number;
  offsetMinutes: number;
  file: string;
}

/**
 * The library: RAW_ID a ProRAW DNG with its Live Photo video, JPEG_ID a JPEG with a RAW alternative and its video,
 * CN_ID a JPEG with a non-ASCII name whose video has the same bytes as RAW_ID's (one of the two is skipped), and a
 * hidden JPEG. Every file's download address is its own path on the content host, served with a corpus file.
 */
export function library() {
  const media: Record<string, MediaFile> = {};
  const expected: Expected[] = [];
  const raw = bodyOf<PageBody>(RAW[5]!);
  const cn = bodyOf<PageBody>(CHINESE);
  const records = [master(raw, RAW_ID), assetOf(raw, RAW_ID), master(raw, JPEG_ID), assetOf(raw, JPEG_ID), ...renamed(cn, RAW_ID, CN_ID)];
  const [hiddenMaster, hiddenAsset] = renamed(raw, PLAIN_ID, HIDDEN_ID);
  delete hiddenMaster.fields.resOriginalVidComplRes;
  delete hiddenMaster.fields.resOriginalVidComplFileType;
  hiddenAsset.fields.isHidden = { type: 'INT64', value: 1 };
  const all = [...records, hiddenMaster, hiddenAsset];

  const serve = (recordName: string, resource: 'resOriginal' | 'resOriginalAlt' | 'resOriginalVidCompl', corpusFile: string, name: string) => {
    const m = all.find((r) => r.recordType === 'CPLMaster' && r.recordName === recordName)!;
    const a = all.find((r) => r.recordType === 'CPLAsset' && masterRefOf(r) === recordName)!;
    const file = path.join(CORPUS, corpusFile);
    const slug = `${recordName.replace(/[^A-Za-z0-9-]/g, '_')}-${resource}`;
    const url = `https://cvws.icloud-content.com/B/${slug}/\${f}?o=1`;
    m.fields[`${resource}Res`] = { type: 'ASSETID', value: { fileChecksum: `${slug}-sum`, size: fs.statSync(file).size, downloadURL: url } };
    media[new URL(url).pathname] = { file };
    expected.push({ id: `${recordName}:${resource}`, name, taken: a.fields.assetDate!.value as number, offsetMinutes: (a.fields.timeZoneOffset!.value as number) / 60, file });
  };
  serve(RAW_ID, 'resOriginal', 'raw/iPhone12Pro_ProRAW_truncated.dng', 'IMG_7409.DNG');
  serve(RAW_ID, 'resOriginalVidCompl', 'video/with-gps.mov', 'IMG_7409.MOV');
  serve(JPEG_ID, 'resOriginal', 'exif/Canon_40D.jpg', 'IMG_7408.JPG');
  serve(JPEG_ID, 'resOriginalAlt', 'raw/exiftool_DNG.dng', 'IMG_7408.DNG');
  master(raw, JPEG_ID).fields.resOriginalAltFileType = { type: 'STRING', value: 'com.adobe.raw-image' };
  serve(JPEG_ID, 'resOriginalVidCompl', 'video/xmp480qt.mov', 'IMG_7408.MOV');
  serve(CN_ID, 'resOriginal', 'exif/Nikon_D70.jpg', 'IMG_中文_7409.JPG');
  serve(CN_ID, 'resOriginalVidCompl', 'video/with-gps.mov', 'IMG_中文_7409.MOV');
  serve(HIDDEN_ID, 'resOriginal', 'exif/Pentax_K10D.jpg', 'IMG_7407.JPG');

  const photos = withBody<PageBody>(RAW[5]!, (b) => ({ ...b, records }));
  const albums = { Jörg: [RAW_ID, JPEG_ID], Hochzeit: [RAW_ID, CN_ID] };
  return { photos, hidden: [hiddenMaster, hiddenAsset], albums, media, expected };
}

/**
 * What an import run asks, in this client's order (icloud-library.test.ts): validate the stored session, the
 * indexing state, the albums (listing_albums), each album's members, the pages, the hidden pages. The cassettes
 * record icloudpd's sequence, matched by URL only (every query goes to records/query), hence laid out by hand.
 */
export function listingAnswers(l: ReturnType<typeof library>): Interaction[] {
  const photos = bodyOf<PageBody>(l.photos);
  const albumRecords = bodyOf<PageBody>(ALBUMS[6]!).records.filter((r) => r.recordName !== '----Root-Folder----');
  const members = albumRecords.map((a) => {
    const name = Buffer.from(String(a.fields.albumNameEnc!.value), 'base64').toString('utf8').normalize('NFC');
    return page(pairs(photos, l.albums[name as keyof typeof l.albums] ?? []));
  });
  return [RAW[0]!, RAW[1]!, ALBUMS[6]!, ...members, l.photos, page([]), page(l.hidden)];
}
