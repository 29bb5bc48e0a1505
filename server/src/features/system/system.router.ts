import { routerUsing } from '../../platform/http/router.ts';
import * as r from './system.routes.ts';
import { getNetworkStatus } from './network.routes.ts';

export function systemRouter() {
  const { app, services } = routerUsing(['system', 'network']);
  app.openapi(r.getHealth, (c) => c.json(services(c).system.health(), 200));
  app.openapi(r.getCapabilities, async (c) => c.json(await services(c).system.capabilities(), 200));
  app.openapi(r.getRuntimeDiagnostics, async (c) => c.json(await services(c).system.diagnostics(), 200));
  app.openapi(getNetworkStatus, async (c) => c.json(await services(c).network.status(), 200));
  return app;
}
