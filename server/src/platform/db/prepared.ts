/**
 * Statements prepared once per connection and kept, for the hot paths that run the same SQL on every request
 * (the search channels): preparing an FTS join costs as much as running it on a small match, and a search ran
 * a dozen of them per request.
 *
 * Keyed by the SQL text, so a statement built from a variable number of terms is kept once per shape; the
 * shapes are few (bounded by the code), and the cache is dropped whole past `MAX_KEPT` so that a caller that
 * builds SQL from data cannot grow it without bound. A kept statement is shared: set the mode you need
 * (`raw(true)`/`raw(false)`, `pluck(...)`) on every use rather than relying on how the last caller left it.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './connection.ts';

const MAX_KEPT = 256;
const kept = new WeakMap<Db, Map<string, Statement>>();

export function prepared(db: Db, sql: string): Statement {
  let statements = kept.get(db);
  if (!statements) kept.set(db, (statements = new Map()));
  let s = statements.get(sql);
  if (!s) {
    if (statements.size >= MAX_KEPT) statements.clear();
    s = db.prepare(sql);
    statements.set(sql, s);
  }
  return s;
}
