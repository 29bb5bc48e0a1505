/** Invite links (extension operations, see server/operations.extensions.md). Administrators only. */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';

const TAG = 'Users and settings';
const Message = z.object({ message: z.string() }).openapi('Message');

export const InviteSchema = z
  .object({
    id: z.number().int(),
    note: z.string().nullable().openapi({ description: 'Who it is for, as the administrator wrote it.' }),
    state: z.enum(['pending', 'used', 'expired']),
    created_at: z.string().openapi({ format: 'date-time' }),
    expires_at: z.string().openapi({ format: 'date-time' }),
    used_at: z.string().nullable().openapi({ format: 'date-time' }),
    used_by: z.object({ user_id: z.number().int(), username: z.string() }).nullable(),
  })
  .openapi('Invite');

export const createInvite = defineRoute('admin', {
  method: 'post',
  path: '/invites',
  operationId: 'createInvite',
  summary: 'Make a single-use invite link (with QR codes) that opens the sign-up page with its code filled in',
  description:
    'The code is shown only in this answer. `links` holds one link per address a phone can open: the machine\'s network addresses when other devices are let in, else the address of this request. ' +
    'Registering with the code (`register`, `invite_code`) works once, before `expires_at`, even when registration is closed.',
  tags: [TAG],
  request: {
    body: jsonBody(
      z
        .strictObject({
          expires_in_days: z.number().int().min(1).max(30).optional().openapi({ description: 'Days the link stays valid (default 7).' }),
          note: singleLine(z.string().trim().min(1).max(100)).optional(),
        })
        .openapi('InviteRequest'),
    ),
  },
  responses: {
    201: jsonResponse(
      z
        .object({
          invite: InviteSchema,
          code: z.string().openapi({ example: 'K7QM-3XPA-WN2D' }),
          links: z.array(z.object({ url: z.string(), qr_svg: z.string().openapi({ description: 'A QR code of `url`, as SVG text.' }) })),
        })
        .openapi('CreatedInvite'),
      'The invite, its code and its links (shown once)',
    ),
  },
});

export const listInvites = defineRoute('admin', {
  method: 'get',
  path: '/invites',
  operationId: 'listInvites',
  summary: 'Invite links waiting to be used, and those used in the last 30 days',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ invites: z.array(InviteSchema) })) },
});

const IdParam = z.object({ id: z.coerce.number().int().positive().openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });

export const deleteInvite = defineRoute('admin', {
  method: 'delete',
  path: '/invites/{id}',
  operationId: 'deleteInvite',
  summary: 'Withdraw an invite link that has not been used',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: jsonResponse(Message, 'Withdrawn'), ...errorResponses(404) },
});
