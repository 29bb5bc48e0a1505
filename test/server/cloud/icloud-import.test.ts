/**
 * iCloud through the real server over HTTP, against Apple's recorded answers (icloudpd's cassettes) replayed on
 * loopback: the server is started with the replay's addresses (HEARTH_TEST_ICLOUD_ENDPOINTS) and each scenario lays
 * out what Apple answers next. Shown in both response variants (anna speaks A, ben B; each connects the same Apple
 * account as their own credential): the two-factor sign-in (challenge, a wrong code, the right code), Apple's
 * refusals as problems, the stored session reused on reconnect and refused. Then, in A, an import of an iCloud
 * library (photos with RAW and Live Photo files, a hidden one, albums, a non-ASCII name) whose media are corpus files
 * served for the recorded download addresses, and a second run that brings nothing new.
 * No password, token or cookie of the cassettes may appear in any answer, and the password is nowhere at rest.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type HttpResult, type TestServer } from '../helpers/server.ts';
import { V1, data, login, problem, signedInHousehold } from '../helpers/api.ts';
import { CLIENT_ID, library, listingAnswers } from '../helpers/icloud-library.ts';
import { ICloudReplay, jsonInteraction, loadCassette, withBody } from '../helpers/icloud-replay.ts';

const DAY = 24 * 3600_000;
const JDOE = { username: 'JDoe@gmail.com', password: 'password1', domain: 'com' };
/** Strings of our inputs and of the cassettes' tokens and cookies that must never show in an answer. */
const SECRETS = ['password1', 'bad_password', 'token-1234567890', 'scnt-1234567890', 'sess-1234567890', '2svtoken', 'BST_IAAAAA', 'websessiontoken', 'X-APPLE-WEBAUTH', 'X-APPLE-DS-WEB'];
const VALID_2FA = loadCassette('2fa_flow_valid_code');
const INVALID_2FA = loadCassette('2fa_flow_invalid_code');

function assertNoSecret(text: string, where: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `"${s}" is in ${where}: ${text.slice(0, 400)}`);
}

interface Credential {
  id: string;
  status: string;
  session_expires_at: string | null;
  session_expires_soon: boolean;
  public_config: Record<string, string>;
  problem: { code: string; status: number; detail: string } | null;
}

