import { routerUsing } from '../../platform/http/router.ts';
import * as r from './settings.routes.ts';

export function settingsRouter() {
  const { app, services } = routerUsing(['settings', 'network']);
  app.openapi(r.getSystemSettings, (c) => c.json(services(c).settings.view(), 200));
  app.openapi(r.updateSystemSettings, async (c) => {
    const actor = c.get('actor')!;
    // Through the network service: a `network` change moves the listener before it is stored.
    const result = await services(c).network.applySettings(c.req.valid('json'), actor.userId);
    c.get('log').info({ by: actor.userId, sections: Object.keys(c.req.valid('json')) }, 'system settings updated');
    return c.json(result, 200);
  });
  return app;
}
