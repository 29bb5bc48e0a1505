/**
 * File names with bidirectional controls (U+202E makes `beach\u202Egpj.exe` display as `beachexe.jpg`)
 * never reach a reader as such: uploads drop them from the name Hearth gives the file; files found on
 * disk keep their real name there (never renamed) and in the catalog, and every answer and download
 * shows the name without them: assets, lists, map points, folders, Content-Disposition, zip entries.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from './helpers/server.ts';
import { V1, data, registerAdmin } from './helpers/api.ts';
import { corpusFile, waitFor } from './repositories/helpers.ts';
import { uploadFile } from './uploads/helpers.ts';

const RLO = '\u202E';
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const FOLDER = `trips${'\u2067'}2024`;
const ON_DISK = `beach${RLO}gpj.jpg`;

/** Entry names of a zip, from its central directory. */
function zipNames(buf: Buffer): string[] {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a zip end record');
  const count = buf.readUInt16LE(end + 10);
  let i = buf.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let k = 0; k < count; k++) {
    assert.equal(buf.readUInt32LE(i), 0x02014b50, 'a central directory entry');
    const nameLen = buf.readUInt16LE(i + 28);
    names.push(buf.subarray(i + 46, i + 46 + nameLen).toString('utf8'));
    i += 46 + nameLen + buf.readUInt16LE(i + 30) + buf.readUInt16LE(i + 32);
  }
  return names;
}

function dispositionNames(header: string | null): string[] {
  assert.ok(header, 'a Content-Disposition header');
  const plain = /filename="([^"]*)"/.exec(header)?.[1] ?? '';
  const star = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(header)?.[1] ?? '');
  return [plain, star];
}

for (const variant of ['A', 'B'] as const) {
  describe(`bidirectional controls in file names, variant ${variant}`, () => {
    let srv: TestServer;
    let admin: Client;
    let uploadedId: string;
    let scannedId: string;
    let root: string;

    before(async () => {
      srv = await startServer();
      admin = new Client(srv.url, variant);
      await registerAdmin(admin);
      const src = fs.mkdtempSync(path.join(srv.dataDir, 'src-'));
      const file = path.join(src, 'source.jpg');
      fs.copyFileSync(corpusFile('exif/Canon_40D.jpg'), file);
      const up = await uploadFile(srv, admin.token!, file, { name: `party${RLO}gpj.exe.jpg` });
      assert.ok(up.status < 300, up.text);
      assert.ok(!BIDI.test(up.text), `the upload answer: ${up.text}`);
      uploadedId = (up.body as { asset_id: string }).asset_id;

      // A file that arrives on disk with such a name (a watched folder, a copy from elsewhere).
      const primary = srv.container.repositories.primary()!;
      root = primary.path;
      fs.mkdirSync(path.join(root, FOLDER), { recursive: true });
      fs.copyFileSync(corpusFile('gps/DSCN0010.jpg'), path.join(root, FOLDER, ON_DISK));
      const r = await admin.post(`${V1}/repositories/${primary.repository_id}/scans`, {});
      assert.ok(r.status < 300, r.text);
      const row = await waitFor('the file on disk catalogued and ready', () =>
        srv.container.db.prepare("SELECT asset_id, original_filename, state FROM assets WHERE storage_path = ? AND state = 'ready'").get(`${FOLDER}/${ON_DISK}`) as
          | { asset_id: string; original_filename: string }
          | undefined,
      );
      scannedId = row.asset_id;
      assert.equal(row.original_filename, ON_DISK, 'the catalog keeps the real name');
      await waitFor('the upload ready', () => srv.container.db.prepare("SELECT 1 AS ok FROM assets WHERE asset_id = ? AND state = 'ready'").get(uploadedId));
    });
    after(() => srv.stop({ removeData: true }));

    test('an upload is stored under a name without them', () => {
      const row = srv.container.db.prepare('SELECT storage_path, original_filename FROM assets WHERE asset_id = ?').get(uploadedId) as { storage_path: string; original_filename: string };
      assert.ok(!BIDI.test(row.original_filename) && !BIDI.test(row.storage_path), JSON.stringify(row));
      assert.ok(fs.existsSync(path.join(root, ...row.storage_path.split('/'))));
    });

    test('a file found on disk keeps its name there, and answers show it without them', async () => {
      assert.ok(fs.existsSync(path.join(root, FOLDER, ON_DISK)), 'the file on disk is untouched');
      const asset = data(admin, await admin.get(`${V1}/assets/${scannedId}`));
      assert.equal(asset.original_filename, 'beachgpj.jpg');
      assert.equal(asset.folder_path, FOLDER, 'the folder path stays an exact identifier');
      const list = await admin.post(`${V1}/assets/query`, { pagination: { limit: 50 } });
      assert.equal(list.status, 200, list.text);
      assert.ok(!BIDI.test(JSON.stringify(data(admin, list)).replace(/"folder_path":"[^"]*"/g, '')), 'queryAssets names');
      const points = await admin.get(`${V1}/assets/map-points`);
      assert.equal(points.status, 200, points.text);
      const point = data(admin, points).points.find((p: { asset_id: string }) => p.asset_id === scannedId);
      assert.ok(point, 'the GPS photo is on the map');
      assert.equal(point.original_filename, 'beachgpj.jpg');
      const primary = srv.container.repositories.primary()!;
      const folders = await admin.get(`${V1}/assets/folders?repository_id=${primary.repository_id}`);
      assert.equal(folders.status, 200, folders.text);
      const folder = data(admin, folders).folders.find((f: { folder_path: string }) => f.folder_path === FOLDER);
      assert.ok(folder, folders.text);
      assert.equal(folder.display_name, 'trips2024');
    });

    test('downloads are named without them: original, export and zip entries', async () => {
      const original = await admin.get(`${V1}/assets/${scannedId}/original`);
      assert.equal(original.status, 200);
      for (const n of dispositionNames(original.headers.get('content-disposition'))) assert.ok(!BIDI.test(n) && n.includes('beach'), n);
      const exported = await admin.get(`${V1}/assets/${scannedId}/export?format=png&max_width=64`);
      assert.equal(exported.status, 200);
      for (const n of dispositionNames(exported.headers.get('content-disposition'))) assert.equal(n, 'beachgpj.png');
      const res = await fetch(`${srv.url}${V1}/assets/download`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', 'x-api-variant': variant },
        body: JSON.stringify({ asset_ids: [scannedId, uploadedId] }),
      });
      assert.equal(res.status, 200);
      for (const n of dispositionNames(res.headers.get('content-disposition'))) assert.ok(!BIDI.test(n), n);
      const names = zipNames(Buffer.from(await res.arrayBuffer()));
      assert.equal(names.length, 2);
      assert.ok(names.includes('beachgpj.jpg'), names.join(', '));
      assert.ok(names.every((n) => !BIDI.test(n)), names.join(', '));
    });
  });
}
