/** Handlers of the authentication and account operations: HTTP in, service call, HTTP out. */
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import { Unauthorized } from '../../platform/http/errors.ts';
import * as r from './auth.routes.ts';
import { relyingPartyAt, requestOrigin } from './relying-party.ts';
import * as inv from './invites.routes.ts';
import { clearRefreshCookie, clientOf, presentedRefreshToken, readRefreshCookie, sessionBody, signInBody } from './auth.http.ts';

export function authRouter() {
  const { app, services } = routerUsing(['auth', 'invites', 'config']);
  const svc = (c: Context<AppEnv>) => services(c).auth;
  // Whether the refresh cookie is marked Secure behind a proxy (auth.http.ts).
  const trustProxy = (c: Context<AppEnv>) => services(c).config.trustProxy;

  app.openapi(r.getBrowserAuthCapabilities, (c) => {
    const { config } = services(c);
    const party = relyingPartyAt(requestOrigin(c, config.trustProxy, config.publicOrigin));
    return c.json(
      {
        current_origin: party.origin,
        insecure_transport: party.insecureTransport,
        passkey_available: party.unavailableReason === null,
        passkey_unavailable_reason: party.unavailableReason,
      },
      200,
    );
  });

  app.openapi(inv.createInvite, async (c) => {
    const made = await services(c).invites.create(c.get('actor')!.userId, c.req.valid('json'), new URL(c.req.url).origin);
    return c.json(made, 201);
  });
  app.openapi(inv.listInvites, (c) => c.json(services(c).invites.list(), 200));
  app.openapi(inv.deleteInvite, (c) => {
    services(c).invites.delete(c.req.valid('param').id);
    return c.json({ message: 'The invite link was withdrawn.' }, 200);
  });

  app.openapi(r.getBootstrapStatus, (c) => c.json(svc(c).bootstrapStatus(clientOf(c)), 200));

  app.openapi(r.register, async (c) => {
    const session = await svc(c).register(c.req.valid('json'), clientOf(c));
    return c.json(sessionBody(c, session, trustProxy(c)), 201);
  });

  app.openapi(r.login, async (c) => {
    const previous = c.get('variant') === 'A' ? readRefreshCookie(c) : undefined;
    const result = await svc(c).login(c.req.valid('json'), clientOf(c), previous);
    return c.json(signInBody(c, result, trustProxy(c)), 200);
  });

  app.openapi(r.getLoginOptions, (c) => c.json(svc(c).loginOptions(c.req.valid('json').username, clientOf(c)), 200));

  app.openapi(r.completePasswordChange, async (c) => {
    const session = await svc(c).completePasswordChange(c.req.valid('json'), clientOf(c));
    return c.json(sessionBody(c, session, trustProxy(c)), 200);
  });

  app.openapi(r.getCsrfToken, (c) => {
    const cookie = readRefreshCookie(c);
    const csrfToken = svc(c).csrfForCookie(cookie);
    // A cookie whose session ended is of no more use: the browser forgets it.
    if (cookie && csrfToken === null) clearRefreshCookie(c, trustProxy(c));
    return c.json({ csrfToken }, 200);
  });

  app.openapi(r.refreshSession, async (c) => {
    const body = await optionalJson(c);
    const token = presentedRefreshToken(c, body);
    if (c.get('variant') === 'A' && token) svc(c).checkCsrf(token, c.req.valid('header')['x-csrf-token']);
    try {
      return c.json(sessionBody(c, svc(c).refresh(token, clientOf(c)), trustProxy(c)), 200);
    } catch (e) {
      if (e instanceof Unauthorized && c.get('variant') === 'A') clearRefreshCookie(c, trustProxy(c));
      throw e;
    }
  });

  app.openapi(r.logout, async (c) => {
    const body = await optionalJson(c);
    const token = presentedRefreshToken(c, body);
    if (c.get('variant') === 'A' && token) svc(c).checkCsrf(token, c.req.valid('header')['x-csrf-token']);
    svc(c).logout(token, c.get('actor'));
    if (c.get('variant') === 'A') clearRefreshCookie(c, trustProxy(c));
    return c.json({ message: 'Signed out.' }, 200);
  });

  app.openapi(r.getMe, (c) => c.json(svc(c).me(c.get('actor')!), 200));
  app.openapi(r.getMediaToken, (c) => c.json(svc(c).mediaToken(c.get('actor')!), 200));

  app.openapi(r.changeMyPassword, async (c) => {
    const session = await svc(c).changeMyPassword(c.get('actor')!, c.req.valid('json'), clientOf(c));
    return c.json(sessionBody(c, session, trustProxy(c)), 200);
  });

  app.openapi(r.updateMyProfile, (c) => c.json(svc(c).updateMyProfile(c.get('actor')!, c.req.valid('json')), 200));

  return app;
}

/** Refresh and logout take an optional body; an empty one is fine, a malformed one is not. */
async function optionalJson(c: { req: { valid(t: 'json'): unknown } }): Promise<{ refresh_token?: string | undefined } | undefined> {
  try {
    return c.req.valid('json') as { refresh_token?: string } | undefined;
  } catch {
    return undefined;
  }
}
