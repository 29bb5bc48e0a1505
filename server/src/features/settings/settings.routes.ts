/** System settings (administrators). Secrets are write-only. */
import { defineRoute, errorResponses } from '../../platform/http/router.ts';
import { jsonBody, jsonResponse } from '../../platform/http/responses.ts';
import { SystemSettingsPatchSchema, SystemSettingsSchema } from '../../config/settings.ts';
import { LlmCandidateSchema } from './llm-connection.ts';
import { LlmValidationSchema } from './llm-validation.ts';

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

export const validateLlmSettings = defineRoute('admin', {
  method: 'post',
  path: '/settings/system/validate-llm',
  operationId: 'validateLlmSettings',
  summary: 'Test the model settings: the server answers, has the model, and the model can call tools',
  description:
    'Runs the checks against the saved model settings, with the body’s fields (if any) laid over them, and stores nothing. ' +
    'Answers 200 with the outcome whether or not the model server passed (`ok`, each check, and the first `problem` in words); ' +
    'a body that is itself wrong answers 422. The saved API key is sent only to the saved server: a test of another address must give its own `api_key`.',
  tags: [TAG],
  request: { body: jsonBody(LlmCandidateSchema, { required: false, description: 'Settings to test instead of the saved ones (any subset).' }) },
  responses: { 200: jsonResponse(LlmValidationSchema, 'What the checks found') },
});
