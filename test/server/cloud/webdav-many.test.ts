/**
 * 10,000 small files in 100 nested folders served by rclone: the listing gives every one, exactly once, and
 * says how long it took (the run's first step on a large NAS folder).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { WebDavProvider } from '../../../server/src/adapters/cloud/webdav/index.ts';
import { startRcloneWebdav, type RcloneWebdav } from '../helpers/rclone-webdav.ts';

const USER = 'anna';
const PASS = 'many-pass';
const FOLDERS = 100;
const FILES_PER_FOLDER = 100;

let dir: string;
let server: RcloneWebdav;

before(async () => {
  const started = performance.now();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-many-'));
  for (let f = 0; f < FOLDERS; f++) {
    // Two levels: ten year folders of ten album folders each.
    const folder = path.join(dir, `year ${Math.floor(f / 10)}`, `album ${f % 10}`);
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < FILES_PER_FOLDER; i++) fs.writeFileSync(path.join(folder, `IMG_${i}.jpg`), `${f}/${i}`);
  }
  console.log(`wrote ${FOLDERS * FILES_PER_FOLDER} files in ${(performance.now() - started).toFixed(0)} ms`);
  // The files do not change while listed: rclone may cache its folders (without, it spends ~35 s re-reading them).
  server = await startRcloneWebdav({ dir, user: USER, pass: PASS, dirCacheTime: '5m' });
});
after(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('lists 10,000 files in nested folders completely, each once, with its size', async () => {
  const provider = new WebDavProvider();
  const { state } = await provider.signIn({ url: server.url, username: USER, password: PASS }, AbortSignal.timeout(10_000));
  const library = provider.open(state, { folder: '' });
  const ids = new Set<string>();
  let problems = 0;
  const started = performance.now();
  try {
    for await (const entry of library.list(AbortSignal.timeout(50_000))) {
      if ('problem' in entry) problems++;
      else {
        ids.add(entry.id);
        const [year, album, name] = entry.id.split('/');
        const f = Number(year!.slice(5)) * 10 + Number(album!.slice(6));
        assert.equal(entry.size, `${f}/${name!.slice(4, -4)}`.length, entry.id);
      }
    }
  } finally {
    await library.close();
  }
  const ms = performance.now() - started;
  console.log(`listed ${ids.size} files in ${FOLDERS} folders over WebDAV in ${ms.toFixed(0)} ms (${((ids.size / ms) * 1000).toFixed(0)} files/s)`);
  assert.equal(problems, 0);
  assert.equal(ids.size, FOLDERS * FILES_PER_FOLDER);
  assert.ok(ids.has('year 9/album 9/IMG_99.jpg'));
});
