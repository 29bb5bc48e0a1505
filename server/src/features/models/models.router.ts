import { routerUsing } from '../../platform/http/router.ts';
import type { AppServices } from '../../platform/http/context.ts';
import * as r from './models.routes.ts';
import { ModelsService } from './models.service.ts';

const svc = (container: Pick<AppServices, 'ml' | 'config'>) => new ModelsService(container.ml, container.config.modelsBaseUrl);

export function modelsRouter() {
  const { app, services } = routerUsing(['ml', 'config']);
  app.openapi(r.listModels, async (c) => c.json(await svc(services(c)).list(), 200));
  app.openapi(r.installModel, async (c) => c.json(await svc(services(c)).install(c.req.valid('json')), 202));
  app.openapi(r.uploadModelFile, async (c) => {
    const { id, index } = c.req.valid('param');
    const body = c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (ctl) => ctl.close() });
    return c.json(await svc(services(c)).upload(id, index, body as unknown as AsyncIterable<Uint8Array>), 200);
  });
  app.openapi(r.verifyModel, async (c) => c.json(await svc(services(c)).verify(c.req.valid('param').id), 200));
  app.openapi(r.cancelModelInstall, async (c) => c.json(await svc(services(c)).cancel(c.req.valid('param').id), 200));
  return app;
}
