/**
 * People and faces.
 *
 * | operationId            | method and path                              |
 * |------------------------|----------------------------------------------|
 * | listPeople             | GET    /api/v1/people                        |
 * | rebuildPeopleClusters  | POST   /api/v1/people/rebuild                |
 * | getPerson              | GET    /api/v1/people/{id}                   |
 * | updatePerson           | PATCH  /api/v1/people/{id}                   |
 * | queryPersonAssets      | POST   /api/v1/people/{id}/assets/query      |
 * | getPersonCover         | GET    /api/v1/people/{id}/cover             |
 * | getPeopleRebuild (ext.)| GET    /api/v1/people/rebuild                |
 * | mergePeople (ext.)     | POST   /api/v1/people/{id}/merge             |
 * | assignFace (ext.)      | POST   /api/v1/faces/{faceId}/assign         |
 * | rejectFace (ext.)      | POST   /api/v1/faces/{faceId}/reject         |
 *
 * The rules and the decisions taken where the contract is silent are in people.service.ts.
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedBodyField, ownedPathParam } from '../../platform/http/router.ts';
import { fileResponse, jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { singleLine } from '../../platform/http/text.ts';
import { optionalPageParams } from '../../platform/http/pagination.ts';
import { AssetQuerySchema, GalleryListSchema } from '../browse/index.ts';
import { FaceSchema, PersonSchema } from './faces.schemas.ts';

const TAG = 'People';
const Id = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const PersonParam = z.object({ id: Id.openapi({ param: ownedPathParam('id', 'person'), example: 1 }) });
const FaceParam = z.object({ faceId: Id.openapi({ param: ownedPathParam('faceId', 'face'), example: 1 }) });
const BodyId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const listPeople = defineRoute('user', {
  method: 'get',
  path: '/people',
  operationId: 'listPeople',
  summary: 'Your people (face clusters)',
  description: 'Named people first (by name), then by faces. Hidden people only with `include_hidden=true`. `repository_id`: people with a face in a photo of that repository.',
  tags: [TAG],
  request: {
    query: z.object({
      include_hidden: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
      repository_id: z.string().min(1).max(100).optional(),
      ...optionalPageParams({ max: 100, serviceDefault: 24, noun: 'People' }),
    }),
  },
  responses: { 200: jsonResponse(z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int(), people: z.array(PersonSchema) }).openapi('PeoplePage')) },
});

export const getPerson = defineRoute('user', {
  method: 'get',
  path: '/people/{id}',
  operationId: 'getPerson',
  summary: 'One of your people',
  description: 'Another member’s person answers 404 `person_not_found`, like an unknown id.',
  tags: [TAG],
  request: { params: PersonParam },
  responses: { 200: jsonResponse(PersonSchema), ...errorResponses(404) },
});

export const updatePerson = defineRoute('user', {
  method: 'patch',
  path: '/people/{id}',
  operationId: 'updatePerson',
  summary: 'Rename, hide or show a person, or choose its cover face',
  description: [
    'At least one of `name` (1..100 characters on one line, trimmed; null clears it), `is_hidden`, `cover_face_id` (a face of this person; null: the best face).',
    'Any update marks the person confirmed: a rebuild keeps it, its name, its cover and whether it is hidden. A cover face that is not this person’s is 422 naming `body.cover_face_id`; nothing is changed then.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: PersonParam,
    body: jsonBody(
      z
        .strictObject({
          name: singleLine(z.string().trim().min(1).max(100)).nullable().optional(),
          is_hidden: z.boolean().optional(),
          cover_face_id: BodyId.nullable().optional().openapi(ownedBodyField('face')),
        })
        .openapi('PersonUpdate'),
    ),
  },
  responses: { 200: jsonResponse(PersonSchema), ...errorResponses(404, 422) },
});

export const queryPersonAssets = defineRoute('user', {
  method: 'post',
  path: '/people/{id}/assets/query',
  operationId: 'queryPersonAssets',
  summary: 'The photos of one of your people, as queryAssets lists them',
  description: 'The body is queryAssets’ (required, may be `{}`); its filter is combined with this person (`filter.person_id` is replaced by the path’s).',
  tags: [TAG],
  request: { params: PersonParam, body: jsonBody(AssetQuerySchema) },
  responses: { 200: jsonResponse(GalleryListSchema), ...errorResponses(404, 503) },
});

export const getPersonCover = defineRoute('media', {
  method: 'get',
  path: '/people/{id}/cover',
  operationId: 'getPersonCover',
  summary: 'The person’s cover: their face cut from the photo (JPEG, at most 256 px square)',
  description: 'Bearer or media token (`?mt=`), like thumbnails. 404 `person_cover_missing` when the person has no face to show.',
  tags: [TAG],
  request: { params: PersonParam, query: z.object({ mt: z.string().optional() }) },
  responses: { 200: fileResponse('image/jpeg', 'The face crop'), ...errorResponses(404) },
});

export const rebuildPeopleClusters = defineRoute('user', {
  method: 'post',
  path: '/people/rebuild',
  operationId: 'rebuildPeopleClusters',
  summary: 'Re-cluster your faces into people, keeping every correction',
  description:
    'Queues a job (getJob follows `receipt_id`). Names, merges, faces moved or marked "not this person", hidden people and chosen covers are kept. While one is queued or running for you: 409 `people_rebuild_running`.',
  tags: [TAG],
  responses: { 202: jsonResponse(z.object({ status: z.literal('queued'), receipt_id: z.string() }).openapi('PeopleRebuildQueued')), ...errorResponses(409) },
});

export const getPeopleRebuild = defineRoute('user', {
  method: 'get',
  path: '/people/rebuild',
  operationId: 'getPeopleRebuild',
  summary: 'Whether a rebuild of your people is queued or running (extension)',
  description:
    '`running` while your rebuildPeopleClusters job is queued or running, with its `receipt_id`; false and null otherwise. getJob is for administrators: this is how a member learns their rebuild is done.',
  tags: [TAG],
  responses: { 200: jsonResponse(z.object({ running: z.boolean(), receipt_id: z.string().nullable() }).openapi('PeopleRebuildState')) },
});

export const mergePeople = defineRoute('user', {
  method: 'post',
  path: '/people/{id}/merge',
  operationId: 'mergePeople',
  summary: 'Merge people into this one (extension)',
  description: 'Their faces become this person’s (kept there by rebuilds); they are deleted. This person keeps its name, or takes the first name among them. An unknown or another member’s person in `person_ids` is 422 naming it; nothing is merged then.',
  tags: [TAG],
  request: {
    params: PersonParam,
    body: jsonBody(z.strictObject({ person_ids: z.array(BodyId).min(1).max(100).openapi(ownedBodyField('person')) }).openapi('MergePeopleRequest')),
  },
  responses: { 200: jsonResponse(PersonSchema), ...errorResponses(404, 422) },
});

export const assignFace = defineRoute('user', {
  method: 'post',
  path: '/faces/{faceId}/assign',
  operationId: 'assignFace',
  summary: 'Move a face to a person, or to a new person (extension)',
  description: '`person_id` null makes a new person of this face. The face stays there through rebuilds. An unknown or another member’s face is 404; person 422 naming `body.person_id`.',
  tags: [TAG],
  request: {
    params: FaceParam,
    body: jsonBody(z.strictObject({ person_id: BodyId.nullable().openapi(ownedBodyField('person')) }).openapi('AssignFaceRequest')),
  },
  responses: { 200: jsonResponse(FaceSchema), ...errorResponses(404, 422) },
});

export const rejectFace = defineRoute('user', {
  method: 'post',
  path: '/faces/{faceId}/reject',
  operationId: 'rejectFace',
  summary: '"Not this person": take a face from its person (extension)',
  description: 'The face leaves its person and never joins it again automatically (it may join someone else). 409 `face_not_assigned` when it is with no one.',
  tags: [TAG],
  request: { params: FaceParam },
  responses: { 200: jsonResponse(FaceSchema), ...errorResponses(404, 409) },
});
