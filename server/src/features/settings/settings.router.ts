import { routerUsing } from '../../platform/http/router.ts';
import * as r from './settings.routes.ts';
import { validateLlm } from './llm-validation.ts';

export function settingsRouter() {
  const { app, services } = routerUsing(['settings', 'network', 'llm']);
  app.openapi(r.getSystemSettings, (c) => c.json(services(c).settings.view(), 200));
  app.openapi(r.updateSystemSettings, async (c) => {
    const actor = c.get('actor')!;
    // Through the network service: a `network` change moves the listener before it is stored.
    const patch = services(c).llm.keepKeyWithItsServer(c.req.valid('json'));
    const result = await services(c).network.applySettings(patch, actor.userId);
    c.get('log').info({ by: actor.userId, sections: Object.keys(c.req.valid('json')) }, 'system settings updated');
    return c.json(result, 200);
  });
  app.openapi(r.validateLlmSettings, async (c) => {
    const llm = services(c).llm;
    // An empty body (or none) tests the saved settings.
    const candidate = c.req.valid('json') ?? {};
    const target = llm.resolve(candidate);
    const result = await validateLlm(target, target.configured ? llm.clientFor(target) : null, c.req.raw.signal);
    llm.recordCheck(target, result.ok);
    // The outcome, not the key: the problem's words were redacted by the client.
    c.get('log').info({ ok: result.ok, problem: result.problem?.code ?? null, provider: result.provider, locality: result.locality }, 'model settings tested');
    return c.json(result, 200);
  });
  return app;
}
