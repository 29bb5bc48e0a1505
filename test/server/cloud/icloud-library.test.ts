/**
 * An opened iCloud Photos library against recorded CloudKit answers (icloudpd's listing cassettes) replayed on
 * loopback: the files of each photo (original, RAW, Live Photo video) with their facts and album names, videos,
 * non-ASCII names, hidden photos, and downloads of corpus bytes served for the recorded download addresses,
 * resumed with Range after a dropped connection. Also: a session refused mid-run, web access refused, and
 * download addresses off the content hosts.
 *
 * The listing cassettes record icloudpd's own sequence of CloudKit calls, which matches by URL only (every
 * query goes to records/query): each test lays out the recorded answers in the order this client asks —
 * validate, indexing state, albums (listing_albums), each album's members, the pages, the hidden pages —
 * adding the answers the cassettes do not hold (album members, the final empty page) as plain JSON.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { ICloudProvider } from '../../../server/src/adapters/cloud/icloud/index.ts';
import { ProviderError, type ListingProblem, type ProviderState, type RemoteItem } from '../../../server/src/adapters/cloud/provider.ts';
import { CORPUS } from '../media/corpus.ts';
import { ICloudReplay, bodyOf, jsonInteraction, loadCassette, withBody, type Interaction, type MediaFile } from '../helpers/icloud-replay.ts';
import type { PageBody, Rec } from '../helpers/icloud-library.ts';


const CLIENT_ID = 'DE309E26-942E-11E8-92F5-14109FE0B321';
const RAW_DNG = path.join(CORPUS, 'raw/iPhone12Pro_ProRAW_truncated.dng');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-icloud-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const signal = () => AbortSignal.timeout(30_000);
let replay: ICloudReplay | null = null;
afterEach(async () => {
  await replay?.close();
  replay = null;
});

const RAW = loadCassette('listing_photos_raw');
const ALBUMS = loadCassette('listing_albums');
/** The records/query address icloudpd's listings use (its clientId and dsid are in the query). */
const QUERY = RAW[1]!.request.uri;

const page = (records: Rec[], more = false): Interaction => jsonInteraction('POST', QUERY, 200, { records, ...(more ? { continuationMarker: 'more' } : {}) });

function pairs(body: PageBody, names: string[]): Rec[] {
  return body.records.filter((r) => names.includes(r.recordName) || names.includes((r.fields.masterRef?.value as { recordName?: string } | undefined)?.recordName ?? ''));
}

interface Layout {
  /** The recorded page of photos (edited as the test needs). */
  photos: Interaction;
  /** Album name → master record names in it. */
  albums?: Record<string, string[]>;
  hidden?: Rec[];
}

/** Sign-in (auth_non_2fa), then the listing's answers in this client's order. */
function cassette(l: Layout): Interaction[] {
  const photos = bodyOf<PageBody>(l.photos);
  const albumRecords = bodyOf<PageBody>(ALBUMS[6]!).records.filter((r) => r.recordName !== '----Root-Folder----');
  const members = albumRecords.map((a) => {
    const name = Buffer.from(String(a.fields.albumNameEnc!.value), 'base64').toString('utf8').normalize('NFC');
    return page(pairs(photos, l.albums?.[name] ?? []));
  });
  return [...loadCassette('auth_non_2fa'), RAW[0]!, RAW[1]!, ALBUMS[6]!, ...members, l.photos, page([]), page(l.hidden ?? [])];
}

async function open(interactions: Interaction[], media: Record<string, MediaFile> = {}) {
  replay = await ICloudReplay.start(interactions, media);
  const icloud = new ICloudProvider({ endpoints: replay.endpoints(), clientId: () => CLIENT_ID });
  const outcome = await icloud.signIn({ username: 'jdoe@gmail.com', password: 'password1', domain: 'com' }, signal());
  assert.equal(outcome.status, 'connected');
  const states: ProviderState[] = [];
  return { library: icloud.open(outcome.state, {}, (s) => states.push(s)), replay, states };
}

