/**
 * Each table has one owner (issue 26, point 3): a check over the server's source, with the owners and the
 * named departures in table-owners.ts. It fails on a new write outside the owner's stores, a new foreign read
 * that is neither a read model nor a named exception, and a file outside the stores with more prepared
 * statements than the baseline. The checker is shown failing on planted violations (the last tests).
 *
 * What it can see: SQL written in the source (string and template literals, comments left out), with the
 * table named literally. A table name built at run time escapes it; none is today.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { PREPARE_BASELINE, READ_EXCEPTIONS, READ_MODELS, TABLE_OWNERS, WRITE_EXCEPTIONS, type Departure, type ReadModel } from './table-owners.ts';

const SRC = path.resolve(import.meta.dirname, '../../server/src');
const MIGRATIONS = path.join(SRC, 'platform/db/migrations');

interface Rules {
  owners: Readonly<Record<string, string>>;
  writeExceptions: readonly Departure[];
  readModels: Readonly<Record<string, ReadModel>>;
  readExceptions: readonly Departure[];
  prepareBaseline: Readonly<Record<string, number>>;
}
const RULES: Rules = { owners: TABLE_OWNERS, writeExceptions: WRITE_EXCEPTIONS, readModels: READ_MODELS, readExceptions: READ_EXCEPTIONS, prepareBaseline: PREPARE_BASELINE };

export interface SourceFile {
  /** Relative to server/src. */
  file: string;
  src: string;
}

