/**
 * Catalogs that earlier versions left with assets stuck `processing` (their job discarded at a
 * start, or gone) are settled at the next start: an asset whose job was given up ends `failed` with
 * the job's reason, one without any job is queued again and processed. No asset stays `processing`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { Client, startServer, tempDataDir } from '../helpers/server.ts';
import { registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../uploads/helpers.ts';
import { until } from './child.ts';

test('at start, assets stuck processing by a lost or given-up job end failed or are processed again', { timeout: 300_000 }, async () => {
  const dataDir = tempDataDir('hearth-stuck-assets-');
  try {
    let srv = await startServer({ dataDir });
    await registerAdmin(new Client(srv.url));
    const repo = srv.container.repositories.primary()!.path;
    for (const f of ['gps/DSCN0025.jpg', 'exif/Canon_40D.jpg']) fs.copyFileSync(path.join(CORPUS, f), path.join(repo, path.basename(f)));
    await until('both photos ready', () => srv.container.db.prepare(`SELECT count(*) FROM assets WHERE state = 'ready'`).pluck().get() === 2);
    await srv.container.jobRunner.whenIdle();
    await srv.stop();

    // What the old recovery left: one asset whose job was discarded "on its last attempt", one whose job is gone.
    const db = new Database(path.join(dataDir, 'catalog.sqlite3'));
    const id = (name: string) => db.prepare('SELECT asset_id FROM assets WHERE original_filename = ?').pluck().get(name) as string;
    const givenUp = id('DSCN0025.jpg');
    const lost = id('Canon_40D.jpg');
    db.prepare(`UPDATE assets SET state = 'processing' WHERE asset_id IN (?, ?)`).run(givenUp, lost);
    db.prepare(`UPDATE jobs SET state = 'discarded', last_error = 'interrupted: Hearth stopped while this job ran (on its last attempt)' WHERE unique_key = ?`).run(`process:${givenUp}`);
    db.prepare(`DELETE FROM jobs WHERE unique_key = ?`).run(`process:${lost}`);
    db.close();

    srv = await startServer({ dataDir });
    try {
      const state = (assetId: string) => srv.container.db.prepare('SELECT state, last_error FROM assets WHERE asset_id = ?').get(assetId) as { state: string; last_error: string | null };
      assert.equal(state(givenUp).state, 'failed');
      assert.match(state(givenUp).last_error!, /on its last attempt/);
      await until('the asset without a job processed again', () => state(lost).state === 'ready');
      await srv.container.jobRunner.whenIdle();
      assert.equal(srv.container.db.prepare(`SELECT count(*) FROM assets WHERE state IN ('pending', 'processing')`).pluck().get(), 0);
    } finally {
      await srv.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
