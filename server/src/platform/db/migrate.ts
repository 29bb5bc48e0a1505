/**
 * Forward-only numbered migrations: `migrations/NNNN_name.sql`, applied in order at start, each in its
 * own transaction, recorded in `schema_migrations`. Before the first pending migration touches an
 * existing catalog, a consistent copy is written to `<dataDir>/backups/` (VACUUM INTO), so a bad
 * upgrade can always be rolled back by hand. There are no down-migrations: a fix is a new migration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './connection.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const files = fs.readdirSync(dir).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  const migrations = files.map((f) => ({
    version: Number(f.slice(0, 4)),
    name: f.slice(5, -4),
    sql: fs.readFileSync(path.join(dir, f), 'utf8'),
  }));
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration numbering has a gap or duplicate at ${m.version}_${m.name}`);
  });
  return migrations;
}

export interface MigrateResult {
  applied: string[];
  backupFile: string | null;
}

export function migrate(db: Db, opts: { backupDir?: string; migrations?: Migration[] } = {}): MigrateResult {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const done = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const all = opts.migrations ?? loadMigrations();
  const latestKnown = all.length;
  const newest = Math.max(0, ...done);
  if (newest > latestKnown) {
    throw new Error(
      `the catalog was written by a newer Hearth (schema ${newest}, this build knows ${latestKnown}); upgrade Hearth`,
    );
  }
  const pending = all.filter((m) => !done.has(m.version));
  if (pending.length === 0) return { applied: [], backupFile: null };

  let backupFile: string | null = null;
  const hasData = done.size > 0;
  if (hasData && opts.backupDir) {
    fs.mkdirSync(opts.backupDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    backupFile = path.join(opts.backupDir, `catalog-${stamp}-before-${String(pending[0]!.version).padStart(4, '0')}.sqlite3`);
    db.prepare('VACUUM INTO ?').run(backupFile);
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of pending) {
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }).immediate();
  }
  return { applied: pending.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`), backupFile };
}
