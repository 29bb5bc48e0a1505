/** System settings (administrators). Secrets are write-only. */
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { SystemSettingsPatchSchema, SystemSettingsSchema } from '../../config/settings.ts';

const TAG = 'Users and settings';

export const getSystemSettings = defineRoute('admin', {
  method: 'get',
  path: '/settings/system',
  operationId: 'getSystemSettings',
  summary: 'Current system settings (secrets reported only as configured or not)',
  tags: [TAG],
  responses: { 200: jsonResponse(SystemSettingsSchema) },
});

export const updateSystemSettings = defineRoute('admin', {
  method: 'patch',
  path: '/settings/system',
  operationId: 'updateSystemSettings',
  summary: 'Change system settings (partial; secrets write-only)',
  tags: [TAG],
  request: { body: jsonBody(SystemSettingsPatchSchema) },
  responses: { 200: jsonResponse(SystemSettingsSchema, 'The settings after the change'), ...errorResponses(409, 503) },
});
