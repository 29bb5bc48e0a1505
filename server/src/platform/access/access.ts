/**
 * The one place that decides whether an actor may read or change catalog rows. Services ask it for a
 * batch of ids and get back the permitted subset, branded (permitted.ts), in one query; a row the actor
 * may not see is answered exactly like a row that does not exist (404), so existence does not leak.
 */
import type { Db } from '../db/connection.ts';
import type { Statement } from 'better-sqlite3';
import { DomainError, NotFound, type FieldError } from '../http/errors.ts';
import type { AccessKind, AccessKinds, AccessScope, Permission, Permitted } from './permitted.ts';
import { idsSql, RULES } from './rules.ts';

/** Who is asking, as far as access is concerned. */
export interface Requester {
  userId: number;
}

/** How a kind is named in 404 answers. */
const NOT_FOUND: Record<AccessKind, { code: string; noun: string }> = {
  asset: { code: 'asset_not_found', noun: 'asset' },
  album: { code: 'album_not_found', noun: 'album' },
  upload_session: { code: 'upload_session_not_found', noun: 'upload session' },
  upload_receipt: { code: 'upload_receipt_not_found', noun: 'upload receipt' },
};

export class Access {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  /** The permitted ids among `ids`, in the order given, each once. */
  permitted<K extends AccessKind>(actor: Requester, kind: K, ids: readonly AccessKinds[K][], permission: Permission): Permitted<K>[] {
    if (ids.length === 0) return [];
    const found = new Set(
      (this.statement(kind, permission).all({ ids: JSON.stringify(ids), access_user: actor.userId }) as { id: AccessKinds[K] }[]).map((r) => r.id),
    );
    const out: Permitted<K>[] = [];
    const seen = new Set<AccessKinds[K]>();
    for (const id of ids) {
      if (found.has(id) && !seen.has(id)) {
        seen.add(id);
        out.push(id as Permitted<K>);
      }
    }
    return out;
  }

  /** One id, or a 404 (naming `field` when given) exactly as if it did not exist. */
  require<K extends AccessKind>(actor: Requester, kind: K, id: AccessKinds[K], permission: Permission, field?: string): Permitted<K> {
    const [ok] = this.permitted(actor, kind, [id], permission);
    if (ok !== undefined) return ok;
    const { code, noun } = NOT_FOUND[kind];
    const message = `No such ${noun}.`;
    if (field) throw new DomainError(404, code, message, { errors: [{ field, message: 'not found' }] });
    throw new NotFound(message, code);
  }

  /**
   * Every id, or a 404 naming each one that is unknown or not permitted (`fieldOf(i)` names the field of
   * the i-th id given). Duplicates are kept once.
   */
  requireAll<K extends AccessKind>(
    actor: Requester,
    kind: K,
    ids: readonly AccessKinds[K][],
    permission: Permission,
    fieldOf: (index: number) => string,
  ): Permitted<K>[] {
    const ok = this.permitted(actor, kind, ids, permission);
    if (ok.length === new Set(ids).size) return ok;
    const allowed = new Set<AccessKinds[K]>(ok);
    const { code, noun } = NOT_FOUND[kind];
    const missing: { id: AccessKinds[K]; index: number }[] = [];
    const reported = new Set<AccessKinds[K]>();
    ids.forEach((id, index) => {
      if (!allowed.has(id) && !reported.has(id)) {
        reported.add(id);
        missing.push({ id, index });
      }
    });
    const errors: FieldError[] = missing.map((m) => ({ field: fieldOf(m.index), message: `no such ${noun}: ${m.id}` }));
    const more = missing.length > 10 ? ` and ${missing.length - 10} more` : '';
    throw new DomainError(404, code, `No such ${noun}: ${missing.slice(0, 10).map((m) => m.id).join(', ')}${more}.`, { errors });
  }

  /**
   * The rows of `kind` the actor may see, for a list that is not a batch of given ids: the store puts
   * `scope.sql` (its table named `alias`) into its query and binds `scope.params` beside its own.
   */
  scope<K extends AccessKind>(actor: Requester, kind: K, permission: Permission, alias: string): AccessScope<K> {
    if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`not an SQL alias: ${alias}`);
    return { kind, sql: `(${RULES[kind].where[permission](alias)})`, params: { access_user: actor.userId } } as AccessScope<K>;
  }

  /** How SQLite runs a rule (for the test that keeps every rule a key lookup per id). */
  plan(kind: AccessKind, permission: Permission): string[] {
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${idsSql(kind, permission)}`).all({ ids: '[]', access_user: 0 }) as { detail: string }[]).map((r) => r.detail);
  }

  private statement(kind: AccessKind, permission: Permission): Statement {
    const key = `${kind}:${permission}`;
    let s = this.statements.get(key);
    if (!s) {
      s = this.db.prepare(idsSql(kind, permission));
      this.statements.set(key, s);
    }
    return s;
  }
}
