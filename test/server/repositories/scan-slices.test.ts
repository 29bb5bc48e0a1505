/**
 * A scan of a folder whose files are all catalogued already gives the event loop turns after its walk
 * (issue 25 point 4): the catalog is read a page at a time and the passes over every file and row are sliced.
 * Before, everything after the walk's last stat (the catalog's `.all()`, the map of it, the comparison of every
 * file, the missing-files pass) ran in one synchronous stretch: 380 ms at 744 files on a loaded machine, and
 * growing with the library. Structure, not timing: an immediate queued when the walk's last stat answers runs
 * before the scan ends.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scanDirectly } from '../helpers/direct-scan.ts';
import { startServer } from '../helpers/server.ts';

test('a scan of an already catalogued folder lets a timer run between its walk and its end', async () => {
  const server = await startServer();
  try {
    const c = server.container;
    await c.jobRunner.stop();
    const repo = c.repositories.primary()!;
    await c.repositories.stopWatching(repo.repository_id);
    const owner = c.auth.users.insert({ username: 'scanner', display_name: 'Scanner', password_hash: 'x', role: 'admin', now: Date.now() }).user_id;
    // 5000 catalogued files (more than two pages of the catalog's read), unchanged on disk since.
    const N = 5000;
    const now = Date.now();
    const past = new Date(now - 3_600_000);
    const insItem = c.db.prepare("INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, 'photo', ?, ?, ?)");
    const insComp = c.db.prepare("INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, 0, 'original')");
    const insAsset = c.db.prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, file_mtime, taken_time, upload_time, state, media_item_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'PHOTO', ?, 'image/jpeg', ?, ?, ?, ?, 'ready', ?, ?, ?)`,
    );
    const dir = path.join(repo.path, 'catalogued');
    fs.mkdirSync(dir, { recursive: true });
    c.db.transaction(() => {
      for (let i = 0; i < N; i++) {
        const name = `${String(i).padStart(5, '0')}.jpg`;
        const file = path.join(dir, name);
        fs.writeFileSync(file, `photo ${i}`);
        fs.utimesSync(file, past, past);
        const st = fs.statSync(file);
        const id = `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
        const item = `00000000-0000-7000-9000-${String(i).padStart(12, '0')}`;
        insItem.run(item, owner, id, now, now);
        insAsset.run(id, owner, repo.repository_id, `catalogued/${name}`, name, st.size, Math.floor(st.mtimeMs), now, now, item, now, now);
        insComp.run(item, id);
      }
    })();

    let stats = 0;
    let timerRan = false;
    let scanEnded = false;
    const out = await scanDirectly(c, owner, {
      walkFs: {
        readDir: (abs) => fs.promises.readdir(abs, { withFileTypes: true }),
        stat: async (abs) => {
          const st = await fs.promises.stat(abs);
          // The walk's last stat: from here on the scan only compares what it found with the catalog.
          if (++stats === N) setImmediate(() => (timerRan = !scanEnded));
          return st;
        },
      },
    });
    scanEnded = true;
    assert.equal(stats, N);
    assert.equal(out.counts.files_seen, N);
    assert.equal(out.counts.skipped, N, 'every file was catalogued and unchanged');
    assert.equal(out.counts.added + out.counts.updated + out.counts.deleted, 0);
    assert.ok(timerRan, 'an immediate queued when the walk ended ran before the scan ended');
  } finally {
    await server.stop({ removeData: true });
  }
});