/** Comments out: SQL quoted in a comment is not SQL the file runs. */
const code = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const WRITE = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|DELETE\s+FROM)\s+(\w+)|\bUPDATE\s+(?:OR\s+\w+\s+)?(\w+)\s+SET\b/g;
const READ = /(?<!DELETE\s+)\b(?:FROM|JOIN)\s+(\w+)/g;
const PREPARE = /\bprepared?\(/g;
const within = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

/** Every breach of the rules in these files (empty when they keep them). */
export function violations(files: readonly SourceFile[], rules: Rules = RULES): string[] {
  const out: string[] = [];
  const excused = (list: readonly Departure[], table: string, file: string) => list.some((e) => e.table === table && e.file === file);
  for (const { file, src } of files) {
    const body = code(src);
    const written = new Set<string>();
    for (const m of body.matchAll(WRITE)) {
      const table = (m[1] ?? m[2])!;
      const owner = rules.owners[table];
      if (owner === undefined || written.has(table)) continue;
      written.add(table);
      const ownStore = within(file, owner) && file.endsWith('.store.ts');
      if (!ownStore && !excused(rules.writeExceptions, table, file)) out.push(`${file} writes ${table}, owned by ${owner}: only its *.store.ts files do (or name an exception in table-owners.ts)`);
    }
    const read = new Set<string>();
    for (const m of body.matchAll(READ)) {
      const table = m[1]!;
      const owner = rules.owners[table];
      if (owner === undefined || read.has(table) || within(file, owner)) continue;
      read.add(table);
      const model = rules.readModels[table];
      if (model?.readers.some((r) => within(file, r))) continue;
      if (!excused(rules.readExceptions, table, file)) out.push(`${file} reads ${table}, owned by ${owner}: ask its store, or name a read model or exception in table-owners.ts`);
    }
    if (!file.endsWith('.store.ts')) {
      const n = body.match(PREPARE)?.length ?? 0;
      const allowed = rules.prepareBaseline[file] ?? 0;
      if (n > allowed) out.push(`${file} prepares ${n} statements outside a store (baseline ${allowed}): put the SQL in the feature's *.store.ts`);
    }
  }
  return out;
}

function serverSources(): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) out.push({ file: path.relative(SRC, p).split(path.sep).join('/'), src: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(SRC);
  return out;
}

function migrationTables(): string[] {
  const tables = new Set<string>();
  // In migration order: a table renamed later (`ALTER TABLE a RENAME TO b`) is known by its new name only.
  for (const f of fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort()) {
    const sql = fs.readFileSync(path.join(MIGRATIONS, f), 'utf8');
    for (const m of sql.matchAll(/CREATE\s+(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)|ALTER\s+TABLE\s+(\w+)\s+RENAME\s+TO\s+(\w+)/gi)) {
      if (m[1]) tables.add(m[1]);
      else if (tables.delete(m[2]!)) tables.add(m[3]!);
    }
  }
  return [...tables];
}

describe('each table has one owner', () => {
  const sources = serverSources();

  test('every table a migration creates has an owner, and every owner and named file exists', () => {
    const tables = migrationTables();
    assert.ok(tables.length > 40, `found the migrations' tables (${tables.length})`);
    assert.deepEqual(tables.filter((t) => !(t in TABLE_OWNERS)), [], 'tables without an owner in table-owners.ts');
    assert.deepEqual(Object.keys(TABLE_OWNERS).filter((t) => !tables.includes(t)), [], 'owners of tables no migration creates');
    const folders = new Set([...Object.values(TABLE_OWNERS), ...Object.values(READ_MODELS).flatMap((m) => m.readers)]);
    assert.deepEqual([...folders].filter((f) => !fs.existsSync(path.join(SRC, f))), [], 'owner and reader folders exist');
    const files = new Set(sources.map((s) => s.file));
    const named = [...WRITE_EXCEPTIONS, ...READ_EXCEPTIONS].map((e) => e.file).concat(Object.keys(PREPARE_BASELINE));
    assert.deepEqual([...new Set(named)].filter((f) => !files.has(f)), [], 'files named in table-owners.ts exist (drop entries of files that went)');
    for (const e of [...WRITE_EXCEPTIONS, ...READ_EXCEPTIONS, ...Object.values(READ_MODELS)]) assert.ok(e.reason.length > 10, 'every departure says why');
  });

  test('the server keeps the rule: writes in the owner’s stores, foreign reads named, prepared statements not above the baseline', (t) => {
    assert.ok(sources.length > 200, `read the server's source (${sources.length} files)`);
    assert.deepEqual(violations(sources), []);
    // Counts that fell: lower the baseline so they stay down.
    for (const { file, src } of sources) {
      const n = code(src).match(PREPARE)?.length ?? 0;
      if (!file.endsWith('.store.ts') && PREPARE_BASELINE[file] !== undefined && n < PREPARE_BASELINE[file]) t.diagnostic(`${file}: ${n} prepared statements, baseline ${PREPARE_BASELINE[file]} (lower it)`);
    }
  });

  test('named exceptions still happen (an exception nobody needs is dropped)', () => {
    const bodies = new Map(sources.map((s) => [s.file, code(s.src)]));
    const stale = (list: readonly Departure[], re: RegExp) =>
      list.filter((e) => ![...(bodies.get(e.file) ?? '').matchAll(re)].some((m) => (m[1] ?? m[2]) === e.table)).map((e) => `${e.file} ${e.table}`);
    assert.deepEqual(stale(WRITE_EXCEPTIONS, WRITE), []);
    assert.deepEqual(stale(READ_EXCEPTIONS, READ), []);
  });

  test('a planted write to another feature’s table fails the rule', () => {
    const planted = { file: 'features/places/place-tidy.ts', src: "db.prepare('UPDATE assets SET liked = 1 WHERE asset_id = ?').run(id);" };
    const found = violations([planted]);
    assert.ok(found.some((v) => /places\/place-tidy\.ts writes assets, owned by features\/assets/.test(v)), found.join('\n'));
    // The same write in the owner's store passes (and its prepared statement is a store's).
    assert.deepEqual(violations([{ file: 'features/assets/assets.store.ts', src: planted.src }]), []);
    // In the owner's folder but outside its stores it fails too; comments do not count.
    assert.equal(violations([{ file: 'features/assets/api/assets.service.ts', src: 'this.db.exec(`DELETE FROM assets WHERE 1`)' }]).length, 1);
    assert.deepEqual(violations([{ file: 'features/assets/api/assets.service.ts', src: '/** We never DELETE FROM assets here. */' }]), []);
  });

  test('a planted foreign read, and a planted prepared statement above the baseline, fail the rule', () => {
    const read = violations([{ file: 'features/tags/tags.store.ts', src: 'db.prepare(`SELECT f.face_id FROM faces f JOIN people p ON p.person_id = f.person_id`)' }]);
    assert.ok(read.some((v) => /tags\.store\.ts reads faces, owned by features\/faces/.test(v)), read.join('\n'));
    assert.ok(read.some((v) => /reads people/.test(v)), read.join('\n'));
    // A named read model passes: browse reads assets.
    assert.deepEqual(violations([{ file: 'features/browse/browse.store.ts', src: "db.prepare('SELECT asset_id FROM assets')" }]), []);
    const file = 'features/faces/people.service.ts';
    const one = `this.db.prepare('SELECT 1');\n`;
    const over = violations([{ file, src: one.repeat((PREPARE_BASELINE[file] ?? 0) + 1) }], { ...RULES, writeExceptions: [], readExceptions: [] });
    assert.ok(over.some((v) => v.startsWith(`${file} prepares`)), over.join('\n'));
    assert.deepEqual(violations([{ file, src: one.repeat(PREPARE_BASELINE[file] ?? 0) }]), []);
  });
});
