/**
 * Invite links: instead of telling a member a code, the administrator makes a link (and its QR code)
 * that opens the sign-up page with the code filled in.
 *
 * Decisions (the contract is silent):
 * - An invite is single-use and expires (7 days unless the administrator picks 1 to 30). The standing
 *   invite code of the registration settings keeps working as before; an invite link works even when
 *   registration is closed, because the administrator chose this one person.
 * - The code is shown once, in the answer that makes it (only its SHA-256 is stored, like refresh
 *   tokens); a lost link is withdrawn and a new one made.
 * - The link points at the addresses phones can open (the machine's network addresses when other
 *   devices are let in, else the address the administrator used), at `/join?invite=<code>`.
 * - Someone who signs up through an invite becomes a member (`user`), never an administrator.
 */
import crypto from 'node:crypto';
import type { Db } from '../../platform/db/connection.ts';
import { sha256 } from '../../platform/crypto/keys.ts';
import { NotFound } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { qrSvg } from '../../adapters/qr/index.ts';
import { InvitesStore, type InviteRow } from './invites.store.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const DAY_MS = 24 * 3600_000;
/** Used invites stay in the list this long, so the administrator sees who joined. */
const USED_SHOWN_MS = 30 * DAY_MS;
export const INVITE_PATH = '/join';

/** Codes are compared without case, spaces or dashes (typed from a paper note, or pasted). */
export function normaliseInviteCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export type InviteState = 'pending' | 'used' | 'expired';

export class InvitesService {
  readonly store: InvitesStore;

  constructor(
    db: Db,
    /** Origins to put in a link (features/system/network.service.ts), given the caller's own. */
    private readonly linkOrigins: (callerOrigin: string) => string[],
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new InvitesStore(db);
  }

  async create(by: number, input: { expires_in_days?: number | undefined; note?: string | undefined }, callerOrigin: string) {
    const bytes = crypto.randomBytes(12);
    const raw = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
    const code = `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
    const now = this.now();
    const row = this.store.insert({
      codeHash: sha256(normaliseInviteCode(code)),
      note: input.note ?? null,
      createdBy: by,
      now,
      expiresAt: now + (input.expires_in_days ?? 7) * DAY_MS,
    });
    this.log.info({ by, invite_id: row.invite_id }, 'invite link made');
    const links = await Promise.all(
      this.linkOrigins(callerOrigin).map(async (origin) => {
        const url = `${origin}${INVITE_PATH}?invite=${encodeURIComponent(code)}`;
        return { url, qr_svg: await qrSvg(url) };
      }),
    );
    return { invite: this.view(row), code, links };
  }

  list() {
    const now = this.now();
    this.store.pruneExpired(now - USED_SHOWN_MS);
    return { invites: this.store.list(now - USED_SHOWN_MS).map((r) => this.view(r)) };
  }

  delete(id: number): void {
    const row = this.store.byId(id);
    if (!row || row.used_at !== null) throw new NotFound('No such invite waiting to be used.', 'invite_not_found');
    this.store.delete(id);
  }

  /** The invite a code opens now, if any; `state` tells a used or expired one apart for the message. */
  find(code: string): { row: InviteRow; state: InviteState } | null {
    const row = this.store.byCodeHash(sha256(normaliseInviteCode(code)));
    if (!row) return null;
    return { row, state: row.used_at !== null ? 'used' : row.expires_at <= this.now() ? 'expired' : 'pending' };
  }

  view(r: InviteRow) {
    const state: InviteState = r.used_at !== null ? 'used' : r.expires_at <= this.now() ? 'expired' : 'pending';
    return {
      id: r.invite_id,
      note: r.note,
      state,
      created_at: new Date(r.created_at).toISOString(),
      expires_at: new Date(r.expires_at).toISOString(),
      used_at: r.used_at === null ? null : new Date(r.used_at).toISOString(),
      used_by: r.used_by === null ? null : { user_id: r.used_by, username: r.used_by_username ?? '' },
    };
  }
}
