/**
 * Statements prepared once per connection and kept, for the hot paths that run the same SQL on every request
 * (the search channels): preparing an FTS join costs as much as running it on a small match, and a search ran
 * a dozen of them per request.
 *
 * Keyed by the SQL text, so a statement built from a variable number of terms is kept once per shape; the
 * shapes are few (bounded by the code), and the cache is dropped whole past `MAX_KEPT` so that a caller that
 * builds SQL from data cannot grow it without bound.
 *
 * For one use at the call site, never to hold: a kept statement is shared by every caller of the same SQL, so it is
 * handed out as if new. The row shape the last caller set (`pluck`, `expand`, `raw`) is set back to the default
 * (objects), and a statement still being iterated (`busy`) is not handed out again: that caller gets a fresh one.
 * A statement a class keeps in a field with its mode set once comes from `db.prepare`, not from here.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './connection.ts';

const MAX_KEPT = 256;
const kept = new WeakMap<Db, Map<string, Statement>>();

export function prepared(db: Db, sql: string): Statement {
  let statements = kept.get(db);
  if (!statements) kept.set(db, (statements = new Map()));
  const s = statements.get(sql);
  if (s && !s.busy) {
    if (s.reader) s.raw(false).expand(false).pluck(false);
    return s;
  }
  const fresh = db.prepare(sql);
  if (s) return fresh; // the kept one is busy: it stays its caller's until the iteration ends
  if (statements.size >= MAX_KEPT) statements.clear();
  statements.set(sql, fresh);
  return fresh;
}
