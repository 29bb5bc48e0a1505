/**
 * Crash safety: the server process is SIGKILLed while it ingests a batch (files dropped into the
 * primary repository, picked up by the startup scan and the watcher), then started again on the same
 * data folder. Every file must end ingested exactly once: one asset per file, all processed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { tempDataDir } from '../helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../../..');
import { CORPUS } from '../media/corpus.ts';

function startChild(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, HEARTH_PORT: '0', HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const on = (d: Buffer) => {
      out += d;
      const m = /HEARTH_READY (\{.*\})/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve({ child, url: (JSON.parse(m[1]!) as { url: string }).url.replace(/\/$/, '') });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${out}`)));
  });
}

async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 240_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('crash during ingest', () => {
  test('SIGKILL mid-batch, restart: every file ingested exactly once', { timeout: 400_000 }, async () => {
    const dataDir = tempDataDir();
    const first = await startChild(dataDir);
    // The first account owns what scans find.
    const reg = await fetch(`${first.url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'owner', password: 'correct horse battery' }),
    });
    assert.equal(reg.status, 201);
    const catalog = path.join(dataDir, 'catalog.sqlite3');
    const primary = path.join(dataDir, 'storage/primary');
    const picks = ['exif', 'gps', 'heic', 'video'].flatMap((d) =>
      fs.readdirSync(path.join(CORPUS, d)).filter((f) => f !== 'labels.json' && !/\.xmp$/i.test(f)).slice(0, 12).map((f) => [d, f] as const),
    );
    for (const [d, f] of picks) {
      fs.mkdirSync(path.join(primary, d), { recursive: true });
      fs.copyFileSync(path.join(CORPUS, d, f), path.join(primary, d, f));
    }
    const db = new Database(catalog, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    // Kill once some assets are done and others still wait: the middle of the batch.
    await until('processing under way', () => count("SELECT count(*) FROM assets WHERE state = 'ready'") >= 3);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const readyAtKill = count("SELECT count(*) FROM assets WHERE state = 'ready'");
    assert.ok(readyAtKill < picks.length, `the kill came mid-batch (${readyAtKill} of ${picks.length} ready)`);

    const second = await startChild(dataDir);
    try {
      const files = picks.length;
      await until('every file processed', () => {
        const total = count('SELECT count(*) FROM assets');
        const settled = count("SELECT count(*) FROM assets WHERE state IN ('ready', 'failed')");
        const busy = count("SELECT count(*) FROM jobs WHERE state IN ('available', 'running', 'retryable', 'scheduled') AND kind = 'assets.process-asset'");
        return total >= files && settled === total && busy === 0;
      });
      assert.equal(count('SELECT count(*) FROM assets'), files, 'one asset per file, none twice');
      assert.equal(count('SELECT count(DISTINCT storage_path) FROM assets'), files);
      assert.equal(count('SELECT count(DISTINCT hash) FROM assets'), count('SELECT count(DISTINCT hash) FROM assets WHERE is_deleted = 0'));
      assert.ok(count("SELECT count(*) FROM assets WHERE state = 'ready'") >= files - 1, 'all processed (a corrupt sample may fail visibly)');
      assert.equal(count("SELECT count(*) FROM jobs WHERE kind = 'assets.process-asset' AND state = 'discarded'"), count("SELECT count(*) FROM assets WHERE state = 'failed'"));
    } finally {
      db.close();
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
