/**
 * How one member appears to another: their id, display name and initials (shared albums name who
 * added what; a partner's photos in a timeline carry their owner's initials). Never a username,
 * a role or anything about the account.
 */
import { z } from '@hono/zod-openapi';
import type { Db } from '../../platform/db/connection.ts';

export const MemberSchema = z
  .object({
    user_id: z.number().int(),
    display_name: z.string(),
    initials: z.string().openapi({ description: 'One or two letters for a badge: the first letters of the first and last words of the display name.', example: 'AB' }),
  })
  .openapi('Member');
export type Member = z.infer<typeof MemberSchema>;

/** "Anna de Vries" → "AV", "bob" → "B"; letters of any script, upper-cased. */
export function initialsOf(displayName: string): string {
  const words = displayName.trim().split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  if (words.length === 0) return '?';
  const first = (w: string) => [...w].find((ch) => /\p{L}|\p{N}/u.test(ch)) ?? '';
  const letters = words.length === 1 ? first(words[0]!) : first(words[0]!) + first(words[words.length - 1]!);
  return letters.toLocaleUpperCase();
}

export class MembersStore {
  constructor(private readonly db: Db) {}

  /** The members with these ids (unknown ids are absent). */
  byIds(ids: readonly number[]): Map<number, Member> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = this.db
      .prepare('SELECT user_id, display_name FROM users WHERE user_id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(unique)) as { user_id: number; display_name: string }[];
    return new Map(rows.map((r) => [r.user_id, { user_id: r.user_id, display_name: r.display_name, initials: initialsOf(r.display_name) }]));
  }

  /**
   * The active members besides `self`, by display name: whom one can share with. Names only (no
   * usernames, roles or anything about the accounts), like everywhere a member sees another.
   */
  othersThan(self: number): Member[] {
    const rows = this.db
      .prepare('SELECT user_id, display_name FROM users WHERE is_active = 1 AND user_id <> ? ORDER BY display_name COLLATE NOCASE, user_id')
      .all(self) as { user_id: number; display_name: string }[];
    return rows.map((r) => ({ user_id: r.user_id, display_name: r.display_name, initials: initialsOf(r.display_name) }));
  }

  /** An active account other than `self`, or why not: a member one can share with. */
  shareable(self: number, userId: number): 'ok' | 'self' | 'not_a_member' {
    if (userId === self) return 'self';
    const row = this.db.prepare('SELECT is_active FROM users WHERE user_id = ?').get(userId) as { is_active: number } | undefined;
    return row?.is_active === 1 ? 'ok' : 'not_a_member';
  }
}
