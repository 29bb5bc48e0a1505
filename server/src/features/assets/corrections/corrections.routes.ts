/**
 * Corrections of when and where (extension operations, server/operations.extensions.md; decisions in
 * corrections.service.ts).
 *
 * | operationId             | method and path                                   |
 * |-------------------------|---------------------------------------------------|
 * | updateAssetCaptureTime  | PUT    /api/v1/assets/{id}/capture-time            |
 * | restoreAssetCaptureTime | DELETE /api/v1/assets/{id}/capture-time            |
 * | updateAssetsCaptureTime | POST   /api/v1/assets/capture-times                |
 * | updateAssetLocation     | PUT    /api/v1/assets/{id}/location                |
 * | restoreAssetLocation    | DELETE /api/v1/assets/{id}/location                |
 * | updateAssetsLocation    | POST   /api/v1/assets/locations                    |
 * | undoAssetCorrection     | POST   /api/v1/asset-corrections/{correction_id}/undo |
 */
import { z } from '@hono/zod-openapi';
import { defineRoute, errorResponses, ownedPathParam } from '../../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../../platform/http/responses.ts';

const TAG = 'Assets: corrections';
const IdParam = z.object({ id: z.uuid().openapi({ param: ownedPathParam('id', 'asset') }) });
const AssetIds = z.array(z.uuid()).min(1).max(1000).openapi({ description: 'Your assets (1–1000).' });
const Offset = z
  .number()
  .int()
  .min(-14 * 60)
  .max(14 * 60)
  .nullable()
  .openapi({ description: 'The zone as minutes east of UTC (120 = UTC+02:00); null = zone unknown (the time is the wall clock, as for files without a zone).' });

export const CorrectionResultSchema = z
  .object({
    correction_id: z.string().openapi({ description: 'Give it to undoAssetCorrection to take this correction back.' }),
    kind: z.enum(['time', 'place']),
    asset_ids: z.array(z.string()).openapi({ description: 'The assets changed.' }),
    skipped: z
      .array(z.object({ asset_id: z.string(), reason: z.string().openapi({ description: '`no_date` (nothing to shift), `corrected_since` (undo: a later correction changed it).' }) }))
      .openapi({ description: 'Assets left as they were, and why.' }),
    message: z.string(),
  })
  .openapi('AssetCorrection');

const PlaceBody = {
  latitude: z.number().min(-90).max(90).nullable().optional().openapi({ description: 'With longitude; both null clear the place.' }),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  place_name: z.string().trim().min(1).max(200).optional().openapi({ description: 'Instead of a position: a town looked up in the offline gazetteer (the best match; searchPlaceNames lists them).' }),
};

const result = { 200: jsonResponse(CorrectionResultSchema, 'The correction'), ...errorResponses(404, 409) };

export const updateAssetCaptureTime = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/capture-time',
  operationId: 'updateAssetCaptureTime',
  summary: 'Set when a photo or video was taken',
  description:
    'The date and time of day the camera should have shown (`local_time`, no zone) and the zone (`offset_minutes`). The correction wins over the file\'s date, survives re-processing (`time_source: user`) and never rewrites the file. ' +
    'Owner only: another member\'s asset answers 404, one shared with you 403 `asset_read_only`; 409 `asset_in_trash` in the Trash; 422 `date_out_of_range` before 1826 or in the future.',
  tags: [TAG],
  request: {
    params: IdParam,
    body: jsonBody(z.strictObject({ local_time: z.string().max(40).openapi({ example: '2024-05-01T14:30:00' }), offset_minutes: Offset })),
  },
  responses: result,
});

export const restoreAssetCaptureTime = defineRoute('user', {
  method: 'delete',
  path: '/assets/{id}/capture-time',
  operationId: 'restoreAssetCaptureTime',
  summary: "Go back to the file's own date",
  description: "The file's date (its metadata's, else its modification time, else none) replaces a correction. A correction itself: undoable.",
  tags: [TAG],
  request: { params: IdParam },
  responses: result,
});

export const updateAssetsCaptureTime = defineRoute('user', {
  method: 'post',
  path: '/assets/capture-times',
  operationId: 'updateAssetsCaptureTime',
  summary: 'Shift the dates of many photos, or set their zone',
  description:
    '`shift_minutes` moves every date by the same amount (a camera clock set wrongly); `offset_minutes` sets one zone for all, each keeping the wall clock its camera showed (a camera left on home time); both: shift, then zone. ' +
    'Assets without any date are left as they are (`skipped`, `no_date`). Unknown or other members\' ids answer 404 naming them, before anything changes.',
  tags: [TAG],
  request: {
    body: jsonBody(
      z.strictObject({
        asset_ids: AssetIds,
        shift_minutes: z
          .number()
          .int()
          .min(-200 * 365 * 1440)
          .max(200 * 365 * 1440)
          .optional()
          .openapi({ description: 'Minutes to add (negative: earlier).' }),
        offset_minutes: Offset.optional(),
      }),
    ),
  },
  responses: result,
});

export const updateAssetLocation = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/location',
  operationId: 'updateAssetLocation',
  summary: 'Set or clear where a photo or video was taken',
  description:
    'A position (`latitude`, `longitude`), or `place_name` (a town of the offline gazetteer; 422 `place_not_found` when none matches), or both coordinates null to clear it. Wins over the file\'s GPS (`place_source: user`). (0, 0) is refused: it is what an empty GPS block says.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(z.strictObject(PlaceBody)) },
  responses: result,
});

export const restoreAssetLocation = defineRoute('user', {
  method: 'delete',
  path: '/assets/{id}/location',
  operationId: 'restoreAssetLocation',
  summary: "Go back to the file's own place",
  description: "The file's GPS position (or none) replaces a correction. A correction itself: undoable.",
  tags: [TAG],
  request: { params: IdParam },
  responses: result,
});

export const updateAssetsLocation = defineRoute('user', {
  method: 'post',
  path: '/assets/locations',
  operationId: 'updateAssetsLocation',
  summary: 'Set or clear the place of many photos',
  description: 'As updateAssetLocation, for every asset of `asset_ids`.',
  tags: [TAG],
  request: { body: jsonBody(z.strictObject({ asset_ids: AssetIds, ...PlaceBody })) },
  responses: result,
});

export const undoAssetCorrection = defineRoute('user', {
  method: 'post',
  path: '/asset-corrections/{correction_id}/undo',
  operationId: 'undoAssetCorrection',
  summary: 'Undo a correction of dates or places',
  description:
    'Puts back what each asset had before the correction, except on assets a later correction of the same kind changed since (`skipped`, `corrected_since`). 404 for a correction that is not yours; 409 `correction_already_undone` the second time.',
  tags: [TAG],
  request: { params: z.object({ correction_id: z.uuid() }) },
  responses: result,
});
