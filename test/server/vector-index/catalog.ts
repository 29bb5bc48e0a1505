/** A migrated catalog file in a temp folder holding a clustered vector set, for the vector-index tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../../server/src/platform/db/connection.ts';
import { clusteredSet, DIMS, normalise, type ClusteredSet } from '../../../scripts/bench/search/clustered-vectors.ts';
import { assetIdOf, BENCH_MODEL, openCatalog, writeSet } from '../../../scripts/bench/search/vector-catalog.ts';

export const MODEL = BENCH_MODEL;

export interface VectorCatalog {
  db: Db;
  file: string;
  set: ClusteredSet;
  reopen(): Db;
  cleanup(): void;
}

export function vectorCatalog(vectors: number, seed = 13): VectorCatalog {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-vec-'));
  const file = path.join(dir, 'catalog.sqlite3');
  const set = clusteredSet({ vectors, seed });
  const cat: VectorCatalog = {
    db: openCatalog(file),
    file,
    set,
    reopen() {
      if (cat.db.open) cat.db.close();
      cat.db = openCatalog(file);
      return cat.db;
    },
    cleanup() {
      if (cat.db.open) cat.db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  writeSet(cat.db, set);
  return cat;
}

/** A bitmap over assets.rowid with the given rowids set. */
export function bitmap(size: number, rowids: Iterable<number>): Uint8Array {
  const a = new Uint8Array(size + 1);
  for (const r of rowids) a[r] = 1;
  return a;
}

export function everything(set: ClusteredSet): Uint8Array {
  const a = new Uint8Array(set.assets + 1).fill(1);
  a[0] = 0;
  return a;
}

/** Every asset whose seeded coin (the same each run) falls under `share`. */
export function seededShare(set: ClusteredSet, share: number, seed = 5): Uint8Array {
  const a = new Uint8Array(set.assets + 1);
  let s = seed;
  for (let r = 1; r <= set.assets; r++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    a[r] = s / 4294967296 < share ? 1 : 0;
  }
  return a;
}

export function vectorOf(set: ClusteredSet, i: number): Float32Array {
  return set.vectors.slice(i * DIMS, (i + 1) * DIMS);
}

/** `base` nudged by seeded noise of the given size, unit length. */
export function near(base: Float32Array, amount: number, seed: number): Float32Array {
  const v = new Float32Array(DIMS);
  let s = seed >>> 0;
  for (let j = 0; j < DIMS; j++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[j] = base[j]! + (amount * (s / 4294967296 - 0.5)) / Math.sqrt(DIMS / 12);
  }
  return normalise(v);
}

export function blob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export { assetIdOf, DIMS };
