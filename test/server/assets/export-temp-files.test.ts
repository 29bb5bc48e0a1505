/**
 * Hearth's temporary files stay in its data folder: exports through the HTTP API, in every format, write
 * nothing to the system's temp folder (TMPDIR, shared by every user and install of the machine). The server
 * runs as its own process here because TMPDIR is read per process: the child is started with TMPDIR pointed
 * at an empty folder the test watches. A leftover from a previous run in `<data>/tmp` is gone after the start.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Client, tempDataDir } from '../helpers/server.ts';
import { V1, registerAdmin } from '../helpers/api.ts';
import { CORPUS, U, listFiles, postMultipart } from '../uploads/helpers.ts';
import { startChild, stopChild, until } from '../crash/child.ts';

test('exports write their temporary files inside the data folder, never to TMPDIR', { timeout: 300_000 }, async () => {
  const dataDir = tempDataDir('hearth-export-tmp-');
  const watched = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-watched-tmpdir-'));
  const leftover = path.join(dataDir, 'tmp/exports/left-by-a-crash.jpg');
  fs.mkdirSync(path.dirname(leftover), { recursive: true });
  fs.writeFileSync(leftover, 'stale');
  // Everything the server creates in TMPDIR, even for a moment (a file written and removed again).
  const seen: string[] = [];
  const watcher = fs.watch(watched, { recursive: true }, (_event, name) => name && seen.push(name));
  // tsx, which runs the server from source here, keeps its own compile cache in TMPDIR: not Hearth's doing.
  const server = await startChild(dataDir, { TMPDIR: watched, TMP: watched, TEMP: watched, TSX_DISABLE_CACHE: '1' });
  try {
    assert.equal(fs.existsSync(leftover), false, 'the temporary folder is emptied at start');
    const owner = new Client(server.url);
    await registerAdmin(owner);
    const up = await postMultipart(server.url, `${U}/files`, owner.token, [{ name: 'file', filename: 'Canon_40D.jpg', data: fs.readFileSync(path.join(CORPUS, 'exif/Canon_40D.jpg')) }]);
    assert.equal(up.status, 200, up.text);
    const id = up.body.asset_id as string;
    await until('the upload to be ready', async () => (await owner.get(`${V1}/assets/${id}`)).body.state === 'ready');

    // A small export can be sent whole and removed before the client looks, so what the folder saw is recorded.
    const exportsDir = path.join(dataDir, 'tmp/exports');
    fs.mkdirSync(exportsDir, { recursive: true });
    const madeThere = new Set<string>();
    const exportsWatcher = fs.watch(exportsDir, (_event, name) => name && madeThere.add(String(name)));
    for (const format of ['jpeg', 'png', 'webp', 'avif']) {
      madeThere.clear();
      const r = await fetch(`${server.url}${V1}/assets/${id}/export?format=${format}&max_width=200`, { headers: { authorization: `Bearer ${owner.token}` } });
      assert.equal(r.status, 200, format);
      // The encoded file was written in the data folder's tmp (it may already be gone once sent).
      await until(`${format}: the export written in <data>/tmp/exports`, () => madeThere.size + listFiles(exportsDir).length > 0);
      assert.ok((await r.arrayBuffer()).byteLength > 0, format);
    }
    exportsWatcher.close();
    await until('the exports to be removed after their download', () => listFiles(path.join(dataDir, 'tmp/exports')).length === 0);
    assert.deepEqual(fs.readdirSync(watched, { recursive: true }), [], 'nothing in TMPDIR');
    assert.deepEqual(seen, [], 'nothing was ever created in TMPDIR');
  } finally {
    watcher.close();
    await stopChild(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(watched, { recursive: true, force: true });
  }
});
