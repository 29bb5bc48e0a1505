/** Handlers of staged registration: HTTP in, service call, HTTP out. */
import type { Context } from 'hono';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './staged-registration.routes.ts';
import { clientOf, sessionBody } from './auth.http.ts';
import { ceremonyParty } from './relying-party.ts';

export function stagedRegistrationRouter() {
  const { app, services } = routerUsing(['stagedRegistration', 'config']);
  const svc = (c: Context<AppEnv>) => services(c).stagedRegistration;
  const trustProxy = (c: Context<AppEnv>) => services(c).config.trustProxy;

  app.openapi(r.startStagedRegistration, async (c) => c.json(await svc(c).start(c.req.valid('json'), clientOf(c)), 201));

  app.openapi(r.beginStagedTotpSetup, async (c) => c.json(await svc(c).beginTotp(c.req.valid('json')), 200));

  app.openapi(r.completeStagedTotpRegistration, async (c) => {
    const done = await svc(c).completeTotp(c.req.valid('json'), clientOf(c));
    return c.json({ ...done, session: sessionBody(c, done.session, trustProxy(c)) }, 201);
  });

  app.openapi(r.beginStagedPasskeyRegistration, async (c) => {
    const party = ceremonyParty(c, trustProxy(c), services(c).config.publicOrigin);
    return c.json(await svc(c).beginPasskey(party, c.req.valid('json')), 200);
  });

  app.openapi(r.verifyStagedPasskeyRegistration, async (c) => {
    const { challenge_token, credential, label } = c.req.valid('json');
    const done = await svc(c).completePasskey({ challenge_token, credential: credential as unknown as RegistrationResponseJSON, label }, clientOf(c));
    return c.json({ credential: done.credential, session: sessionBody(c, done.session, trustProxy(c)) }, 201);
  });

  return app;
}
