/** Handlers of the second factor operations: HTTP in, service call, HTTP out. */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './mfa.routes.ts';
import { clientOf, sessionBody, signInBody } from './auth.http.ts';
import type { FreshCodes } from './mfa.service.ts';

export function mfaRouter() {
  const { app, services } = routerUsing(['mfa', 'config']);
  const svc = (c: Context<AppEnv>) => services(c).mfa;
  const actor = (c: Context<AppEnv>) => c.get('actor')!;
  // The new session of enableTotp and regenerateRecoveryCodes replaces the refresh cookie (variant A).
  const withSession = (c: Context<AppEnv>, f: FreshCodes) => ({ ...f, session: sessionBody(c, f.session, services(c).config.trustProxy) });

  app.openapi(r.getMfaStatus, (c) => c.json(svc(c).status(actor(c)), 200));

  app.openapi(r.verifyRecentSecurity, async (c) => c.json(await svc(c).verifyRecentSecurity(actor(c), c.req.valid('json'), clientOf(c)), 200));

  app.openapi(r.beginTotpSetup, async (c) => c.json(await svc(c).beginTotpSetup(actor(c), c.req.valid('json')), 200));

  app.openapi(r.enableTotp, async (c) => c.json(withSession(c, await svc(c).enableTotp(actor(c), c.req.valid('json'), clientOf(c))), 200));

  app.openapi(r.disableTotp, (c) => c.json(svc(c).disableTotp(actor(c), c.req.valid('json')), 200));

  app.openapi(r.regenerateRecoveryCodes, (c) => c.json(withSession(c, svc(c).regenerateRecoveryCodes(actor(c), c.req.valid('json'), clientOf(c))), 200));

  app.openapi(r.verifyMfa, async (c) => {
    const result = await svc(c).verifyMfa(c.req.valid('json'), clientOf(c));
    return c.json(signInBody(c, result, services(c).config.trustProxy), 200);
  });

  return app;
}
