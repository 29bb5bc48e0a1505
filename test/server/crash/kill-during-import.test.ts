/**
 * The import crash test: the real server (a child process) imports a WebDAV folder (rclone on loopback) and is
 * killed with SIGKILL at moments spread over the run, three times; after each start the run shows `interrupted`
 * and is resumed by its member over HTTP. After the last resume completes:
 *
 * - every remote file is catalogued exactly once, for the member, by its content (each file is unique);
 * - the run is `completed`, has seen every file, failed none, and no file is both imported and reported;
 * - nothing is left in `.hearth/staging/` and no door commit is left unsettled;
 * - `PRAGMA integrity_check` is ok.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { hashBytes } from '../../../server/src/adapters/media/hash.ts';
import { Client, tempDataDir } from '../helpers/server.ts';
import { V1, data, login, registerAdmin } from '../helpers/api.ts';
import { startRcloneWebdav } from '../helpers/rclone-webdav.ts';
import { CORPUS } from '../media/corpus.ts';
import { kill9, openCatalog, startChild, stopChild, until, type Child } from './child.ts';

const FILES = 48;
const KILLS = 3;
const POOL = ['exif/Canon_40D.jpg', 'exif/Nikon_D70.jpg', 'exif/Pentax_K10D.jpg', 'exif/Panasonic_DMC-FZ30.jpg', 'gps/big_ben.jpg', 'gps/sydney_opera_house.jpg'].map((rel) =>
  fs.readFileSync(path.join(CORPUS, rel)),
);

/** The photo with a JPEG comment segment carrying `id` right after SOI: a valid, unique file. */
function uniqueJpeg(base: Buffer, id: string): Buffer {
  const text = Buffer.from(`hearth import crash test ${id}`);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]);
}

function openCatalogValue(dataDir: string, sql: string): string | undefined {
  const db = openCatalog(dataDir);
  try {
    return db.prepare(sql).pluck().get() as string | undefined;
  } finally {
    db.close();
  }
}

test(`kill -9 during an import (${KILLS} times), resume: every file imported exactly once, nothing left in staging`, { timeout: 600_000 }, async () => {
  const remote = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-dav-crash-'));
  const hashes = new Set<string>();
  for (let i = 0; i < FILES; i++) {
    const bytes = uniqueJpeg(POOL[i % POOL.length]!, `file-${i}`);
    const rel = path.join(`folder-${i % 4}`, `photo-${i}.jpg`);
    fs.mkdirSync(path.join(remote, path.dirname(rel)), { recursive: true });
    fs.writeFileSync(path.join(remote, rel), bytes);
    hashes.add(await hashBytes(bytes));
  }
  const dav = await startRcloneWebdav({ dir: remote, user: 'anna', pass: 'crash-pass' });
  const dataDir = tempDataDir('hearth-crash-import-');
  let child: Child | undefined;
  try {
    child = await startChild(dataDir);
    let anna = new Client(child.url);
    await registerAdmin(anna, 'anna');
    const cred = data(anna, await anna.post(`${V1}/cloud/credentials`, { provider: 'webdav', inputs: { url: dav.url, username: 'anna', password: 'crash-pass' } })).credential;
    const repositoryId = openCatalogValue(dataDir, "SELECT repository_id FROM repositories WHERE role = 'primary'");
    assert.ok(repositoryId, 'the primary repository');
    const first = await anna.post(`${V1}/repositories/${repositoryId}/cloud/sources`, { credential_id: cred.id, remote_scope: { folder: '' } });
    assert.equal(first.status, 200, first.text);
    const runId: string = data(anna, first).run.id;

    const handled = () => {
      const db = openCatalog(dataDir);
      try {
        return db.prepare('SELECT count(*) FROM import_run_files WHERE run_id = ?').pluck().get(runId) as number;
      } catch {
        return 0;
      } finally {
        db.close();
      }
    };
    for (let k = 1; k <= KILLS; k++) {
      // Each kill lands a little further into the run: after about k/(KILLS+1) of the files were handled.
      const at = Math.floor((k * FILES) / (KILLS + 1));
      await until(`the run to handle ${at} files`, () => handled() >= at || null, 120_000);
      await kill9(child);
      child = await startChild(dataDir);
      anna = new Client(child.url);
      await login(anna, 'anna');
      const shown = data(anna, await anna.get(`${V1}/cloud/import-runs/${runId}`));
      if (shown.status === 'completed') break; // the kill came after the end
      assert.equal(shown.status, 'interrupted', 'a run a kill stopped is shown interrupted');
      const resumed = await anna.post(`${V1}/cloud/import-runs/${runId}/resume`);
      assert.equal(resumed.status, 200, resumed.text);
    }
    const run = await until('the run to complete', async () => {
      const r = data(anna, await anna.get(`${V1}/cloud/import-runs/${runId}`));
      return r.status === 'completed' ? r : null;
    });
    assert.equal(run.total_seen, FILES, 'every file seen');
    assert.equal(run.failed_count, 0);
    await stopChild(child);

    const db = openCatalog(dataDir);
    try {
      const assets = db.prepare('SELECT hash AS content_hash, owner_id FROM assets').all() as { content_hash: string; owner_id: number }[];
      assert.equal(assets.length, FILES, 'one asset per remote file');
      assert.deepEqual(new Set(assets.map((a) => a.content_hash)), hashes, 'each remote file, once');
      assert.equal(new Set(assets.map((a) => a.owner_id)).size, 1, 'all the member’s');
      const files = db.prepare("SELECT outcome, count(*) AS n FROM import_run_files WHERE run_id = ? GROUP BY outcome").all(runId) as { outcome: string; n: number }[];
      const total = files.reduce((s, f) => s + f.n, 0);
      assert.equal(total, FILES, `every file handled once by the run: ${JSON.stringify(files)}`);
      assert.equal(db.prepare('SELECT count(*) FROM intake_commits').pluck().get(), 0, 'no commit left unsettled');
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
    const staging = path.join(dataDir, 'storage/primary/.hearth/staging');
    const left = fs.existsSync(staging) ? fs.readdirSync(staging, { recursive: true }).filter((n) => !fs.statSync(path.join(staging, String(n))).isDirectory()) : [];
    assert.deepEqual(left, [], 'nothing left in staging');
  } finally {
    if (child) await kill9(child);
    await dav.close();
    fs.rmSync(remote, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