describe('iCloud through the server (recorded Apple answers)', () => {
  let replay: ICloudReplay;
  let srv: TestServer;
  let annaId: number;
  let repositoryId: string;
  /** anna in variant A, ben in variant B. */
  const clients = {} as Record<'A' | 'B', Client>;
  const credentialIds = {} as Record<'A' | 'B', string>;
  /** Every answer the server gave, checked for secrets at the end of each test. */
  const answers: HttpResult[] = [];
  const heard = async (r: Promise<HttpResult>) => {
    const x = await r;
    answers.push(x);
    return x;
  };
  const credentialOf = async (c: Client, id: string): Promise<Credential> => {
    const list = data<{ credentials: Credential[] }>(c, await heard(c.get(`${V1}/cloud/credentials`))).credentials;
    return list.find((x) => x.id === id)!;
  };
  const finished = async (runId: string, c = clients.A) => {
    const until = Date.now() + 30_000;
    for (;;) {
      const run = data(c, await heard(c.get(`${V1}/cloud/import-runs/${runId}`)));
      if (!['queued', 'running'].includes(run.status)) return run;
      if (Date.now() > until) throw new Error(`run ${runId} still ${run.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    replay = await ICloudReplay.start([]);
    srv = await startServer({ env: { NODE_ENV: 'test', HEARTH_TEST_ICLOUD_ENDPOINTS: JSON.stringify({ ...replay.endpoints(), clientId: CLIENT_ID }) } });
    const household = await signedInHousehold(srv.url, 'A', ['anna', 'ben'] as const);
    clients.A = household.members.anna.client;
    annaId = household.members.anna.id;
    clients.B = new Client(srv.url, 'B');
    await login(clients.B, 'ben');
    repositoryId = srv.container.repositories.primary()!.repository_id;
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    await replay?.close();
  });

  for (const variant of ['A', 'B'] as const) {
    test(`${variant}: two-factor sign-in: the challenge with the masked phone, a wrong code refused, the right code connects for about 90 days`, async () => {
      const c = clients[variant];
      replay.reset([...INVALID_2FA, ...VALID_2FA.slice(4)]);
      const created = await heard(c.post(`${V1}/cloud/credentials`, { provider: 'icloud', inputs: JDOE }));
      assert.equal(created.status, 200, created.text);
      const first = data(c, created);
      assert.equal(first.auth_status, 'challenge_required');
      assert.equal(first.challenge.type, 'verification_code');
      assert.deepEqual(first.challenge.params, { delivery: 'device', phone: '+1 (•••) •••-••81' });
      assert.deepEqual(first.challenge.fields.map((f: { name: string }) => f.name), ['code']);
      assert.equal(first.credential.status, 'pending_challenge');
      assert.equal(first.credential.provider, 'icloud');
      assert.deepEqual(first.credential.public_config, { apple_id: 'J•••@gmail.com', domain: 'com' });
      assert.equal(first.credential.session_expires_at, null);
      const id = (credentialIds[variant] = first.credential.id as string);

      const wrong = await heard(c.post(`${V1}/cloud/credentials/${id}/auth-challenge`, { inputs: { code: '901431' } }));
      assert.equal(wrong.status, 422);
      assert.equal(problem(c, wrong).code, 'cloud_auth_failed');
      assert.equal((await credentialOf(c, id)).status, 'pending_challenge', 'still waiting for a code');

      const right = await heard(c.post(`${V1}/cloud/credentials/${id}/auth-challenge`, { inputs: { code: '654321' } }));
      assert.equal(right.status, 200, right.text);
      const done = data(c, right);
      assert.equal(done.auth_status, 'connected');
      assert.equal(done.credential.status, 'connected');
      const expires = Date.parse(done.credential.session_expires_at);
      assert.ok(Math.abs(expires - (Date.now() + 90 * DAY)) < 5 * 60_000, `session ends ${done.credential.session_expires_at}`);
      assert.equal(done.credential.session_expires_soon, false);
      assert.deepEqual(replay.unmatched(), []);
      assert.deepEqual(
        replay.to('/appleauth/auth/verify/trusteddevice/securitycode').map((r) => JSON.parse(r.body)),
        [{ securityCode: { code: '901431' } }, { securityCode: { code: '654321' } }],
      );
      assert.equal(replay.to('/appleauth/auth/2sv/trust').length, 1);

      // At rest: the catalog keeps the session sealed and never the password (the provider keeps none).
      const row = srv.container.cloudImport.credentials.store.get(id)!;
      assert.ok(!JSON.stringify(row).includes('password1'));
      const state = srv.container.cloudImport.credentials.stateOf(row);
      assert.deepEqual(state.secrets, {});
      assert.ok(!JSON.stringify(state).includes('password1'), 'the sealed state holds no password');
      assert.match(JSON.stringify(state.session), /2svtoken-1234567890/, 'the trust token is what is kept');
      for (const f of fs.readdirSync(srv.dataDir).filter((n) => n.startsWith('catalog.sqlite3'))) {
        assert.equal(fs.readFileSync(path.join(srv.dataDir, f)).includes('password1'), false, `${f} holds the password`);
      }
      for (const r of answers) assertNoSecret(r.text, `an answer (${r.status})`);
    });
  }

  for (const variant of ['A', 'B'] as const) {
    test(`${variant}: Apple's refusals are problems: a wrong password 422, Apple down 503, web access off 409; nothing is stored`, async () => {
      const c = clients[variant];
      const before = data(c, await heard(c.get(`${V1}/cloud/credentials`))).credentials.length;

      replay.reset(loadCassette('failed_auth'));
      const wrong = await heard(c.post(`${V1}/cloud/credentials`, { provider: 'icloud', inputs: { username: 'bad_username', password: 'bad_password', domain: 'com' } }));
      assert.equal(wrong.status, 422);
      assert.equal(problem(c, wrong).code, 'cloud_auth_failed');

      replay.reset(loadCassette('failed_auth_503'));
      const down = await heard(c.post(`${V1}/cloud/credentials`, { provider: 'icloud', inputs: JDOE }));
      assert.equal(down.status, 503);
      assert.equal(problem(c, down).code, 'cloud_service_unavailable');

      const off = loadCassette('auth_non_2fa');
      off[3] = withBody<{ dsInfo: Record<string, unknown> }>(off[3]!, (b) => void (b.dsInfo.isWebAccessAllowed = false));
      replay.reset(off);
      const refused = await heard(c.post(`${V1}/cloud/credentials`, { provider: 'icloud', inputs: JDOE }));
      assert.equal(refused.status, 409);
      const p = problem(c, refused);
      assert.equal(p.code, 'cloud_web_access_off');
      assert.match(p.detail, /Access iCloud Data on the Web/);

      assert.equal(data(c, await heard(c.get(`${V1}/cloud/credentials`))).credentials.length, before, 'no credential was made');
      assert.equal((await credentialOf(c, credentialIds[variant])).status, 'connected', 'the connected one is untouched');
      for (const r of answers) assertNoSecret(r.text, `an answer (${r.status})`);
    });
  }

  for (const variant of ['A', 'B'] as const) {
    test(`${variant}: reconnect without a password reuses the stored session`, async () => {
      const c = clients[variant];
      const id = credentialIds[variant];
      const expiresBefore = (await credentialOf(c, id)).session_expires_at;
      replay.reset(loadCassette('successful_auth'));
      const r = await heard(c.post(`${V1}/cloud/credentials/${id}/reconnect`, {}));
      assert.equal(r.status, 200, r.text);
      const a = data(c, r);
      assert.equal(a.auth_status, 'connected');
      assert.equal(a.challenge, null);
      assert.equal(a.credential.status, 'connected');
      assert.equal(a.credential.session_expires_at, expiresBefore, 'the trust ends when it did');
      assert.deepEqual(replay.unmatched(), []);
      assert.equal(replay.to('/setup/ws/1/validate').length, 1);
      assert.match(String(replay.to('/setup/ws/1/validate')[0]!.headers.cookie), /X-APPLE-WEBAUTH-/, 'the stored cookies went to Apple');
      assert.equal(replay.received.some((x) => x.path.includes('/signin')), false, 'no new sign-in');
      for (const x of answers) assertNoSecret(x.text, `an answer (${x.status})`);
    });
  }

  describe('an import of the iCloud library (variant A)', () => {
    const lib = library();
    let runId: string;

    test('every file of the listing comes in for its member: decoded names, capture times from the records, albums', async () => {
      const c = clients.A;
      replay.reset(listingAnswers(lib), lib.media);
      const r = await heard(c.post(`${V1}/repositories/${repositoryId}/cloud/sources`, { credential_id: credentialIds.A, remote_scope: {} }));
      assert.equal(r.status, 200, r.text);
      runId = data(c, r).run.id;
      const run = await finished(runId);
      assert.equal(run.status, 'completed', JSON.stringify(run));
      assert.equal(run.provider, 'icloud');
      assert.equal(run.total_seen, lib.expected.length);
      assert.equal(run.downloaded_count, lib.expected.length);
      assert.equal(run.failed_count, 0);
      assert.equal(run.skipped_count, 1, 'the video with the same bytes as another');
      assert.equal(run.imported_count, lib.expected.length - 1);
      assert.deepEqual(replay.unmatched(), []);
      assert.equal(replay.received.some((x) => x.path.endsWith('/records/modify')), false, 'nothing is changed at Apple');

      const report = data(c, await heard(c.get(`${V1}/cloud/import-runs/${runId}/files`)));
      assert.equal(report.files.length, 1);
      const skipped = report.files[0];
      assert.equal(skipped.reason_code, 'already_in_library');
      assert.ok(['IMG_7409.MOV', 'IMG_中文_7409.MOV'].includes(skipped.name), skipped.name);

      await srv.container.jobRunner.whenIdle();
      const assets = srv.container.db
        .prepare('SELECT asset_id, original_filename AS name, taken_time AS taken, capture_offset_minutes AS offset, time_source FROM assets WHERE owner_id = ? AND is_deleted = 0')
        .all(annaId) as { asset_id: string; name: string; taken: number; offset: number; time_source: string }[];
      const imported = lib.expected.filter((e) => e.name !== skipped.name);
      assert.deepEqual(assets.map((a) => a.name).sort(), imported.map((e) => e.name).sort());
      for (const e of imported) {
        const a = assets.find((x) => x.name === e.name)!;
        assert.deepEqual([a.taken, a.offset, a.time_source], [e.taken, e.offsetMinutes, 'source'], `${e.name}: the record's time`);
      }

      const albums = srv.container.db
        .prepare(
          `SELECT al.album_name AS album, a.original_filename AS name FROM albums al JOIN album_assets aa ON aa.album_id = al.album_id
           JOIN assets a ON a.asset_id = aa.asset_id WHERE al.owner_id = ? ORDER BY al.album_name, a.original_filename`,
        )
        .all(annaId) as { album: string; name: string }[];
      const inAlbum = (album: string) => albums.filter((x) => x.album === album).map((x) => x.name).sort();
      assert.deepEqual([...new Set(albums.map((x) => x.album))].sort(), ['Hochzeit', 'Jörg']);
      // The two videos are one asset: it is in the albums of both (the skipped one's album names join it).
      const video = skipped.name === 'IMG_7409.MOV' ? 'IMG_中文_7409.MOV' : 'IMG_7409.MOV';
      assert.deepEqual(inAlbum('Jörg'), ['IMG_7408.DNG', 'IMG_7408.JPG', 'IMG_7408.MOV', 'IMG_7409.DNG', video].sort());
      assert.deepEqual(inAlbum('Hochzeit'), ['IMG_7409.DNG', video, 'IMG_中文_7409.JPG'].sort());

      // The RAW alternative and its JPEG are one item (same stem, same folder), the JPEG standing for it; the Live
      // Photo video (resOriginalVidCompl, the original's companion) makes it a live photo (no content identifier pairs them).
      const pair = srv.container.db
        .prepare('SELECT a.original_filename AS name, c.relation, m.media_kind AS kind FROM assets a JOIN media_item_components c ON c.asset_id = a.asset_id JOIN media_items m ON m.media_item_id = c.media_item_id WHERE a.owner_id = ? AND a.original_filename LIKE ? ORDER BY c.position')
        .all(annaId, 'IMG_7408.%') as { name: string; relation: string; kind: string }[];
      assert.deepEqual(
        pair.map((x) => [x.name, x.relation, x.kind]),
        [
          ['IMG_7408.JPG', 'live_photo_still', 'live_photo'],
          ['IMG_7408.DNG', 'raw_original', 'live_photo'],
          ['IMG_7408.MOV', 'live_photo_video', 'live_photo'],
        ],
      );

      const archived = srv.container.db
        .prepare("SELECT a.original_filename FROM assets a JOIN asset_tags x ON x.asset_id = a.asset_id JOIN tags t ON t.tag_id = x.tag_id WHERE a.owner_id = ? AND t.tag_name = 'Archived'")
        .pluck()
        .all(annaId);
      assert.deepEqual(archived, ['IMG_7407.JPG'], 'the hidden photo is tagged Archived');

      // The bytes are the served files, each requested once; nothing is left in staging.
      const gets = replay.received.filter((x) => x.played === 'media');
      assert.equal(gets.length, lib.expected.length);
      const staging = path.join(srv.container.repositories.primary()!.path, '.hearth', 'staging', 'imports');
      assert.deepEqual(fs.existsSync(staging) ? fs.readdirSync(staging) : [], []);
      for (const x of answers) assertNoSecret(x.text, `an answer (${x.status})`);
    });

    test('a second run imports nothing new and says so', async () => {
      const c = clients.A;
      replay.reset(listingAnswers(lib), lib.media);
      const r = await heard(c.post(`${V1}/repositories/${repositoryId}/cloud/import`, {}));
      assert.equal(r.status, 200, r.text);
      const run = await finished(data(c, r).run.id);
      assert.equal(run.status, 'completed', JSON.stringify(run));
      assert.equal(run.imported_count, 0);
      assert.equal(run.downloaded_count, 0);
      assert.equal(run.unchanged_count, lib.expected.length);
      assert.match(run.summary, /^Nothing new/);
      assert.deepEqual(replay.unmatched(), []);
      assert.equal(replay.received.filter((x) => x.played === 'media').length, 0, 'nothing is fetched again');
    });

    test('a Live Photo video that comes in a later run than its still joins it then', async () => {
      const c = clients.B;
      // IMG_7408.MOV: the Live Photo video of the JPEG with a RAW alternative (its corpus file is its own).
      const movFile = lib.expected.find((e) => e.name === 'IMG_7408.MOV')!.file;
      const movPath = Object.keys(lib.media).find((p) => lib.media[p]!.file === movFile)!;
      const { [movPath]: _mov, ...withoutMov } = lib.media;
      // First run: the video's download is refused, so only the still (and the rest) come in.
      replay.reset(listingAnswers(lib), withoutMov);
      const r = await heard(c.post(`${V1}/repositories/${repositoryId}/cloud/sources`, { credential_id: credentialIds.B, remote_scope: {} }));
      assert.equal(r.status, 200, r.text);
      const first = await finished(data(c, r).run.id, c);
      assert.equal(first.status, 'completed', JSON.stringify(first));
      assert.equal(first.failed_count, 1, JSON.stringify(first));
      await srv.container.jobRunner.whenIdle();
      // Second run: the video comes, its still is in from the first.
      replay.reset(listingAnswers(lib), lib.media);
      const again = await heard(c.post(`${V1}/repositories/${repositoryId}/cloud/import`, {}));
      assert.equal(again.status, 200, again.text);
      const second = await finished(data(c, again).run.id, c);
      assert.equal(second.status, 'completed', JSON.stringify(second));
      assert.equal(second.imported_count, 1, JSON.stringify(second));
      await srv.container.jobRunner.whenIdle();
      const files = data(c, await heard(c.get(`${V1}/cloud/import-runs/${second.id}/files?outcome=imported`))).files as { name: string; asset_id: string }[];
      assert.deepEqual(files.map((f) => f.name), ['IMG_7408.MOV']);
      const item = data(c, await heard(c.get(`${V1}/assets/${files[0]!.asset_id}/media-item`))).media_item as { media_kind: string; components: { asset_id: string; relation: string }[] };
      assert.equal(item.media_kind, 'live_photo');
      assert.deepEqual(item.components.map((x) => x.relation), ['live_photo_still', 'raw_original', 'live_photo_video']);
      assert.equal(item.components[2]!.asset_id, files[0]!.asset_id);
    });
  });

  for (const variant of ['A', 'B'] as const) {
    test(`${variant}: a stored session Apple refuses → 409 cloud_session_expired, and the credential shows the error`, async () => {
      const c = clients[variant];
      const id = credentialIds[variant];
      replay.reset([
        // (Not 421, Apple's other refusal: fetch repeats a 421 request by itself, which a replay would count twice.)
        jsonInteraction('POST', 'https://setup.icloud.com/setup/ws/1/validate', 401, { error: 'Unauthorized' }),
        jsonInteraction('POST', 'https://setup.icloud.com/setup/ws/1/accountLogin', 401, { error: 'Unauthorized' }),
      ]);
      const r = await heard(c.post(`${V1}/cloud/credentials/${id}/reconnect`, {}));
      assert.equal(r.status, 409);
      assert.equal(problem(c, r).code, 'cloud_session_expired');
      assert.deepEqual(replay.unmatched(), []);
      const cred = await credentialOf(c, id);
      assert.equal(cred.status, 'error');
      assert.equal(cred.problem?.code, 'cloud_session_expired');
      assert.match(cred.problem!.detail, /sign in again/);
      for (const x of answers) assertNoSecret(x.text, `an answer (${x.status})`);
    });
  }
});
