/**
 * Platform: configuration fails fast and readably; the catalog opens with its pragmas and sqlite-vec;
 * migrations are forward-only, recorded, and preceded by a backup copy when a catalog already exists.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../server/src/config/env.ts';
import { openDatabase } from '../../server/src/platform/db/connection.ts';
import { loadMigrations, migrate } from '../../server/src/platform/db/migrate.ts';
import { tempDataDir } from './helpers/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('configuration', () => {
  test('defaults are the embedded ones', () => {
    const c = loadConfig({}, '/srv/hearth');
    assert.equal(c.port, 6680);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, '/srv/hearth/data');
    assert.equal(c.modelsDir, '/srv/hearth/data/models', 'models live in the data folder unless HEARTH_MODELS_DIR says otherwise');
    assert.equal(loadConfig({ HEARTH_DATA_DIR: '/var/hearth' }, '/srv').modelsDir, '/var/hearth/models');
    assert.equal(loadConfig({ HEARTH_MODELS_DIR: '../shared/models' }, '/srv/hearth').modelsDir, '/srv/shared/models');
    assert.equal(c.mlWorkers, null);
    assert.equal(c.mlIdleMs, 30_000, 'inference threads release their models after 30 s without work');
    assert.equal(loadConfig({ HEARTH_ML_IDLE_S: '2.5' }).mlIdleMs, 2500);
    assert.equal(c.mlNice, 10, 'indexing runs below the server by default');
    assert.equal(loadConfig({ HEARTH_ML_NICE: '0' }).mlNice, 0);
    assert.equal(c.modelsBaseUrl, null);
    assert.equal(c.apiVariant, 'A');
  });

  test('every bad variable is reported at once, by name', () => {
    try {
      loadConfig({ HEARTH_PORT: 'eighty', HEARTH_API_VARIANT: 'C', HEARTH_HOST: 'my host!' });
      assert.fail('expected ConfigError');
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.problems.length, 3);
      assert.match(e.message, /HEARTH_PORT="eighty": must be a number/);
      assert.match(e.message, /HEARTH_API_VARIANT="C": must be A or B/);
      assert.match(e.message, /HEARTH_HOST/);
    }
    assert.throws(() => loadConfig({ HEARTH_PORT: '70000' }), /between 0 and 65535/);
    assert.throws(() => loadConfig({ HEARTH_ML_WORKERS: '0' }), /HEARTH_ML_WORKERS="0": must be at least 1/);
    assert.throws(() => loadConfig({ HEARTH_ML_IDLE_S: '0' }), /HEARTH_ML_IDLE_S="0": must be between 1 and 86400/);
    assert.throws(() => loadConfig({ HEARTH_ML_NICE: '20' }), /HEARTH_ML_NICE="20": must be between 0 and 19/);
    assert.throws(() => loadConfig({ HEARTH_MODELS_BASE_URL: 'ftp://mirror/models' }), /HEARTH_MODELS_BASE_URL/);
  });

  test('the server process exits at once with a readable message on bad configuration', () => {
    const r = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, HEARTH_PORT: 'abc', HEARTH_DATA_DIR: tempDataDir() },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /Hearth cannot start: bad configuration/);
    assert.match(r.stderr, /HEARTH_PORT="abc"/);
    assert.doesNotMatch(r.stderr, /at .+\(.+:\d+:\d+\)/, 'no stack trace');
  });
});

describe('catalog', () => {
  test('opens in WAL with foreign keys, sqlite-vec loaded, STRICT tables', () => {
    const dir = tempDataDir();
    const db = openDatabase(path.join(dir, 'c.sqlite3'));
    migrate(db);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('synchronous', { simple: true }), 1, 'NORMAL');
    assert.match(String(db.prepare('SELECT vec_version() AS v').pluck().get()), /^v0\./);
    // Ordinary tables only: a virtual table (the OCR full-text index) and the shadow tables its module keeps
    // are made by the module, which cannot make them STRICT.
    const tables = db
      .prepare(
        `SELECT m.name, m.sql FROM sqlite_master m JOIN pragma_table_list t ON t.name = m.name AND t.schema = 'main'
         WHERE m.type = 'table' AND t.type = 'table' AND m.name NOT LIKE 'sqlite_%'`,
      )
      .all() as { name: string; sql: string }[];
    assert.ok(tables.length >= 6);
    for (const t of tables) assert.match(t.sql, /\)\s*(STRICT(\s*,\s*WITHOUT ROWID)?|WITHOUT ROWID\s*,\s*STRICT)\s*$/, `${t.name} is STRICT`);
    assert.throws(() => db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('k', 'x', 'not a number')").run(), /cannot store TEXT/);
    db.close();
  });

  test('migrations are numbered without gaps and applied once', () => {
    const ms = loadMigrations();
    assert.ok(ms.length >= 1);
    ms.forEach((m, i) => assert.equal(m.version, i + 1));
    const db = openDatabase(path.join(tempDataDir(), 'c.sqlite3'));
    assert.equal(migrate(db).applied.length, ms.length);
    assert.deepEqual(migrate(db).applied, []);
    db.close();
  });

  test('a pending migration on an existing catalog first writes a backup copy', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'c.sqlite3');
    const db = openDatabase(file);
    const base = loadMigrations();
    migrate(db, { backupDir: path.join(dir, 'backups') });
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('marker', '\"before\"', 1)").run();
    const next = [...base, { version: base.length + 1, name: 'add_thing', sql: 'CREATE TABLE thing (id INTEGER PRIMARY KEY) STRICT;' }];
    const result = migrate(db, { backupDir: path.join(dir, 'backups'), migrations: next });
    assert.deepEqual(result.applied, [`${String(base.length + 1).padStart(4, '0')}_add_thing`]);
    assert.ok(result.backupFile && fs.existsSync(result.backupFile));
    const backup = openDatabase(result.backupFile!);
    assert.equal(backup.prepare("SELECT value FROM settings WHERE key = 'marker'").pluck().get(), '"before"');
    assert.equal(backup.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'thing'").pluck().get(), 0, 'the backup predates the migration');
    backup.close();
    db.close();
  });

  test('a failing migration leaves the catalog as it was', () => {
    const db = openDatabase(path.join(tempDataDir(), 'c.sqlite3'));
    const base = loadMigrations();
    migrate(db);
    const broken = [...base, { version: base.length + 1, name: 'broken', sql: 'CREATE TABLE half (id INTEGER) STRICT; SELECT * FROM no_such_table;' }];
    assert.throws(() => migrate(db, { migrations: broken }), /no such table/);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get(), 0);
    assert.equal(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get(), base.length);
    db.close();
  });

  test('a catalog from a newer Hearth is refused, not damaged', () => {
    const db = openDatabase(path.join(tempDataDir(), 'c.sqlite3'));
    migrate(db);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, 0)').run('future');
    assert.throws(() => migrate(db), /newer Hearth/);
    db.close();
  });
});

describe('first start', () => {
  test('creates the data folder with catalog, key, and the primary repository with its marker', async () => {
    const { startServer } = await import('./helpers/server.ts');
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-first-')), 'data');
    const srv = await startServer({ dataDir });
    try {
      assert.ok(fs.existsSync(path.join(dataDir, 'catalog.sqlite3')));
      assert.equal(fs.statSync(path.join(dataDir, 'secret.key')).mode & 0o777, 0o600);
      const marker = JSON.parse(fs.readFileSync(path.join(dataDir, 'storage/primary/.hearth-repo'), 'utf8'));
      assert.equal(marker.format, 'hearth-repository');
      assert.equal(marker.version, 1);
      assert.ok(fs.statSync(path.join(dataDir, 'storage/primary/.hearth')).isDirectory());
      const primary = srv.container.repositories.primary();
      assert.equal(primary?.repository_id, marker.id);
    } finally {
      await srv.stop();
    }
    // A restart keeps the same primary repository.
    const again = await startServer({ dataDir });
    try {
      assert.equal(again.container.db.prepare('SELECT count(*) FROM repositories').pluck().get(), 1);
    } finally {
      await again.stop({ removeData: true });
    }
  });
});
