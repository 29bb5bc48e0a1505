/**
 * `npx tsx scripts/bench/journal.ts [-- --files 20000]`: what the change journal's triggers
 * (migration 0012_change_journal.sql) cost on the ingest path.
 *
 * Writes the catalog rows one file's ingest writes (the asset row, processing, its metadata, its
 * media item and component, ready; plus a thumbnail status update that journals nothing) for N
 * files, one transaction per file as the pipeline does, into a fresh catalog through the real
 * migrations: once with the journal's triggers and once without them. Prints the time per file
 * of each and the difference, and how many journal rows the run left (pruning keeps it bounded).
 * Runs each variant three times, alternating, and reports the fastest (this machine is shared).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import { migrate } from '../../server/src/platform/db/migrate.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const FILES = Number(arg('files') ?? 20_000);

function run(withTriggers: boolean): { usPerFile: number; journalRows: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-journal-bench-'));
  const db = new Database(path.join(dir, 'catalog.sqlite3'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  if (!withTriggers) {
    for (const name of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'change_%'").pluck().all() as string[]) db.exec(`DROP TRIGGER ${name}`);
  }
  const now = Date.now();
  const owner = Number(db.prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES ('a', 'A', 'x', 'admin', ?, ?)").run(now, now).lastInsertRowid);
  const repo = crypto.randomUUID();
  db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, 'r', ?, 'regular', ?, ?)").run(repo, dir, now, now);
  const insert = db.prepare(`INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, hash, upload_time, state, status, created_at, updated_at)
    VALUES (@id, @owner, @repo, @path, 'PHOTO', @name, 'image/jpeg', 3000000, @hash, @now, 'pending', '[10]', @now, @now)`);
  const processing = db.prepare("UPDATE assets SET state = 'processing', status = '[10,20]', updated_at = @now WHERE asset_id = @id");
  const metadata = db.prepare(`UPDATE assets SET width = 4000, height = 3000, taken_time = @taken, capture_offset_minutes = 60, gps_latitude = 52.1, gps_longitude = 4.3,
    specific_metadata = @meta, exif_raw = @meta, updated_at = @now WHERE asset_id = @id`);
  const item = db.prepare("INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (@item, @owner, 'photo', @id, @now, @now)");
  const component = db.prepare("INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (@item, @id, 0, 'original')");
  const link = db.prepare('UPDATE assets SET media_item_id = @item WHERE asset_id = @id');
  const thumbs = db.prepare("UPDATE assets SET status = '[10,20,30]', phash = 'ffff0000ffff0000', updated_at = @now WHERE asset_id = @id");
  const ready = db.prepare("UPDATE assets SET state = 'ready', status = '[10,20,30,40]', updated_at = @now WHERE asset_id = @id");
  const meta = JSON.stringify({ camera_make: 'Canon', camera_model: 'Canon EOS 6D', lens_model: 'EF24-105mm f/4L IS USM', focal_length: 35, f_number: 4, iso_speed: 200 });

  const t0 = performance.now();
  for (let i = 0; i < FILES; i++) {
    const p = { id: crypto.randomUUID(), item: crypto.randomUUID(), owner, repo, path: `2024/${i % 50}/IMG_${i}.JPG`, name: `IMG_${i}.JPG`, hash: crypto.randomBytes(32).toString('hex'), now, taken: now - i * 60_000, meta };
    db.transaction(() => insert.run(p))();
    db.transaction(() => processing.run(p))();
    db.transaction(() => {
      metadata.run(p);
      item.run(p);
      component.run(p);
      link.run(p);
    })();
    db.transaction(() => thumbs.run(p))();
    db.transaction(() => ready.run(p))();
  }
  const usPerFile = ((performance.now() - t0) * 1000) / FILES;
  const journalRows = db.prepare('SELECT count(*) FROM change_journal').pluck().get() as number;
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { usPerFile, journalRows };
}

const best = { with: Infinity, without: Infinity };
let rows = 0;
for (let round = 0; round < 3; round++) {
  best.without = Math.min(best.without, run(false).usPerFile);
  const w = run(true);
  best.with = Math.min(best.with, w.usPerFile);
  rows = w.journalRows;
}
console.log(`change journal triggers on the ingest path, ${FILES} files (6 transactions each), fastest of 3 on ${os.cpus().length} CPUs (load ${os.loadavg()[0]!.toFixed(1)}):`);
console.log(`  without triggers: ${best.without.toFixed(0)} µs per file`);
console.log(`  with triggers:    ${best.with.toFixed(0)} µs per file (+${(best.with - best.without).toFixed(0)} µs, +${((best.with / best.without - 1) * 100).toFixed(1)}%)`);
console.log(`  journal rows left: ${rows} (pruned to at most 65536 + 4096)`);
