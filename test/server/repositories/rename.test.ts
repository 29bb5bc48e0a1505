/**
 * Renames and moves inside a watched repository, over a real server and real chokidar: the asset
 * keeps its id, takes the new path and, when the file itself was renamed, the new name everywhere a
 * person sees it (asset detail, filename search, the original's download name, zip entries), in
 * both response variants; and it never passes through the Trash, not even for a moment. "Never" is
 * checked with a trigger on the server's own catalog connection that records every asset put in
 * the Trash, so no polling can miss a brief visit.
 *
 * Covered: a rename in place, a move into another subfolder (renamed on the way, or not), a whole
 * folder renamed, the same done while watching is off and reconciled by a scan, a forced scan after
 * a rename, and uploads (their uploader's name survives folder moves and forced scans; a rename on
 * disk names them anew).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { data, login, V1 } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import { uploadFile } from '../uploads/helpers.ts';
import { assetAt, cleanupTemps, copyIn, corpusFile, createRepo, makeRepoFolder, scanNow, startEnv, waitFor, waitForScan, type Env } from './helpers.ts';

const WITHIN = 30_000;

interface Row {
  asset_id: string;
  storage_path: string;
  original_filename: string;
  is_deleted: number;
  state: string;
}

/** Names of the entries of a zip, read from its central directory. */
function zipEntryNames(zip: Buffer): string[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= 0; i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, 'a zip');
  const names: string[] = [];
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = zip.readUInt16LE(eocd + 10); n > 0; n--) {
    assert.equal(zip.readUInt32LE(p), 0x02014b50);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    names.push(zip.subarray(p + 46, p + 46 + nameLen).toString('utf8'));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

describe('Repositories: renames and moves keep the asset, take the new name, and never touch the Trash', { timeout: 600_000 }, () => {
  let env: Env;
  let dir: string;
  let id: string;
  let clientB: Client;

  before(async () => {
    env = await startEnv();
    const made = makeRepoFolder({ 'seed.jpg': 'exif/Canon_40D.jpg' });
    dir = made.dir;
    id = made.id!;
    await createRepo(env, dir, 'Renames');
    await waitForScan(env, id);
    await env.ts.container.repositories.watchersReady();
    clientB = new Client(env.ts.url, 'B');
    await login(clientB, 'alice');
    // Every asset put in the Trash, as it happens (a TEMP trigger lives on the server's connection).
    env.ts.container.db.exec(`
      CREATE TEMP TABLE trash_visits (asset_id TEXT NOT NULL, storage_path TEXT NOT NULL);
      CREATE TEMP TRIGGER trash_visits_log AFTER UPDATE OF is_deleted ON main.assets WHEN new.is_deleted = 1 AND old.is_deleted = 0
      BEGIN INSERT INTO trash_visits VALUES (new.asset_id, new.storage_path); END;`);
  });
  after(async () => {
    await env.ts.stop({ removeData: true });
    cleanupTemps();
  });

  const row = (assetId: string) =>
    env.ts.container.db.prepare('SELECT asset_id, storage_path, original_filename, is_deleted, state FROM assets WHERE asset_id = ?').get(assetId) as Row;
  const trashVisits = (assetIds: string[]) =>
    (env.ts.container.db.prepare('SELECT asset_id, storage_path FROM temp.trash_visits').all() as { asset_id: string; storage_path: string }[]).filter((v) =>
      assetIds.includes(v.asset_id),
    );
  const rowsOf = () =>
    env.ts.container.db.prepare('SELECT asset_id, storage_path, original_filename, is_deleted, state FROM assets WHERE repository_id = ?').all(id) as Row[];

  /** Copies a corpus file in and waits until it is catalogued and processed. */
  async function add(rel: string, corpusRel: string): Promise<Row> {
    copyIn(dir, rel, corpusRel);
    const a = await waitFor(`${rel} catalogued and ready`, () => {
      const r = assetAt(env.ts, id, rel);
      return r && !r.is_deleted && row(r.asset_id).state === 'ready' ? row(r.asset_id) : undefined;
    }, WITHIN);
    return a;
  }

  /** Waits until the asset is at `rel` with the given name, and the repository has nothing pending. */
  async function movedTo(assetId: string, rel: string, name: string): Promise<Row> {
    const r = await waitFor(`${assetId} at ${rel} named ${name}`, () => {
      const now = row(assetId);
      return now.storage_path === rel && now.original_filename === name && !now.is_deleted ? now : undefined;
    }, WITHIN);
    await env.ts.container.repositories.whenSettled(id);
    return r;
  }

  async function filenameSearch(c: Client, value: string): Promise<string[]> {
    const r = await c.post(`${V1}/assets/query`, { filter: { filename: { value } }, stack_mode: 'expanded', pagination: { limit: 200 } });
    assert.equal(r.status, 200, r.text);
    return (data(c, r).items as { media_item: { primary_asset: { asset_id: string } } }[]).map((i) => i.media_item.primary_asset.asset_id);
  }

  async function fetchAs(c: Client, p: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${env.ts.url}${p}`, { ...init, headers: { authorization: `Bearer ${c.token}`, 'x-api-variant': c.variant, ...(init.headers as Record<string, string>) } });
  }

  /** Everything a person sees of the asset's name says `name`, and nothing finds it by `oldStem`. */
  async function seenAs(assetId: string, name: string, oldStem: string): Promise<void> {
    for (const c of [env.admin, clientB]) {
      const detail = data(c, await c.get(`${V1}/assets/${assetId}`));
      assert.equal(detail.original_filename, name, `asset detail (variant ${c.variant})`);
      assert.ok((await filenameSearch(c, path.parse(name).name)).includes(assetId), `found by its new name (variant ${c.variant})`);
      assert.ok(!(await filenameSearch(c, oldStem)).includes(assetId), `not found by its old name (variant ${c.variant})`);
    }
    const original = await fetchAs(env.admin, `${V1}/assets/${assetId}/original`);
    assert.equal(original.status, 200);
    await original.arrayBuffer();
    const disposition = original.headers.get('content-disposition') ?? '';
    assert.ok(disposition.includes(encodeURIComponent(name)) || disposition.includes(`"${name}"`), `download name: ${disposition}`);
    const zip = await fetchAs(env.admin, `${V1}/assets/download`, { method: 'POST', body: JSON.stringify({ asset_ids: [assetId] }), headers: { 'content-type': 'application/json' } });
    assert.equal(zip.status, 200);
    assert.deepEqual(zipEntryNames(Buffer.from(await zip.arrayBuffer())), [name], 'zip entry');
  }

  test('a file renamed in place takes its new name everywhere, keeps its id, and never passes through the Trash', async () => {
    const before = await add('IMG_4711.jpg', 'exif/Nikon_D70.jpg');
    fs.renameSync(path.join(dir, 'IMG_4711.jpg'), path.join(dir, 'Lighthouse at dusk.jpg'));
    const after = await movedTo(before.asset_id, 'Lighthouse at dusk.jpg', 'Lighthouse at dusk.jpg');
    assert.equal(after.asset_id, before.asset_id);
    assert.equal(assetAt(env.ts, id, 'IMG_4711.jpg'), undefined, 'the old path is gone from the catalog');
    await seenAs(before.asset_id, 'Lighthouse at dusk.jpg', 'IMG_4711');

    // A forced scan re-checks every file: the name stays the new one, nothing is moved or deleted.
    const scan = await scanNow(env, id, { force: true });
    assert.equal(scan.status, 'completed', JSON.stringify(scan));
    assert.equal(scan.deleted, 0);
    assert.equal(row(before.asset_id).original_filename, 'Lighthouse at dusk.jpg');
    assert.deepEqual(trashVisits([before.asset_id]), [], 'never in the Trash');
  });

  test('a file moved into another subfolder: renamed on the way it takes the new name, moved under its name it keeps it', async () => {
    const renamed = await add('inbox/DSC_0001.jpg', 'exif/Pentax_K10D.jpg');
    const kept = await add('inbox/DSC_0002.jpg', 'exif/Olympus_E-P3.jpg');
    fs.mkdirSync(path.join(dir, '2024', 'summer'), { recursive: true });
    fs.renameSync(path.join(dir, 'inbox', 'DSC_0001.jpg'), path.join(dir, '2024', 'summer', 'Sea swim.jpg'));
    fs.renameSync(path.join(dir, 'inbox', 'DSC_0002.jpg'), path.join(dir, '2024', 'DSC_0002.jpg'));
    await movedTo(renamed.asset_id, '2024/summer/Sea swim.jpg', 'Sea swim.jpg');
    await movedTo(kept.asset_id, '2024/DSC_0002.jpg', 'DSC_0002.jpg');
    await seenAs(renamed.asset_id, 'Sea swim.jpg', 'DSC_0001');
    assert.deepEqual(trashVisits([renamed.asset_id, kept.asset_id]), [], 'never in the Trash');
  });

  test('a whole folder renamed: every file keeps its asset and name, none passes through the Trash', async () => {
    const files = {
      'Trip/one.jpg': 'exif/Sony_DSLR-A200.jpg',
      'Trip/two.jpg': 'exif/Ricoh_Caplio_RR330.jpg',
      'Trip/day 2/three.jpg': 'exif/Casio_EX-M2.jpg',
      'Trip/day 2/four.jpg': 'exif/Fujifilm_FinePix_E500.jpg',
    };
    const before: Record<string, Row> = {};
    for (const [rel, src] of Object.entries(files)) before[rel] = await add(rel, src);
    fs.renameSync(path.join(dir, 'Trip'), path.join(dir, 'Rome 2019'));
    for (const [rel, a] of Object.entries(before)) {
      const now = await movedTo(a.asset_id, rel.replace(/^Trip\//, 'Rome 2019/'), path.posix.basename(rel));
      assert.equal(now.asset_id, a.asset_id);
    }
    assert.deepEqual(trashVisits(Object.values(before).map((a) => a.asset_id)), [], 'never in the Trash');
    assert.equal(rowsOf().filter((r) => r.storage_path.startsWith('Trip/')).length, 0, 'no asset left at the old folder');
  });

  test('with watching off, a scan reconciles renames and moves before it trashes anything', async () => {
    const a = await add('scan/IMG_1.jpg', 'exif/Konica_Minolta_DiMAGE_Z3.jpg');
    const b = await add('scan/sub/IMG_2.jpg', 'exif/Nikon_COOLPIX_P1.jpg');
    const c = await add('scan/sub/IMG_3.jpg', 'gps/DSCN0010.jpg');
    const gone = await add('scan/IMG_gone.jpg', 'gps/DSCN0012.jpg');
    const repos = env.ts.container.repositories;
    await repos.stopWatching(id);
    try {
      fs.renameSync(path.join(dir, 'scan', 'IMG_1.jpg'), path.join(dir, 'scan', 'Garden.jpg'));
      fs.renameSync(path.join(dir, 'scan', 'sub'), path.join(dir, 'scan', 'Kids'));
      fs.rmSync(path.join(dir, 'scan', 'IMG_gone.jpg'));
      const scan = await scanNow(env, id, { force: true });
      assert.equal(scan.status, 'completed', JSON.stringify(scan));
      assert.equal(scan.moved, 3, JSON.stringify(scan));
      assert.equal(scan.deleted, 1, 'the file really removed is trashed');
      assert.equal(row(a.asset_id).storage_path, 'scan/Garden.jpg');
      assert.equal(row(a.asset_id).original_filename, 'Garden.jpg');
      assert.equal(row(b.asset_id).storage_path, 'scan/Kids/IMG_2.jpg');
      assert.equal(row(b.asset_id).original_filename, 'IMG_2.jpg');
      assert.equal(row(c.asset_id).storage_path, 'scan/Kids/IMG_3.jpg');
      assert.equal(row(gone.asset_id).is_deleted, 1);
      assert.deepEqual(trashVisits([a.asset_id, b.asset_id, c.asset_id]), [], 'the moved ones were never in the Trash');
      await seenAs(a.asset_id, 'Garden.jpg', 'IMG_1');
    } finally {
      await repos.startWatching(id);
    }
  });

  test('an upload keeps its uploader\'s name when moved to another folder and through forced scans; renamed on disk it takes the new name', async () => {
    const member = env.member;
    // Two different photos uploaded under the same name: the second is stored as "Holiday (1).jpg".
    const first = await uploadFile(env.ts, member.token!, corpusFile('gps/DSCN0021.jpg'), { name: 'Holiday.jpg', repositoryId: id });
    const second = await uploadFile(env.ts, member.token!, corpusFile('gps/big_ben.jpg'), { name: 'Holiday.jpg', repositoryId: id });
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    const up = await waitFor('the second upload processed', () => (row(second.body.asset_id)?.state === 'ready' ? row(second.body.asset_id) : undefined), WITHIN);
    assert.match(up.storage_path, /\/Holiday \(1\)\.jpg$/);
    assert.equal(up.original_filename, 'Holiday.jpg');
    await env.ts.container.repositories.whenSettled(id);

    fs.mkdirSync(path.join(dir, 'Sorted'), { recursive: true });
    fs.renameSync(path.join(dir, ...up.storage_path.split('/')), path.join(dir, 'Sorted', 'Holiday (1).jpg'));
    await movedTo(up.asset_id, 'Sorted/Holiday (1).jpg', 'Holiday.jpg');
    const scan = await scanNow(env, id, { force: true });
    assert.equal(scan.status, 'completed', JSON.stringify(scan));
    assert.equal(row(up.asset_id).original_filename, 'Holiday.jpg', 'a forced scan keeps the uploader\'s name');

    fs.renameSync(path.join(dir, 'Sorted', 'Holiday (1).jpg'), path.join(dir, 'Sorted', 'Big Ben.jpg'));
    await movedTo(up.asset_id, 'Sorted/Big Ben.jpg', 'Big Ben.jpg');
    assert.deepEqual(trashVisits([up.asset_id]), [], 'never in the Trash');
    assert.ok(fs.existsSync(path.join(dir, 'Sorted', 'Big Ben.jpg')));
  });
});
