/**
 * The API: every feature router under `/api/v1`, plus the security schemes of the OpenAPI document.
 * Built without a container so that `scripts/gen-api.ts` can produce the document offline; each router
 * declares the services its handlers use (`routerUsing`, platform/http/router.ts) and reaches them per
 * request through the sealed handle app.ts puts on every request.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './platform/http/context.ts';
import { createRouter } from './platform/http/router.ts';
import { authRouter } from './features/auth/auth.router.ts';
import { mfaRouter } from './features/auth/mfa.router.ts';
import { passkeysRouter } from './features/auth/passkeys.router.ts';
import { stagedRegistrationRouter } from './features/auth/staged-registration.router.ts';
import { sessionsRouter } from './features/auth/sessions.router.ts';
import { usersRouter } from './features/users/users.router.ts';
import { settingsRouter } from './features/settings/settings.router.ts';
import { systemRouter } from './features/system/system.router.ts';
import { modelsRouter } from './features/models/models.router.ts';
import { jobsRouter } from './features/jobs/jobs.router.ts';
import { mediaToolsRouter } from './features/assets/media-tools/media-tools.router.ts';
import { uploadsRouter } from './features/uploads/uploads.router.ts';
import { assetsRouter } from './features/assets/api/assets.router.ts';
import { correctionsRouter } from './features/assets/corrections/corrections.router.ts';
import { trashRouter } from './features/assets/trash/trash.router.ts';
import { repositoriesRouter } from './features/repositories/repositories.router.ts';
import { browseRouter } from './features/browse/browse.router.ts';
import { searchRouter } from './features/search/search.router.ts';
import { indexingRouter } from './features/indexing/indexing.router.ts';
import { albumsRouter } from './features/albums/albums.router.ts';
import { tagsRouter } from './features/tags/tags.router.ts';
import { facesRouter } from './features/faces/faces.router.ts';
import { stacksRouter } from './features/stacks/stacks.router.ts';
import { foldersRouter } from './features/folders/folders.router.ts';
import { placesRouter } from './features/places/places.router.ts';
import { statisticsRouter } from './features/statistics/statistics.router.ts';
import { featuredRouter } from './features/featured/featured.router.ts';
import { sharingRouter } from './features/sharing/sharing.router.ts';
import { duplicatesRouter } from './features/duplicates/duplicates.router.ts';
import { photoEventsRouter } from './features/photo-events/photo-events.router.ts';
import { speciesRouter } from './features/species/species.router.ts';
import { cloudImportRouter } from './features/cloud-import/index.ts';
import { hostActionsRouter } from './features/host-actions/index.ts';
import { agentRouter } from './features/agent/index.ts';

export const API_BASE = '/api/v1';

export function buildApi(): OpenAPIHono<AppEnv> {
  const api = createRouter();
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from login, register or refresh (15 minutes).',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'mediaToken', {
    type: 'apiKey',
    in: 'query',
    name: 'mt',
    description: 'Short-lived media token from getMediaToken, for <img>/<video> URLs.',
  });
  api.route(API_BASE, systemRouter());
  api.route(API_BASE, modelsRouter());
  api.route(API_BASE, authRouter());
  api.route(API_BASE, mfaRouter());
  api.route(API_BASE, passkeysRouter());
  api.route(API_BASE, stagedRegistrationRouter());
  api.route(API_BASE, sessionsRouter());
  api.route(API_BASE, usersRouter());
  api.route(API_BASE, settingsRouter());
  api.route(API_BASE, jobsRouter());
  api.route(API_BASE, mediaToolsRouter());
  // Before assetsRouter: fixed paths such as /assets/indexing/*, /assets/tags, /assets/stacks sit
  // beside /assets/{id}, and the first matching route wins.
  api.route(API_BASE, indexingRouter());
  api.route(API_BASE, tagsRouter());
  api.route(API_BASE, facesRouter());
  api.route(API_BASE, foldersRouter());
  api.route(API_BASE, placesRouter());
  api.route(API_BASE, statisticsRouter());
  api.route(API_BASE, featuredRouter());
  api.route(API_BASE, stacksRouter());
  api.route(API_BASE, albumsRouter());
  api.route(API_BASE, searchRouter());
  api.route(API_BASE, browseRouter());
  api.route(API_BASE, trashRouter());
  api.route(API_BASE, correctionsRouter());
  api.route(API_BASE, assetsRouter());
  api.route(API_BASE, repositoriesRouter());
  api.route(API_BASE, cloudImportRouter());
  api.route(API_BASE, hostActionsRouter());
  api.route(API_BASE, uploadsRouter());
  api.route(API_BASE, sharingRouter());
  api.route(API_BASE, duplicatesRouter());
  api.route(API_BASE, photoEventsRouter());
  api.route(API_BASE, speciesRouter());
  api.route(API_BASE, agentRouter());
  return api;
}

export type Api = ReturnType<typeof buildApi>;
export type { OpenAPIHono };
