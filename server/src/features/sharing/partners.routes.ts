/**
 * Partner sharing (extension operations, server/operations.extensions.md).
 *
 * | operationId        | method and path                       |
 * |--------------------|---------------------------------------|
 * | listPartnerShares  | GET    /api/v1/partner-shares         |
 * | createPartnerShare | POST   /api/v1/partner-shares         |
 * | updatePartnerShare | PUT    /api/v1/partner-shares/{id}    |
 * | deletePartnerShare | DELETE /api/v1/partner-shares/{id}    |
 *
 * The rules are in partners.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { MemberSchema } from '../users/index.ts';

const TAG = 'Sharing: partners';

const Id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const IdParam = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });
const SharedFrom = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .nullable()
  .openapi({ description: 'Share what was taken (else uploaded) from then on: a day (`YYYY-MM-DD`, from its first moment in UTC) or an RFC 3339 instant. Null: everything.', example: '2024-01-01' });

export const PartnerShareSchema = z
  .object({
    share_id: z.number().int(),
    owner: MemberSchema.openapi({ description: 'Who shares their library.' }),
    partner: MemberSchema.openapi({ description: 'Who receives it.' }),
    shared_from: z.string().nullable(),
    show_in_timeline: z.boolean().openapi({ description: "The partner's choice: the shared photos join their timeline (marked with the owner's initials)." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('PartnerShare');

export const listPartnerShares = defineRoute('user', {
  method: 'get',
  path: '/partner-shares',
  operationId: 'listPartnerShares',
  summary: 'The libraries you share and the ones shared with you',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ given: z.array(PartnerShareSchema), received: z.array(PartnerShareSchema) }).openapi('PartnerShares')) },
});

export const createPartnerShare = defineRoute('user', {
  method: 'post',
  path: '/partner-shares',
  operationId: 'createPartnerShare',
  summary: 'Share your library with another member (all, or from a date)',
  description: [
    'The partner reads your photos and videos (never those in your Trash) and cannot change them; whether they join the partner’s timeline is the partner’s choice (off at first).',
    'Yourself: 422 `share_with_self`; not an active member: 422 `not_a_member` (both naming `body.partner_user_id`). Already shared with them: 409 `already_shared`.',
  ].join('\n'),
  tags: [TAG],
  request: {
    body: jsonBody(z.strictObject({ partner_user_id: Id, shared_from: SharedFrom.optional() }).openapi('PartnerShareCreate')),
  },
  responses: { 201: jsonResponse(PartnerShareSchema, 'Shared'), ...errorResponses(409) },
});

export const updatePartnerShare = defineRoute('user', {
  method: 'put',
  path: '/partner-shares/{id}',
  operationId: 'updatePartnerShare',
  summary: 'Change from when a library is shared, or whether it shows in your timeline',
  description:
    '`shared_from` is the sharer’s to change, `show_in_timeline` the partner’s: the other side gets 403 `partner_share_other_side` naming the field. A share you are not part of: 404.',
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(
      z
        .strictObject({ shared_from: SharedFrom.optional(), show_in_timeline: z.boolean().optional() })
        .refine((b) => Object.keys(b).length > 0, 'give at least one field to change')
        .openapi('PartnerShareUpdate'),
    ),
  },
  responses: { 200: jsonResponse(PartnerShareSchema), ...errorResponses(403, 404) },
});

export const deletePartnerShare = defineRoute('user', {
  method: 'delete',
  path: '/partner-shares/{id}',
  operationId: 'deletePartnerShare',
  summary: 'Stop sharing your library, or stop receiving one',
  description: 'Either member of the share may end it. A share you are not part of: 404.',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: jsonResponse(z.object({ message: z.string() })), ...errorResponses(404) },
});