async function listAll(library: { list(s: AbortSignal): AsyncIterable<RemoteItem | ListingProblem> }) {
  const items: RemoteItem[] = [];
  const problems: ListingProblem[] = [];
  for await (const x of library.list(signal())) {
    if ('problem' in x) problems.push(x);
    else items.push(x);
  }
  return { items, problems, byId: new Map(items.map((i) => [i.id, i])) };
}

function edited(i: Interaction, edit: (b: PageBody) => void): Interaction {
  return withBody<PageBody>(i, edit);
}

function master(b: PageBody, name: string): Rec {
  return b.records.find((r) => r.recordName === name && r.recordType === 'CPLMaster')!;
}

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ProviderError, String(e));
    assert.ok(!/password1|token-1234567890|BST_/.test(e.message), e.message);
    return e;
  }
  assert.fail('expected a rejection');
}

const RAW_ID = 'AY6c+BsE0jjaXx9tmVGJM1D2VcEO';
const JPEG_ID = 'AR8OijSKPNBuzFZHNvRpv+yNookj';
const MOVIE_ID = 'AY+R3dhJpz0NaLm5n1dA8cdywPKa';

describe('iCloud Photos library (recorded CloudKit answers)', () => {
  test('photos with RAW and Live Photo files, their facts, albums and hidden photos', async () => {
    const photos = edited(RAW[5]!, (b) => {
      // A JPEG with a RAW alternative (the recorded page has RAW originals only).
      const jpeg = master(b, JPEG_ID);
      jpeg.fields.resOriginalAltRes = { type: 'ASSETID', value: { fileChecksum: 'alt-sum', size: 4321, downloadURL: 'https://cvws.icloud-content.com/B/alt/${f}?o=1' } };
      jpeg.fields.resOriginalAltFileType = { type: 'STRING', value: 'com.sony.arw-raw-image' };
    });
    const body = bodyOf<PageBody>(photos);
    const hiddenMaster: Rec = { ...structuredClone(master(body, MOVIE_ID)), recordName: 'HIDDEN-1' };
    const hiddenAsset = structuredClone(body.records.find((r) => (r.fields.masterRef?.value as { recordName: string } | undefined)?.recordName === MOVIE_ID)!);
    hiddenAsset.fields.masterRef = { type: 'REFERENCE', value: { recordName: 'HIDDEN-1' } };
    hiddenAsset.fields.isHidden = { type: 'INT64', value: 1 };
    hiddenAsset.fields.isFavorite = { type: 'INT64', value: 1 };
    const { library, replay, states } = await open(cassette({ photos, albums: { Jörg: [RAW_ID, JPEG_ID], Hochzeit: [RAW_ID] }, hidden: [hiddenMaster, hiddenAsset] }));
    const { items, problems, byId } = await listAll(library);
    assert.deepEqual(replay.unmatched(), []);
    assert.deepEqual(problems, []);
    const masters = body.records.filter((r) => r.recordType === 'CPLMaster');
    const lives = masters.filter((m) => m.fields.resOriginalVidCompl || m.fields.resOriginalVidComplRes).length;
    assert.equal(items.length, masters.length + lives + 1 + 1, 'one original per photo, its live video, the RAW alternative, the hidden one');

    const raw = byId.get(`${RAW_ID}:resOriginal`)!;
    assert.equal(raw.name, 'IMG_7409.DNG');
    assert.equal(raw.version, 'AY6c+BsE0jjaXx9tmVGJM1D2VcEO');
    assert.equal(raw.size, 1884695);
    assert.deepEqual(raw.folder, []);
    assert.deepEqual(raw.facts.capturedAt, { time: 1533021744816, offsetMinutes: 420 });
    assert.equal(raw.facts.favorite, false);
    assert.equal(raw.facts.archived, false);
    assert.ok(Math.abs(raw.facts.gps!.latitude - 18.82285) < 1e-6 && Math.abs(raw.facts.gps!.longitude - 98.9634033) < 1e-6, JSON.stringify(raw.facts.gps));
    // "Jörg" is recorded decomposed (o + U+0308): the album name arrives composed.
    assert.deepEqual(raw.facts.albumNames, ['Hochzeit', 'J\u00f6rg']);
    assert.equal(raw.facts.companionOf, undefined);

    const live = byId.get(`${RAW_ID}:resOriginalVidCompl`)!;
    assert.equal(live.name, 'IMG_7409.MOV');
    assert.equal(live.size, 3294075);
    assert.equal(live.version, 'AWekUGGQQFdAFiLtTwv3XGhsvgGY');
    assert.equal(live.facts.companionOf, `${RAW_ID}:resOriginal`);
    assert.deepEqual(live.facts.capturedAt, raw.facts.capturedAt);

    const alt = byId.get(`${JPEG_ID}:resOriginalAlt`)!;
    assert.equal(byId.get(`${JPEG_ID}:resOriginal`)!.name, 'IMG_7408.JPG');
    assert.equal(alt.name, 'IMG_7408.ARW');
    assert.equal(alt.version, 'alt-sum');
    assert.equal(alt.facts.companionOf, `${JPEG_ID}:resOriginal`);
    assert.deepEqual(alt.facts.albumNames, ['Jörg']);

    const movie = byId.get(`${MOVIE_ID}:resOriginal`)!;
    assert.equal(movie.name, 'IMG_7405.MOV');
    assert.equal(byId.has(`${MOVIE_ID}:resOriginalVidCompl`), false);
    assert.deepEqual(movie.facts.albumNames, []);

    const hidden = byId.get('HIDDEN-1:resOriginal')!;
    assert.equal(hidden.facts.archived, true);
    assert.equal(hidden.facts.favorite, true);

    // Read-only, and the password never reached a listing call.
    assert.equal(replay.received.some((r) => r.path.endsWith('/records/modify')), false);
    for (const r of replay.received) assert.ok(!r.body.includes('password1'), r.path);
    const query = replay.received.find((r) => r.path.endsWith('/records/query'))!;
    assert.match(query.query, /clientId=DE309E26/);
    assert.ok(states.length >= 1, 'the refreshed session is handed back');
    assert.deepEqual(states.at(-1)!.secrets, {});
  });

  test('videos: their original only, named and dated as recorded', async () => {
    const videos = loadCassette('listing_videos')[9]!;
    const { library, replay } = await open(cassette({ photos: videos }));
    const { items } = await listAll(library);
    assert.deepEqual(replay.unmatched(), []);
    const recorded = bodyOf<PageBody>(videos).records.filter((r) => r.recordType === 'CPLMaster' && r.fields.itemType?.value === 'com.apple.quicktime-movie');
    assert.ok(recorded.length > 0);
    for (const m of recorded) {
      const item = items.find((i) => i.id === `${m.recordName}:resOriginal`)!;
      assert.equal(item.name, Buffer.from(String(m.fields.filenameEnc!.value), 'base64').toString('utf8'));
      assert.match(item.name, /\.MOV$/i);
      assert.equal(item.size, (m.fields.resOriginalRes!.value as { size: number }).size);
      assert.ok(item.facts.capturedAt, item.name);
      assert.equal(items.some((i) => i.facts.companionOf === item.id), false);
    }
  });

  test('names that are not ASCII are decoded exactly', async () => {
    const { library } = await open(cassette({ photos: loadCassette('listing_photos_chinese')[5]! }));
    const { byId } = await listAll(library);
    assert.equal(byId.get(`${RAW_ID}:resOriginal`)!.name, 'IMG_中文_7409.JPG');
    assert.equal(byId.get(`${RAW_ID}:resOriginalVidCompl`)!.name, 'IMG_中文_7409.MOV');
  });

  test('download: the served bytes land in the file; a dropped connection resumes with Range', async () => {
    const size = fs.statSync(RAW_DNG).size;
    const photos = edited(RAW[5]!, (b) => {
      (master(b, RAW_ID).fields.resOriginalRes!.value as { size: number }).size = size;
    });
    const url = (bodyOf<PageBody>(photos).records.find((r) => r.recordName === RAW_ID)!.fields.resOriginalRes!.value as { downloadURL: string }).downloadURL;
    const media = { [new URL(url).pathname]: { file: RAW_DNG, cutFirstAfter: 20_000 } };
    const { library, replay } = await open(cassette({ photos }), media);
    const { byId } = await listAll(library);
    const item = byId.get(`${RAW_ID}:resOriginal`)!;
    const dest = path.join(tmp, 'IMG_7409.DNG');
    const progress: number[] = [];
    const cut = await rejection(library.download(item, dest, { offset: 0, signal: signal(), onProgress: (n) => progress.push(n) }));
    assert.equal(cut.code, 'unreachable');
    assert.equal(cut.retryable, true);
    const partial = fs.statSync(dest).size;
    assert.ok(partial > 0 && partial < size, `partial ${partial}`);
    await library.download(item, dest, { offset: partial, signal: signal(), onProgress: (n) => progress.push(n) });
    assert.ok(fs.readFileSync(dest).equals(fs.readFileSync(RAW_DNG)), 'the bytes are the served file');
    const gets = replay.received.filter((r) => r.method === 'GET' && r.host === 'cvws.icloud-content.com');
    assert.equal(gets.length, 2);
    assert.equal(gets[0]!.headers.range, undefined);
    assert.equal(gets[1]!.headers.range, `bytes=${partial}-`);
    assert.equal(gets[1]!.headers.cookie, undefined, 'no session cookie goes to the content host');
    assert.equal(progress.at(-1), size);
    await library.close();
  });

  test('download addresses off the content hosts, or redirected off them, are refused', async () => {
    const photos = edited(RAW[5]!, (b) => {
      (master(b, RAW_ID).fields.resOriginalRes!.value as { downloadURL: string }).downloadURL = 'https://p61-ckdatabasews.icloud.com/B/elsewhere/${f}';
      (master(b, JPEG_ID).fields.resOriginalRes!.value as { downloadURL: string }).downloadURL = 'https://cvws.icloud-content.com/B/moved/${f}';
    });
    const interactions = [...cassette({ photos }), jsonInteraction('GET', 'https://cvws.icloud-content.com/B/moved/${f}', 302, {}, { Location: ['https://p61-ckdatabasews.icloud.com/stolen'] })];
    const { library, replay } = await open(interactions);
    const { byId } = await listAll(library);
    const dest = path.join(tmp, 'refused');
    assert.equal((await rejection(library.download(byId.get(`${RAW_ID}:resOriginal`)!, dest, { offset: 0, signal: signal() }))).code, 'redirect_refused');
    assert.equal((await rejection(library.download(byId.get(`${JPEG_ID}:resOriginal`)!, dest, { offset: 0, signal: signal() }))).code, 'redirect_refused');
    assert.equal(replay.received.some((r) => r.path === '/stolen' || r.path.startsWith('/B/elsewhere')), false);
  });

  test('a session refused mid-run → session_expired; web access refused by CloudKit → web_access_off', async () => {
    const expired = [...loadCassette('auth_non_2fa'), RAW[0]!, RAW[1]!, jsonInteraction('POST', QUERY, 401, { serverErrorCode: 'AUTHENTICATION_REQUIRED' })];
    const first = await open(expired);
    assert.equal((await rejection(listAll(first.library))).code, 'session_expired');
    await replay!.close();
    replay = null;

    const denied = [...loadCassette('auth_non_2fa'), RAW[0]!, jsonInteraction('POST', QUERY, 403, { serverErrorCode: 'ACCESS_DENIED', reason: 'private db access disabled for this account' })];
    const second = await open(denied);
    const e = await rejection(listAll(second.library));
    assert.equal(e.code, 'web_access_off');
    assert.match(e.message, /Access iCloud Data on the Web/);
  });
});

