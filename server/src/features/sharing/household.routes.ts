/**
 * Whom a member can share with (extension operation, server/operations.extensions.md).
 *
 * | operationId          | method and path                 |
 * |----------------------|---------------------------------|
 * | listHouseholdMembers | GET /api/v1/sharing/members     |
 *
 * The contract's listUsers is for administrators (it carries usernames, roles and statistics); a
 * member sharing an album or their library needs only the other members' names to pick from.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';

/** A Person (users/people.ts) of its own name: the registered `Person` is also used nullable. */
const MemberSchema = z
  .object({ user_id: z.number().int(), display_name: z.string(), initials: z.string().openapi({ example: 'AB' }) })
  .openapi('HouseholdMember');

export const listHouseholdMembers = defineRoute('user', {
  method: 'get',
  path: '/sharing/members',
  operationId: 'listHouseholdMembers',
  summary: 'The other active members of the household, to share with',
  description:
    'Every active account but the caller’s, by display name: their id, display name and initials only (never usernames, roles or anything about the account). Deactivated accounts are left out: sharing with them is refused (`not_a_member`).',
  tags: ['Sharing: partners'],
  responses: {
    200: {
      description: 'OK',
      content: { 'application/json': { schema: z.object({ members: z.array(MemberSchema), count: z.number().int() }).openapi('HouseholdMembers') } },
    },
  },
});
