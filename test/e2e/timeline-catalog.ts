/**
 * A large synthetic timeline written straight into a running server's catalog (used by
 * timeline-100k.spec.ts and scripts/bench/timeline.ts).
 *
 * Photos spread over 15 years (2010-01-01 … 2024-12-31, UTC), about 7 days in 10 with photos,
 * weekends heavier, from one to a few dozen a day, taken between 08:00 and 20:00 UTC (so a day is
 * the same day in UTC and in nearby zones). Paths like `2019/07/IMG_0001.jpg` in a repository of
 * their own that exists only in the catalog (no marker file, so it is never scanned and its rows are
 * never marked missing). State `ready`, no thumbnails: the grid shows its "No preview" placeholder.
 *
 * Written from a second connection in one transaction while the server runs: the catalog's change
 * journal (migration 0012) names every row, more than worth applying one by one, so the server's
 * caches start over and compute their lists again.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seededRandom } from '../shared/seeded-random.ts';

export const FIRST_DAY = Date.UTC(2010, 0, 1);
export const LAST_DAY = Date.UTC(2024, 11, 31);
const DAY = 86_400_000;

export interface SyntheticTimeline {
  /** Capture times, newest first (the timeline's order). */
  times: number[];
  /** Storage paths, in the same order. */
  paths: string[];
  /** Distinct days with photos. */
  days: number;
}

/** `count` photos over the 15 years, deterministic for a seed. */
export function makeTimeline(count: number, seed = 100_000): SyntheticTimeline {
  const rand = seededRandom(seed);
  const dayCount = Math.round((LAST_DAY - FIRST_DAY) / DAY) + 1;
  const weights: number[] = [];
  for (let d = 0; d < dayCount; d++) {
    const weekday = new Date(FIRST_DAY + d * DAY).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const r = rand();
    // The first and the last day always have photos: the tests look for their headers.
    weights.push(d === 0 || d === dayCount - 1 || rand() < 0.7 ? (weekend ? 2 : 1) * (0.15 + r * r * 3) : 0);
  }
  // Largest remainder: the counts add up to `count` exactly.
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * count);
  const perDay = exact.map(Math.floor);
  let left = count - perDay.reduce((a, b) => a + b, 0);
  const order = exact.map((x, d) => [x - Math.floor(x), d] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k++, left--) perDay[order[k % order.length]![1]]!++;
  for (const d of [0, dayCount - 1]) {
    if (perDay[d] === 0) {
      perDay[d] = 1;
      const donor = perDay.indexOf(Math.max(...perDay));
      perDay[donor]!--;
    }
  }

  // Oldest first, so that file numbers grow with time within a month.
  const times: number[] = [];
  const paths: string[] = [];
  const seq = new Map<string, number>();
  let days = 0;
  for (let d = 0; d < dayCount; d++) {
    const n = perDay[d]!;
    if (n === 0) continue;
    days++;
    const start = FIRST_DAY + d * DAY + 8 * 3_600_000;
    const inDay = Array.from({ length: n }, () => start + Math.floor(rand() * 12 * 3_600_000)).sort((a, b) => a - b);
    for (const t of inDay) {
      const when = new Date(t);
      const month = `${when.getUTCFullYear()}/${String(when.getUTCMonth() + 1).padStart(2, '0')}`;
      const k = (seq.get(month) ?? 0) + 1;
      seq.set(month, k);
      times.push(t);
      paths.push(`${month}/IMG_${String(k).padStart(4, '0')}.jpg`);
    }
  }
  times.reverse();
  paths.reverse();
  return { times, paths, days };
}

/** Inserts the timeline for `ownerId` into `<dataDir>/catalog.sqlite3`, in one transaction; returns the asset ids. */
export function insertTimeline(dataDir: string, ownerId: number, timeline: SyntheticTimeline): string[] {
  const db = new Database(path.join(dataDir, 'catalog.sqlite3'));
  try {
    db.pragma('busy_timeout = 30000');
    const repoDir = path.join(dataDir, 'synthetic-archive');
    fs.mkdirSync(repoDir, { recursive: true });
    const repositoryId = crypto.randomUUID();
    const now = Date.now();
    const insert = db.prepare(
      `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, width, height,
         taken_time, capture_offset_minutes, upload_time, liked, rating, is_deleted, specific_metadata, state, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'PHOTO', ?, 'image/jpeg', 2400000, 4000, 3000, ?, 0, ?, 0, 0, 0, NULL, 'ready', '[]', ?, ?)`,
    );
    const ids = timeline.times.map(() => crypto.randomUUID());
    db.transaction(() => {
      db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, 'Synthetic archive', ?, 'regular', ?, ?)").run(
        repositoryId,
        repoDir,
        now,
        now,
      );
      for (let i = 0; i < timeline.times.length; i++) {
        const p = timeline.paths[i]!;
        insert.run(ids[i]!, ownerId, repositoryId, p, path.posix.basename(p), timeline.times[i]!, now, now, now);
      }
    })();
    return ids;
  } finally {
    db.close();
  }
}

/** The capture time at a fraction of the timeline (0 = newest, 1 = oldest). */
export function timeAt(timeline: SyntheticTimeline, fraction: number): number {
  const i = Math.min(timeline.times.length - 1, Math.max(0, Math.round(fraction * (timeline.times.length - 1))));
  return timeline.times[i]!;
}