describe('iCloud Photos library: the parts that do not stop a run', () => {
  test('an album or the hidden photos CloudKit cannot answer are reported, and the photos still listed', async () => {
    const interactions = cassette({ photos: RAW[5]! });
    // The second album's members and the hidden listing answer an error CloudKit uses for a bad query.
    const firstMembers = interactions.findIndex((i, n) => n > 0 && interactions[n - 1] === ALBUMS[6]);
    interactions[firstMembers + 1] = jsonInteraction('POST', QUERY, 400, { serverErrorCode: 'BAD_REQUEST', reason: 'Unknown field' });
    interactions[interactions.length - 1] = jsonInteraction('POST', QUERY, 400, { serverErrorCode: 'BAD_REQUEST', reason: 'Unknown field' });
    const { library, replay } = await open(interactions);
    const { items, problems } = await listAll(library);
    assert.deepEqual(replay.unmatched(), []);
    assert.deepEqual(
      problems.map((p) => p.where),
      ['Album "Jörg"', 'Hidden photos'],
    );
    assert.match(problems[0]!.reason, /BAD_REQUEST/);
    assert.ok(items.some((i) => i.id === `${RAW_ID}:resOriginal`));
  });

  test('a file listed by an earlier run is downloaded by looking its record up again', async () => {
    const size = fs.statSync(RAW_DNG).size;
    const photos = edited(RAW[5]!, (b) => {
      (master(b, RAW_ID).fields.resOriginalRes!.value as { size: number }).size = size;
    });
    const body = bodyOf<PageBody>(photos);
    const url = (master(body, RAW_ID).fields.resOriginalRes!.value as { downloadURL: string }).downloadURL;
    const lookup = jsonInteraction('POST', QUERY.replace('/records/query', '/records/lookup'), 200, { records: [master(body, RAW_ID)] });
    const interactions = [...cassette({ photos }), RAW[0]!, lookup];
    replay = await ICloudReplay.start(interactions, { [new URL(url).pathname]: { file: RAW_DNG } });
    const icloud = new ICloudProvider({ endpoints: replay.endpoints(), clientId: () => CLIENT_ID });
    const outcome = await icloud.signIn({ username: 'jdoe@gmail.com', password: 'password1', domain: 'com' }, signal());
    const earlier = await listAll(icloud.open(outcome.state, {}));
    const item = earlier.byId.get(`${RAW_ID}:resOriginal`)!;
    // A new run: nothing listed, the item as the feature kept it.
    const later = icloud.open(outcome.state, {});
    const dest = path.join(tmp, 'looked-up.dng');
    await later.download(item, dest, { offset: 0, signal: signal() });
    assert.ok(fs.readFileSync(dest).equals(fs.readFileSync(RAW_DNG)));
    assert.deepEqual(JSON.parse(replay.to(new URL(lookup.request.uri).pathname)[0]!.body), { records: [{ recordName: RAW_ID }], zoneID: { zoneName: 'PrimarySync' } });
    assert.deepEqual(replay.unmatched(), []);
  });

  test('checkScope: the whole primary library, no scope fields', async () => {
    replay = await ICloudReplay.start(loadCassette('auth_non_2fa'));
    const icloud = new ICloudProvider({ endpoints: replay.endpoints() });
    const outcome = await icloud.signIn({ username: 'jdoe@gmail.com', password: 'password1', domain: 'com' }, signal());
    assert.deepEqual(await icloud.checkScope(outcome.state, {}, signal()), { library: 'primary', title: 'iCloud Photos library' });
    assert.equal((await rejection(icloud.checkScope(outcome.state, { folder: '/Photos' }, signal()))).code, 'bad_input');
    assert.equal(icloud.descriptor.scope_fields.length, 0);
  });
});
