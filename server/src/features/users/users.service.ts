/**
 * Administration of accounts: list with statistics, direct creation, update (identity, role, status,
 * avatar), and access reset. Rules: the installation always keeps at least one active administrator,
 * and an administrator resets their own password through the account page, not through a reset.
 *
 * Direct creation (decision): the administrator gives a password or lets Hearth make one; either way
 * it is a first password the administrator knows, so the member must change it at first sign-in
 * (the same `requires_password_change` path as after an access reset). The sign-in answer says which
 * (`password_change_reason`, auth.service.ts), so a new member is welcomed, not told of a reset.
 */
import crypto from 'node:crypto';
import type { Access } from '../../platform/access/index.ts';
import { tx, type Db } from '../../platform/db/connection.ts';
import { hashPassword } from '../../platform/crypto/passwords.ts';
import type { Actor, Role } from '../../platform/http/context.ts';
import { Conflict, NotFound } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { AuthStore, MfaStore } from '../auth/index.ts';
import { UsersStore } from './users.store.ts';
import { checkAvatar, toUser } from './users.view.ts';

const TEMP_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** 16 characters from an alphabet without look-alikes, in groups of four: easy to read out. */
function temporaryPassword(): string {
  const raw = [...crypto.randomBytes(16)].map((b) => TEMP_ALPHABET[b % TEMP_ALPHABET.length]).join('');
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12, 16)}`;
}

export class UsersService {
  private readonly users: UsersStore;
  private readonly auth: AuthStore;
  private readonly mfa: MfaStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.users = new UsersStore(db);
    this.auth = new AuthStore(db);
    this.mfa = new MfaStore(db);
  }

  list(_actor: Actor, limit: number, offset: number) {
    const { rows, total } = this.users.list(limit, offset);
    const factors = this.mfa.secondFactorsOf(rows.map((r) => r.user_id));
    return {
      users: rows.map((r) => ({ ...toUser(r), stats: { active_sessions: r.active_sessions, second_factors: factors.get(r.user_id) ?? [] } })),
      limit,
      offset,
      total,
    };
  }

  async create(
    actor: Actor,
    input: { username: string; display_name?: string | undefined; password?: string | undefined; role?: Role | undefined },
  ) {
    const generated = input.password === undefined ? temporaryPassword() : null;
    const hash = await hashPassword(input.password ?? generated!);
    const now = this.now();
    const row = tx(this.db, () => {
      if (this.users.byUsername(input.username)) throw new Conflict('That user name is taken.', 'username_taken');
      const created = this.users.insert({
        username: input.username,
        display_name: input.display_name ?? input.username,
        password_hash: hash,
        role: input.role ?? 'user',
        now,
      });
      this.users.update(created.user_id, { must_change_password: 1 }, now);
      return this.users.byId(created.user_id)!;
    });
    this.log.info({ by: actor.userId, user_id: row.user_id, role: row.role }, 'account created by an administrator');
    return { user: toUser(row), temporary_password: generated };
  }

  update(
    actor: Actor,
    userId: number,
    patch: { username?: string | undefined; display_name?: string | undefined; role?: Role | undefined; is_active?: boolean | undefined; avatar_asset_id?: string | null | undefined },
  ) {
    const now = this.now();
    tx(this.db, () => {
      const user = this.users.byId(userId);
      if (!user) throw new NotFound('No such user.', 'user_not_found');
      const losesAdmin =
        user.role === 'admin' && user.is_active === 1 && ((patch.role && patch.role !== 'admin') || patch.is_active === false);
      if (losesAdmin && this.users.countActiveAdmins() <= 1) {
        throw new Conflict('Hearth needs at least one active administrator.', 'last_admin');
      }
      if (patch.username && patch.username.toLowerCase() !== user.username.toLowerCase() && this.users.byUsername(patch.username)) {
        throw new Conflict('That user name is taken.', 'username_taken');
      }
      const deactivated = patch.is_active === false && user.is_active === 1;
      const roleChanged = patch.role !== undefined && patch.role !== user.role;
      const fields: Parameters<UsersStore['update']>[1] = {};
      if (patch.username !== undefined) fields.username = patch.username;
      if (patch.display_name !== undefined) fields.display_name = patch.display_name;
      if (patch.role !== undefined) fields.role = patch.role;
      if (patch.is_active !== undefined) fields.is_active = patch.is_active ? 1 : 0;
      if (patch.avatar_asset_id !== undefined) {
        checkAvatar(this.access, this.users, userId, patch.avatar_asset_id); // the account's own photo, as for updateMyProfile
        fields.avatar_asset_id = patch.avatar_asset_id;
      }
      // A deactivated account, or one whose role changed, must not keep tokens minted before.
      if (deactivated || roleChanged) fields.bumpAuthVersion = true;
      this.users.update(userId, fields, now);
      if (deactivated) this.auth.revokeAllSessions(userId, 'deactivated', now);
    });
    this.log.info({ by: actor.userId, user_id: userId, fields: Object.keys(patch) }, 'user updated');
    return toUser(this.users.byId(userId)!);
  }

  /**
   * Gives a user a temporary password, ends all their sessions and forgets their second factors (TOTP,
   * recovery codes; passkeys too once they exist: MfaStore.clearSecondFactors), as the contract says:
   * a member who lost their phone gets back in with the temporary password and enrols again. Signing
   * in with it only opens the password change (login answers `requires_password_change`,
   * `password_change_reason` `access_reset`).
   */
  async resetAccess(actor: Actor, userId: number) {
    if (userId === actor.userId) {
      throw new Conflict('Change your own password from your account page.', 'cannot_reset_self');
    }
    const user = this.users.byId(userId);
    if (!user) throw new NotFound('No such user.', 'user_not_found');
    const temporary = temporaryPassword();
    const hash = await hashPassword(temporary);
    const now = this.now();
    tx(this.db, () => {
      this.users.update(userId, { password_hash: hash, must_change_password: 1, bumpAuthVersion: true }, now);
      this.auth.revokeAllSessions(userId, 'access_reset', now);
      this.mfa.clearSecondFactors(userId);
    });
    this.log.warn({ by: actor.userId, user_id: userId }, 'user access reset');
    return { user: toUser(this.users.byId(userId)!), temporary_password: temporary };
  }
}
