/**
 * The one place that decides whether an actor may read or change catalog rows. Services ask it for a
 * batch of ids and get back the permitted subset, branded (permitted.ts), in one query; a row the actor
 * may not see is answered exactly like a row that does not exist (404), so existence does not leak.
 */
import type { Db } from '../db/connection.ts';
import type { Statement } from 'better-sqlite3';
import { DomainError, Forbidden, NotFound, type FieldError } from '../http/errors.ts';
import type { AccessKind, AccessKinds, AccessScope, LinkScope, Permission, Permitted } from './permitted.ts';
import { idsSql, LINK_ASSETS, RULES } from './rules.ts';

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
  partner_share: { code: 'partner_share_not_found', noun: 'partner share' },
  share_link: { code: 'share_link_not_found', noun: 'share link' },
  duplicate_group: { code: 'duplicate_group_not_found', noun: 'duplicate group' },
  asset_correction: { code: 'asset_correction_not_found', noun: 'correction' },
  person: { code: 'person_not_found', noun: 'person' },
  face: { code: 'face_not_found', noun: 'face' },
  photo_event: { code: 'event_not_found', noun: 'event' },
  cloud_credential: { code: 'cloud_credential_not_found', noun: 'cloud connection' },
  import_run: { code: 'import_run_not_found', noun: 'import run' },
  takeout_upload: { code: 'takeout_upload_not_found', noun: 'Takeout upload' },
  host_action: { code: 'host_action_not_found', noun: 'host action' },
  agent_thread: { code: 'agent_thread_not_found', noun: 'assistant thread' },
  agent_pin: { code: 'agent_pin_not_found', noun: 'pin' },
  agent_effect: { code: 'agent_effect_not_found', noun: 'assistant effect' },
};

/**
 * 403 answers: the actor may read the row (it is shared with them) but not do this. Saying so leaks
 * nothing: they can see it already.
 */
const READ_ONLY: Record<AccessKind, { code: string; message: string }> = {
  asset: { code: 'asset_read_only', message: 'This photo is shared with you: only its owner can change it.' },
  album: { code: 'album_read_only', message: 'This album is shared with you: your role does not allow this change.' },
  upload_session: { code: 'upload_session_read_only', message: 'Only the owner of this upload can change it.' },
  partner_share: { code: 'partner_share_read_only', message: 'Only the two members of this share can change it.' },
  share_link: { code: 'share_link_read_only', message: 'Only the maker of this link can change it.' },
  upload_receipt: { code: 'upload_receipt_read_only', message: 'Only the owner of this upload can change it.' },
  duplicate_group: { code: 'duplicate_group_read_only', message: 'Only the owner of these photos can resolve their duplicates.' },
  asset_correction: { code: 'asset_correction_read_only', message: 'Only the owner of these photos can undo their correction.' },
  // Owner-only kinds: nobody else may read them, so these are never answered (rules.ts); named for completeness.
  person: { code: 'person_read_only', message: 'Only the owner of these photos can change their people.' },
  face: { code: 'face_read_only', message: 'Only the owner of these photos can change their faces.' },
  photo_event: { code: 'event_read_only', message: 'Only the owner of these photos can change their events.' },
  cloud_credential: { code: 'cloud_credential_read_only', message: 'Only the member who connected this account can use it.' },
  import_run: { code: 'import_run_read_only', message: 'Only the member who started this import can change it.' },
  takeout_upload: { code: 'takeout_upload_read_only', message: 'Only the member who started this upload can change it.' },
  host_action: { code: 'host_action_read_only', message: 'Only the member who asked for this can change it.' },
  agent_thread: { code: 'agent_thread_read_only', message: 'Only the member who started this conversation can use it.' },
  agent_pin: { code: 'agent_pin_read_only', message: 'Only the member who pinned this can change it.' },
  agent_effect: { code: 'agent_effect_read_only', message: 'Only the member who asked for this change can decide it.' },
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

  /**
   * One id, or a refusal naming `field` when given: 404 exactly as if it did not exist when the actor
   * may not even read it, 403 when they may read it but not do this (a viewer of a shared album, a
   * partner's photo).
   */
  require<K extends AccessKind>(actor: Requester, kind: K, id: AccessKinds[K], permission: Permission, field?: string): Permitted<K> {
    const [ok] = this.permitted(actor, kind, [id], permission);
    if (ok !== undefined) return ok;
    if (permission !== 'read' && this.permitted(actor, kind, [id], 'read').length === 1) {
      const { code, message } = READ_ONLY[kind];
      if (field) throw new DomainError(403, code, message, { errors: [{ field, message: 'read only for you' }] });
      throw new Forbidden(message, code);
    }
    const { code, noun } = NOT_FOUND[kind];
    const message = `No such ${noun}.`;
    if (field) throw new DomainError(404, code, message, { errors: [{ field, message: 'not found' }] });
    throw new NotFound(message, code);
  }

  /**
   * Every id, or a 404 naming each one that is unknown or not permitted (`fieldOf(i)` names the field of
   * the i-th id given); when every refused id is one the actor may read, a 403 naming them instead.
   * Duplicates are kept once.
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
    if (permission !== 'read' && this.permitted(actor, kind, missing.map((m) => m.id), 'read').length === missing.length) {
      const { code: readOnly, message } = READ_ONLY[kind];
      throw new DomainError(403, readOnly, message, { errors: missing.map((m) => ({ field: fieldOf(m.index), message: 'read only for you' })) });
    }
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

  /**
   * The assets among `ids` that the holder of a public link may read (rules.ts, LINK_ASSETS), in the
   * order given, each once. Someone with the link is not a member: nothing else is ever permitted.
   */
  permittedThroughLink(link: LinkScope, ids: readonly string[]): Permitted<'asset'>[] {
    if (ids.length === 0) return [];
    let s = this.statements.get('link');
    if (!s) this.statements.set('link', (s = this.db.prepare(LINK_ASSETS)));
    const found = new Set((s.all({ ids: JSON.stringify(ids), maker: link.createdBy, album: link.albumId, link: link.linkId }) as { id: string }[]).map((r) => r.id));
    return [...new Set(ids)].filter((id) => found.has(id)) as Permitted<'asset'>[];
  }

  /** How SQLite runs a rule (for the test that keeps every rule a key lookup per id); `link` is the public link rule. */
  plan(kind: AccessKind | 'link', permission: Permission): string[] {
    const sql = kind === 'link' ? LINK_ASSETS : idsSql(kind, permission);
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(kind === 'link' ? { ids: '[]', maker: 0, album: null, link: 0 } : { ids: '[]', access_user: 0 }) as { detail: string }[]).map((r) => r.detail);
  }

  /** Kept by its SQL text, so a rule swapped by a test (rules.ts swapRuleForTest) is the one that runs. */
  private statement(kind: AccessKind, permission: Permission): Statement {
    const sql = idsSql(kind, permission);
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}
