/** The Studio edit sidecar of an asset (non-destructive edits). Decisions: sidecar.ts. */
import { defineRoute, errorResponses } from '../../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../../platform/http/responses.ts';
import { IdParam, TAG } from './assets.routes.ts';
import { SidecarInputSchema, SidecarResponseSchema } from './sidecar.ts';

export const getAssetSidecar = defineRoute('user', {
  method: 'get',
  path: '/assets/{id}/sidecar',
  operationId: 'getAssetSidecar',
  summary: "An asset's Studio edit sidecar",
  description:
    'Stored in the repository\'s hidden folder (`.hearth/sidecars/<asset_id>.json`). Without one: `{asset_id, exists: false, sidecar: null}`. 409 `sidecar_unreadable` when the stored file is damaged; 503 `repository_unavailable` when the repository is offline.',
  tags: [TAG],
  request: { params: IdParam },
  responses: {
    200: jsonResponse(SidecarResponseSchema),
    ...errorResponses(404, 409, 503),
  },
});

export const updateAssetSidecar = defineRoute('user', {
  method: 'put',
  path: '/assets/{id}/sidecar',
  operationId: 'updateAssetSidecar',
  summary: "Save an asset's Studio edit sidecar",
  description:
    'Replaces the sidecar with the body (adjustments required; canvas and layers optional). The server sets `version` (+1 per save, 1 for the first), `updated_at` and `source` (from the asset). ' +
    'Send the `version` you read (0 when there was none) for optimistic concurrency: a different current version answers 409 `sidecar_version_conflict` and nothing is saved; without `version` the save overwrites. ' +
    'Strict validation: unknown fields and out-of-range values answer 422 naming the field. 409 `asset_in_trash` in the Trash; 503 when the repository is offline or not writable.',
  tags: [TAG],
  request: { params: IdParam, body: jsonBody(SidecarInputSchema) },
  responses: {
    200: jsonResponse(SidecarResponseSchema, 'Saved'),
    ...errorResponses(404, 409, 503),
  },
});
