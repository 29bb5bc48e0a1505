/**
 * Partner sharing: a member shares their library with another member (partners.routes.ts).
 *
 * Rules (Hearth's decisions; the contract has no sharing):
 * - The sharer chooses everything, or what was taken (else uploaded) from `shared_from` on; files
 *   in the sharer's Trash are never shared. The partner reads those photos (platform/access/
 *   rules.ts) and never changes them; their likes and ratings of them are their own.
 * - The partner decides whether the photos join their timeline (`show_in_timeline`, off at first:
 *   nobody's timeline fills with someone else's photos without asking). queryAssets can always
 *   filter on the person sharing (`filter.owner_id`), shown in the timeline or not.
 * - Only the sharer changes `shared_from`; only the partner changes `show_in_timeline`: the other
 *   side gets 403 `partner_share_other_side` naming the field. Either side ends the share.
 * - Sharing with oneself: 422 `share_with_self`; with someone who is not an active member: 422
 *   `not_a_member`; both naming `body.partner_user_id`. Sharing twice with the same member: 409
 *   `already_shared` (change the date instead).
 * - `shared_from`: a day (`YYYY-MM-DD`, from its first moment in UTC) or an RFC 3339 instant; null
 *   shares everything.
 * - A share neither side of which is the caller answers 404 `partner_share_not_found`.
 */
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, DomainError, Invalid } from '../../platform/http/errors.ts';
import { MembersStore, type Member } from '../users/index.ts';
import { PartnerSharesStore, type PartnerShareRow } from './partners.store.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface PartnerShare {
  share_id: number;
  owner: Member;
  partner: Member;
  shared_from: string | null;
  show_in_timeline: boolean;
  created_at: string;
  updated_at: string;
}

/** A day or an instant as epoch ms (the route validated the form). */
export function sharedFromMs(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
}

export class PartnerSharesService {
  readonly store: PartnerSharesStore;
  private readonly household: MembersStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
  ) {
    this.store = new PartnerSharesStore(db);
    this.household = new MembersStore(db);
  }

  list(actor: Actor) {
    const given = this.store.given(actor.userId);
    const received = this.store.received(actor.userId);
    const known = this.household.byIds([actor.userId, ...given.map((r) => r.partner_id), ...received.map((r) => r.owner_id)]);
    const view = (r: PartnerShareRow) => this.toShare(r, known);
    return { given: given.map(view), received: received.map(view) };
  }

  /** The members one can share with (household.routes.ts). */
  members(actor: Actor) {
    const members = this.household.othersThan(actor.userId);
    return { members, count: members.length };
  }

  create(actor: Actor, input: { partner_user_id: number; shared_from?: string | null | undefined }): PartnerShare {
    return this.db
      .transaction(() => {
        const ok = this.household.shareable(actor.userId, input.partner_user_id);
        const field = 'body.partner_user_id';
        if (ok === 'self') throw new Invalid('Share your library with another member, not with yourself.', [{ field, message: 'is you', code: 'share_with_self' }], 'share_with_self');
        if (ok === 'not_a_member') {
          throw new Invalid('You can share your library with active members of this household only.', [{ field, message: 'is not an active member', code: 'not_a_member' }], 'not_a_member');
        }
        if (this.store.between(actor.userId, input.partner_user_id)) {
          throw new Conflict('You already share your library with this member: change the date of that share instead.', 'already_shared');
        }
        const id = this.store.insert(actor.userId, input.partner_user_id, sharedFromMs(input.shared_from), Date.now());
        return this.one(id);
      })
      .immediate();
  }

  update(actor: Actor, id: number, patch: { shared_from?: string | null | undefined; show_in_timeline?: boolean | undefined }): PartnerShare {
    return this.db
      .transaction(() => {
        const row = this.store.byId(this.access.require(actor, 'partner_share', id, 'change', 'path.id'))!;
        const fields: { shared_from?: number | null; show_in_timeline?: number } = {};
        if (patch.shared_from !== undefined) {
          if (row.owner_id !== actor.userId) throw this.otherSide('body.shared_from', 'Only the member who shares decides from when.');
          fields.shared_from = sharedFromMs(patch.shared_from);
        }
        if (patch.show_in_timeline !== undefined) {
          if (row.partner_id !== actor.userId) throw this.otherSide('body.show_in_timeline', 'Only the member who receives the share decides whether it shows in their timeline.');
          fields.show_in_timeline = patch.show_in_timeline ? 1 : 0;
        }
        this.store.update(id, fields, Date.now());
        return this.one(id);
      })
      .immediate();
  }

  delete(actor: Actor, id: number) {
    const row = this.store.byId(this.access.require(actor, 'partner_share', id, 'change', 'path.id'))!;
    this.store.delete(id);
    return { message: row.owner_id === actor.userId ? 'You no longer share your library with this member.' : 'You no longer receive this library.' };
  }

  private otherSide(field: string, message: string): DomainError {
    return new DomainError(403, 'partner_share_other_side', message, { errors: [{ field, message: 'is the other member’s choice' }] });
  }

  private one(id: number): PartnerShare {
    const r = this.store.byId(id)!;
    return this.toShare(r, this.household.byIds([r.owner_id, r.partner_id]));
  }

  private toShare(r: PartnerShareRow, known: Map<number, Member>): PartnerShare {
    return {
      share_id: r.share_id,
      owner: known.get(r.owner_id)!,
      partner: known.get(r.partner_id)!,
      shared_from: iso(r.shared_from),
      show_in_timeline: r.show_in_timeline === 1,
      created_at: iso(r.created_at)!,
      updated_at: iso(r.updated_at)!,
    };
  }
}
