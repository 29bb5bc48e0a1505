/**
 * Every file of ../shared/corpus through the real ingest path (copied into a temporary primary
 * repository, indexed, processed by the job queue with real sharp/exifr/ffmpeg), then the catalog
 * compared with the ground truth in each folder's labels.json. Corrupt and unsupported files must
 * end visibly failed (or be refused at indexing) without stopping the rest.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { AssetRow } from '../../../server/src/features/assets/assets.store.ts';

import { CORPUS } from '../media/corpus.ts';

interface Label {
  expected_metadata?: {
    width?: number;
    height?: number;
    make?: string;
    model?: string;
    datetime_original?: string;
    offset_time_original?: string;
    gps?: { lat: number; lon: number };
    duration_s?: number;
  };
}

// The file's own metadata date only: a date of last resort (its modification time, `file_modified`) is not one.
const localClock = (a: AssetRow) => {
  if (a.taken_time === null || a.time_source !== 'file') return null;
  const ms = a.taken_time + (a.capture_offset_minutes ?? 0) * 60_000;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
};

describe('ingest of the whole corpus', { timeout: 600_000 }, () => {
  let srv: TestServer;
  const files: { folder: string; name: string; label: Label }[] = [];
  const outcomes = new Map<string, string>();

  before(async () => {
    srv = await startServer();
    const ownerId = srv.container.auth.users.insert({ username: 'owner', display_name: 'Owner', password_hash: 'x', role: 'admin', now: Date.now() }).user_id;
    const repo = srv.container.repositories.primary()!;
    for (const folder of fs.readdirSync(CORPUS).filter((f) => fs.statSync(path.join(CORPUS, f)).isDirectory()).sort()) {
      const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, folder, 'labels.json'), 'utf8')) as Record<string, Label>;
      fs.mkdirSync(path.join(repo.path, folder), { recursive: true });
      for (const name of Object.keys(labels)) {
        fs.copyFileSync(path.join(CORPUS, folder, name), path.join(repo.path, folder, name));
        files.push({ folder, name, label: labels[name]! });
      }
    }
    for (const f of files) {
      const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: `${f.folder}/${f.name}`, ownerId, source: 'scan' });
      outcomes.set(`${f.folder}/${f.name}`, r.outcome);
    }
    await srv.container.jobRunner.whenIdle();
  });
  after(() => srv.stop({ removeData: true }));

  const asset = (f: { folder: string; name: string }) =>
    srv.container.db.prepare('SELECT * FROM assets WHERE storage_path = ?').get(`${f.folder}/${f.name}`) as AssetRow | undefined;

  test('every supported file is catalogued and processed; the rest fail visibly', () => {
    const states: Record<string, number> = {};
    for (const f of files) {
      const a = asset(f);
      const state = a ? a.state : `refused:${outcomes.get(`${f.folder}/${f.name}`)}`;
      states[state] = (states[state] ?? 0) + 1;
      if (a?.state === 'failed') assert.ok(a.last_error && a.last_error.length > 5, `${f.name} failed without a reason`);
      if (a) assert.notEqual(a.state, 'pending', `${f.name} was never processed`);
      if (a) assert.notEqual(a.state, 'processing', `${f.name} stuck processing`);
    }
    console.log(`# corpus: ${files.length} files → ${JSON.stringify(states)}`);
    for (const f of files) {
      const a = asset(f);
      if (a?.state === 'failed' || (a?.specific_metadata ?? '').includes('"preview_missing":true')) console.log(`#   ${f.folder}/${f.name}: ${a!.state} ${a!.status} ${a!.last_error ?? ''}`);
    }
    assert.ok((states.ready ?? 0) >= files.length * 0.95, `ready: ${states.ready} of ${files.length}`);
    const jobs = srv.container.jobs.stats();
    assert.equal(jobs.running + jobs.available + jobs.retryable, 0);
  });

  test('metadata in the catalog matches labels.json', () => {
    const mismatches: string[] = [];
    const missing: Record<string, number> = {};
    const checked: Record<string, number> = {};
    const miss = (field: string) => (missing[field] = (missing[field] ?? 0) + 1);
    for (const f of files) {
      const a = asset(f);
      const e = f.label.expected_metadata;
      if (!a || a.state !== 'ready' || !e) continue;
      const sm = JSON.parse(a.specific_metadata ?? '{}') as { camera_make?: string | null; camera_model?: string | null };
      const where = `${f.folder}/${f.name}`;
      const check = (field: string, expected: unknown, actual: unknown, same: (x: any, y: any) => boolean = (x, y) => x === y) => {
        if (expected === undefined || expected === null) return;
        checked[field] = (checked[field] ?? 0) + 1;
        if (actual === undefined || actual === null) return miss(field);
        if (!same(expected, actual)) mismatches.push(`${where} ${field}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
      };
      const trim = (s: unknown) => String(s).trim().replace(/\s+/g, ' ');
      check('make', e.make, sm.camera_make, (x, y) => trim(x).toLowerCase() === trim(y).toLowerCase());
      check('model', e.model, sm.camera_model, (x, y) => trim(x).toLowerCase() === trim(y).toLowerCase());
      if (a.type === 'PHOTO') check('datetime_original', e.datetime_original?.slice(0, 19), localClock(a));
      if (e.offset_time_original && a.type === 'PHOTO') {
        const [, sign, hh, mm] = /([+-])(\d\d):(\d\d)/.exec(e.offset_time_original) ?? [];
        if (sign) check('offset', (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm)), a.capture_offset_minutes);
      }
      if (e.gps && !(e.gps.lat === 0 && e.gps.lon === 0)) {
        check('gps', [e.gps.lat, e.gps.lon], a.gps_latitude === null ? null : [a.gps_latitude, a.gps_longitude], (x, y) => Math.abs(x[0] - y[0]) < 1e-4 && Math.abs(x[1] - y[1]) < 1e-4);
      }
      if (e.width && e.height && !/raw/.test(f.folder)) {
        // Labels give the stored size; the catalog keeps the displayed (upright) size. Some HEIFs are
        // cropped by a pixel by their container.
        check('dimensions', [e.width, e.height].sort((x, y) => x - y), a.width === null ? null : [a.width, a.height!].sort((x, y) => x - y), (x, y) =>
          Math.abs(x[0] - y[0]) <= 2 && Math.abs(x[1] - y[1]) <= 2,
        );
      }
      if (e.duration_s && a.type === 'VIDEO') check('duration', e.duration_s, a.duration, (x, y) => Math.abs(x - y) <= Math.max(0.15, x * 0.2));
    }
    console.log(`# checked ${JSON.stringify(checked)}; missing ${JSON.stringify(missing)}`);
    assert.deepEqual(mismatches, []);
    for (const [field, n] of Object.entries(missing)) {
      assert.ok(n <= Math.max(3, checked[field]! * 0.1), `${field}: ${n} of ${checked[field]} missing`);
    }
  });

  test('thumbnails exist for every ready photo and video; videos that need it have a web copy', () => {
    for (const f of files) {
      const a = asset(f);
      if (!a || a.state !== 'ready' || a.type === 'AUDIO') continue;
      // The timeline's size at ingest; medium and large follow on request (lazy-thumbnails.test.ts), except
      // placeholders, written at once in every size.
      assert.ok(fs.existsSync(srv.container.derivatives.thumbnail(a.asset_id, 'small')), `${f.name} small`);
      const sm = JSON.parse(a.specific_metadata ?? '{}') as { web_copy?: boolean; preview_missing?: boolean };
      if (a.type === 'VIDEO' && sm.web_copy) assert.ok(fs.existsSync(srv.container.derivatives.webVideo(a.asset_id)), `${f.name} web video`);
      if (sm.preview_missing) {
        // A RAW without a usable preview: placeholder thumbnails (status 31) and no pHash of the placeholder.
        assert.ok((JSON.parse(a.status) as number[]).includes(31), `${f.name} placeholder status`);
        for (const size of ['medium', 'large'] as const) assert.ok(fs.existsSync(srv.container.derivatives.thumbnail(a.asset_id, size)), `${f.name} placeholder ${size}`);
        assert.equal(a.phash, null, `${f.name} no phash of a placeholder`);
      } else assert.match(a.phash ?? '', /^[0-9a-f]{16}$/, `${f.name} phash`);
    }
  });

  test('RAW+JPEG pairs and live photos become one media item', () => {
    const multi = srv.container.db
      .prepare(
        `SELECT m.media_kind, group_concat(c.relation) AS relations, count(*) AS n FROM media_items m
         JOIN media_item_components c ON c.media_item_id = m.media_item_id GROUP BY m.media_item_id HAVING n > 1`,
      )
      .all() as { media_kind: string; relations: string; n: number }[];
    console.log(`# multi-component media items: ${JSON.stringify(multi)}`);
    assert.ok(multi.some((m) => m.media_kind === 'live_photo'), 'a live photo pair from corpus/live');
    const single = srv.container.db.prepare('SELECT count(*) FROM assets WHERE state = ? AND media_item_id IS NULL').pluck().get('ready');
    assert.equal(single, 0, 'every ready asset belongs to a media item');
  });
});
