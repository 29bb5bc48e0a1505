/**
 * A real catalog (the app's migrations, sqlite-vec loaded) holding a clustered vector set in semantic_vectors:
 * one user, one repository, one assets row per synthetic asset (rowid = asset index + 1, so a bitmap over
 * assets.rowid can be built straight from the set), one semantic_vectors row per vector.
 * Used by scripts/bench/search.ts (cached under .tmp/) and test/server/vector-index/.
 */
import { openDatabase, type Db } from '../../../server/src/platform/db/connection.ts';
import { migrate } from '../../../server/src/platform/db/migrate.ts';
import { DIMS, type ClusteredSet } from './clustered-vectors.ts';

export const BENCH_MODEL = 'clip-vit-b32-bench';

export function assetIdOf(index: number): string {
  return `00000000-0000-7000-8000-${index.toString(16).padStart(12, '0')}`;
}

/** Inserts assets with rowids first..first+count-1 (ids from assetIdOf) for `ownerId`. */
export function insertAssets(db: Db, ownerId: number, repositoryId: string, first: number, count: number): void {
  const now = Date.UTC(2026, 0, 1);
  const ins = db.prepare(
    `INSERT INTO assets (rowid, asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type,
                         file_size, upload_time, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'PHOTO', ?, 'image/jpeg', 1000, ?, 'ready', ?, ?)`,
  );
  db.transaction(() => {
    for (let i = first; i < first + count; i++) {
      const id = assetIdOf(i - 1);
      ins.run(i, id, ownerId, repositoryId, `p/${i}.jpg`, `${i}.jpg`, now, now, now);
    }
  }).immediate();
}

export function openCatalog(file: string): Db {
  const db = openDatabase(file);
  migrate(db);
  return db;
}

/** One user and one repository; returns their ids. */
export function seedOwner(db: Db, username = 'bench'): { userId: number; repositoryId: string } {
  const now = Date.UTC(2026, 0, 1);
  const userId = Number(
    db
      .prepare("INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, 'x', 'user', ?, ?)")
      .run(username, username, now, now).lastInsertRowid,
  );
  const repositoryId = `repo-${username}`;
  db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, ?, ?, 'regular', ?, ?)").run(
    repositoryId,
    username,
    `/nonexistent/${username}`,
    now,
    now,
  );
  return { userId, repositoryId };
}

export function vectorBlob(set: ClusteredSet, i: number): Buffer {
  return Buffer.from(set.vectors.buffer, set.vectors.byteOffset + i * DIMS * 4, DIMS * 4);
}

/** Writes the whole set (assets + vectors) into a fresh migrated catalog, in batches. */
export function writeSet(db: Db, set: ClusteredSet, modelId = BENCH_MODEL, onProgress?: (done: number) => void): void {
  const { userId, repositoryId } = seedOwner(db);
  const batch = 20_000;
  for (let a = 0; a < set.assets; a += batch) insertAssets(db, userId, repositoryId, a + 1, Math.min(batch, set.assets - a));
  const ins = db.prepare('INSERT INTO semantic_vectors (asset_id, model_id, frame_ts_ms, embedding, created_at) VALUES (?, ?, ?, ?, 0)');
  const n = set.assetOf.length;
  for (let i = 0; i < n; i += batch) {
    db.transaction(() => {
      for (let v = i; v < Math.min(n, i + batch); v++) ins.run(assetIdOf(set.assetOf[v]!), modelId, set.frameTs[v]!, vectorBlob(set, v));
    }).immediate();
    onProgress?.(Math.min(n, i + batch));
  }
}
