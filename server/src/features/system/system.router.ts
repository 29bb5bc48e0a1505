import { createRouter } from '../../platform/http/router.ts';
import * as r from './system.routes.ts';
import { getNetworkStatus } from './network.routes.ts';

export function systemRouter() {
  const app = createRouter();
  app.openapi(r.getHealth, (c) => c.json(c.get('container').system.health(), 200));
  app.openapi(r.getCapabilities, async (c) => c.json(await c.get('container').system.capabilities(), 200));
  app.openapi(r.getRuntimeDiagnostics, async (c) => c.json(await c.get('container').system.diagnostics(), 200));
  app.openapi(getNetworkStatus, async (c) => c.json(await c.get('container').network.status(), 200));
  return app;
}
