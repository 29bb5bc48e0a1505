/**
 * Photo events (the contract's "Photo events": all 11 operations). Rules and decisions: photo-events.service.ts.
 *
 * | operationId             | method and path                                   |
 * |-------------------------|---------------------------------------------------|
 * | listEvents              | GET    /api/v1/events                             |
 * | getEventRebuildState    | GET    /api/v1/events/rebuild-state               |
 * | updateEventRebuildState | PATCH  /api/v1/events/rebuild-state               |
 * | getEvent                | GET    /api/v1/events/{id}                        |
 * | updateEvent             | PATCH  /api/v1/events/{id}                        |
 * | listEventMembers        | GET    /api/v1/events/{id}/members                |
 * | addEventAssets          | POST   /api/v1/events/{id}/members                |
 * | removeEventMediaItem    | DELETE /api/v1/events/{id}/members/{mediaItemId}  |
 * | getEventRelations       | GET    /api/v1/events/{id}/relations              |
 * | splitEvent              | POST   /api/v1/events/{id}/split                  |
 * | resetEvent              | POST   /api/v1/events/{id}/reset                  |
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedBodyField, ownedPathParam } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { cursorParam, limitParam } from '../../platform/http/pagination.ts';

const TAG = 'Photo events';
const IdParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'photo_event'), description: 'Event id (a retired id answers with its successor).' }) });
const RepoQuery = z.uuid().optional().openapi({ description: 'Only events with photos in this repository.' });
const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

const EventSchema = z
  .object({
    event_id: z.string(),
    title: z.string().openapi({ description: 'The person’s title, else the generated one ("Lisbon · June 2024", or "3–9 June 2024" without a place name).' }),
    title_override: z.string().nullable(),
    start_at: z.number().int().openapi({ description: 'First photo, epoch ms (UTC).' }),
    end_at: z.number().int().openapi({ description: 'Last photo, epoch ms (UTC).' }),
    timezone: z.string().nullable().openapi({ description: 'The photos’ capture offset, e.g. "+01:00"; null when unknown.' }),
    is_hidden: z.boolean(),
    media_count: z.number().int().openapi({ description: 'Files of its media items outside the Trash.' }),
    canonical_media_count: z.number().int().openapi({ description: 'Media items (a RAW+JPEG pair counts once).' }),
    displayable_count: z.number().int().openapi({ description: 'Media items with a file ready to show.' }),
    projected_media_count: z.number().int().openapi({ description: 'Media items once pending corrections are rebuilt (corrections apply at once: the same as canonical_media_count).' }),
    cover_asset_id: z.string().nullable(),
    cover_media_item_id: z.string().nullable(),
    centroid: z.object({ lat: z.number(), lon: z.number() }).nullable(),
    redirected_from: z.string().nullable().openapi({ description: 'The retired id asked for, when this event succeeded it.' }),
  })
  .openapi('PhotoEvent');
const EventDetailSchema = EventSchema.extend({ algorithm_version: z.string(), pending_rebuild: z.boolean() }).openapi('PhotoEventDetail');
const EventChangeResult = z.object({ event: EventDetailSchema, pending_rebuild: z.boolean() }).openapi('PhotoEventChangeResult');
const RebuildStateSchema = z
  .object({
    algorithm_version: z.string(),
    initialized: z.boolean().openapi({ description: 'A rebuild has published events at least once.' }),
    last_error_code: z.string().nullable(),
    last_failure_run_id: z.string().nullable(),
    last_success_run_id: z.string().nullable(),
    paused: z.boolean().openapi({ description: 'Automatic rebuilds are paused (asking for one still runs it).' }),
    pending: z.boolean().openapi({ description: 'Changes are waiting to be rebuilt.' }),
    pending_ranges: z.array(z.object({ start_at: z.number().int(), end_at: z.number().int() })).openapi({ description: 'Changed stretches of the timeline (merged, at most 100).' }),
    published_revision: z.number().int(),
    queued_run_id: z.string().nullable(),
    revision: z.number().int(),
    running_run_id: z.string().nullable(),
    source_revision: z.number().int(),
  })
  .openapi('PhotoEventRebuildState');

export const listEvents = defineRoute('user', {
  method: 'get',
  path: '/events',
  operationId: 'listEvents',
  summary: 'Your photo events, newest first',
  tags: [TAG],
  request: {
    query: z.object({
      repository_id: RepoQuery,
      include_hidden: boolQuery.optional().openapi({ description: 'Also hidden events. Default false.' }),
      limit: limitParam({ noun: 'Events', max: 200, default: 50 }),
      cursor: cursorParam(),
    }),
  },
  responses: { 200: jsonResponse(z.object({ events: z.array(EventSchema), next_cursor: z.string().nullable() }).openapi('PhotoEventList')) },
});

export const getEventRebuildState = defineRoute('user', {
  method: 'get',
  path: '/events/rebuild-state',
  operationId: 'getEventRebuildState',
  summary: 'Where the rebuild of your events stands',
  tags: [TAG],
  responses: { 200: jsonResponse(RebuildStateSchema) },
});

export const updateEventRebuildState = defineRoute('user', {
  method: 'patch',
  path: '/events/rebuild-state',
  operationId: 'updateEventRebuildState',
  summary: 'Pause or resume automatic rebuilds, or ask for a rebuild now',
  description: '`rebuild: true` queues a rebuild now (also while paused); while one is running: 409 `event_rebuild_running`.',
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ paused: z.boolean().optional(), rebuild: z.boolean().optional() }).openapi('PhotoEventRebuildStateChange')) },
  responses: { 200: jsonResponse(RebuildStateSchema), ...errorResponses(409) },
});

export const getEvent = defineRoute('user', {
  method: 'get',
  path: '/events/{id}',
  operationId: 'getEvent',
  summary: 'One event',
  description: 'A retired event’s id answers with its successor and `redirected_from`. Another member’s event: 404.',
  tags: [TAG],
  request: { params: IdParam, query: z.object({ repository_id: RepoQuery }) },
  responses: { 200: jsonResponse(EventDetailSchema), ...errorResponses(404) },
});

export const updateEvent = defineRoute('user', {
  method: 'patch',
  path: '/events/{id}',
  operationId: 'updateEvent',
  summary: 'Rename, hide or choose the cover of an event',
  description: 'An empty or null `title_override` goes back to the generated title. The cover must be a photo of the event (422 `cover_not_member`).',
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(
      z
        .strictObject({
          title_override: z.string().max(200).nullable().optional(),
          is_hidden: z.boolean().optional(),
          cover_asset_id: z.uuid().nullable().optional().openapi(ownedBodyField('asset')),
        })
        .openapi('PhotoEventChange'),
    ),
  },
  responses: { 200: jsonResponse(EventChangeResult), ...errorResponses(404) },
});

export const listEventMembers = defineRoute('user', {
  method: 'get',
  path: '/events/{id}/members',
  operationId: 'listEventMembers',
  summary: 'The photos of an event, in time order',
  description: 'One row per media item (its file shown). Items whose files are all in the Trash are counted in `omitted_members`.',
  tags: [TAG],
  request: { params: IdParam, query: z.object({ repository_id: RepoQuery, limit: limitParam({ noun: 'Members', max: 500, default: 100 }), cursor: cursorParam() }) },
  responses: {
    200: jsonResponse(
      z
        .object({
          assets: z.array(z.object({ asset_id: z.string(), media_item_id: z.string(), position: z.number().int() })),
          next_cursor: z.string().nullable(),
          omitted_members: z.number().int(),
        })
        .openapi('PhotoEventMembers'),
    ),
    ...errorResponses(404),
  },
});

export const addEventAssets = defineRoute('user', {
  method: 'post',
  path: '/events/{id}/members',
  operationId: 'addEventAssets',
  summary: 'Add photos to an event',
  description: 'Their media items move here from any other event and stay here through rebuilds. Another member’s asset: 404; in the Trash: 409 `asset_in_trash`.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject({ asset_ids: z.array(z.uuid()).min(1).max(500).openapi(ownedBodyField('asset')) }).openapi('PhotoEventAddAssets')) },
  responses: { 200: jsonResponse(EventChangeResult), ...errorResponses(404, 409) },
});

export const removeEventMediaItem = defineRoute('user', {
  method: 'delete',
  path: '/events/{id}/members/{mediaItemId}',
  operationId: 'removeEventMediaItem',
  summary: 'Take a media item out of an event',
  description: 'It stays out through rebuilds and belongs to no event. Not a member: 404 `event_member_not_found`.',
  tags: [TAG],
  request: { params: IdParam.extend({ mediaItemId: z.uuid().openapi({ param: { name: 'mediaItemId', in: 'path' } }) }) },
  responses: { 200: jsonResponse(EventChangeResult), ...errorResponses(404) },
});

export const getEventRelations = defineRoute('user', {
  method: 'get',
  path: '/events/{id}/relations',
  operationId: 'getEventRelations',
  summary: 'Albums, places and people an event is related to',
  description: '`complete` is false while people are not available (faces not indexed in this build).',
  tags: [TAG],
  request: { params: IdParam },
  responses: {
    200: jsonResponse(
      z
        .object({
          complete: z.boolean(),
          relations: z.array(
            z.object({
              confidence: z.number(),
              facts: z.record(z.string(), z.number()),
              from: z.object({ id: z.string(), kind: z.string() }),
              origin: z.string(),
              relation: z.string(),
              to: z.object({ id: z.string(), kind: z.string() }),
            }),
          ),
          source_version: z.string(),
        })
        .openapi('PhotoEventRelations'),
    ),
    ...errorResponses(404),
  },
});

export const splitEvent = defineRoute('user', {
  method: 'post',
  path: '/events/{id}/split',
  operationId: 'splitEvent',
  summary: 'Split an event in two at a photo or a time',
  description: [
    'Exactly one of `at_media_item_id` (that item and the ones after it form the new event) or `at_time` (epoch ms: items at or after it).',
    'The point must be inside the event with photos on both sides: else 422 `split_point_outside_event` naming the field. The earlier part keeps the id; the split survives rebuilds.',
  ].join('\n'),
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(
      z
        .strictObject({ at_media_item_id: z.uuid().optional(), at_time: z.number().int().optional() })
        .refine((b) => (b.at_media_item_id === undefined) !== (b.at_time === undefined), { message: 'give exactly one of at_media_item_id and at_time', params: { code: 'split_point_required' } })
        .openapi('PhotoEventSplit'),
    ),
  },
  responses: { 200: jsonResponse(EventChangeResult.extend({ created_event_id: z.string() }).openapi('PhotoEventSplitResult')), ...errorResponses(404) },
});

export const resetEvent = defineRoute('user', {
  method: 'post',
  path: '/events/{id}/reset',
  operationId: 'resetEvent',
  summary: 'Drop your corrections of an event and recompute it',
  description: 'Title, cover, hidden, added and removed photos and the splits made on it go; a rebuild is queued at once (`pending_rebuild`).',
  tags: [TAG],
  request: { params: IdParam },
  responses: { 200: jsonResponse(EventChangeResult), ...errorResponses(404) },
});
