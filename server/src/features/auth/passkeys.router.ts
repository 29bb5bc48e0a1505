/** Handlers of the passkey operations: HTTP in, service call, HTTP out. */
import type { Context } from 'hono';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './passkeys.routes.ts';
import { clientOf, sessionBody, signInBody } from './auth.http.ts';
import { ceremonyParty } from './relying-party.ts';

export function passkeysRouter() {
  const { app, services } = routerUsing(['passkeys', 'mfa', 'config']);
  const svc = (c: Context<AppEnv>) => services(c).passkeys;
  const actor = (c: Context<AppEnv>) => c.get('actor')!;
  const party = (c: Context<AppEnv>) => ceremonyParty(c, services(c).config.trustProxy, services(c).config.publicOrigin);
  const trustProxy = (c: Context<AppEnv>) => services(c).config.trustProxy;

  app.openapi(r.beginPasskeyLogin, async (c) => c.json(await svc(c).beginLogin(party(c), c.req.valid('json')), 200));

  app.openapi(r.verifyPasskeyLogin, async (c) => {
    const { challenge_token, credential } = c.req.valid('json');
    const result = await svc(c).verifyLogin({ challenge_token, credential: credential as unknown as AuthenticationResponseJSON }, clientOf(c));
    return c.json(signInBody(c, result, trustProxy(c)), 200);
  });

  app.openapi(r.beginPasskeyEnrollment, async (c) => c.json(await svc(c).beginEnrolment(actor(c), party(c)), 200));

  app.openapi(r.verifyPasskeyEnrollment, async (c) => {
    const { challenge_token, credential, label } = c.req.valid('json');
    const added = await svc(c).verifyEnrolment(actor(c), { challenge_token, credential: credential as unknown as RegistrationResponseJSON, label }, clientOf(c));
    return c.json({ credential: added.credential, session: sessionBody(c, added.session, trustProxy(c)) }, 200);
  });

  app.openapi(r.listPasskeys, (c) => c.json(svc(c).list(actor(c)), 200));

  app.openapi(r.deletePasskey, (c) => {
    const session = svc(c).remove(actor(c), c.req.valid('param').id, c.req.valid('json').security_token, clientOf(c));
    const status = services(c).mfa.status({ ...actor(c), sessionId: session.sessionId });
    return c.json({ session: sessionBody(c, session, trustProxy(c)), status }, 200);
  });

  app.openapi(r.beginSecurityPasskey, async (c) => c.json(await svc(c).beginStepUp(actor(c), party(c)), 200));

  return app;
}
