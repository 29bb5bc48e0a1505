import { createRouter } from '../../platform/http/router.ts';
import type { AppServices } from '../../platform/http/context.ts';
import * as r from './models.routes.ts';
import { ModelsService } from './models.service.ts';

const svc = (container: AppServices) => new ModelsService(container.ml, container.config.modelsBaseUrl);

export function modelsRouter() {
  const app = createRouter();
  app.openapi(r.listModels, async (c) => c.json(await svc(c.get('container')).list(), 200));
  app.openapi(r.installModel, async (c) => c.json(await svc(c.get('container')).install(c.req.valid('json')), 202));
  app.openapi(r.uploadModelFile, async (c) => {
    const { id, index } = c.req.valid('param');
    const body = c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (ctl) => ctl.close() });
    return c.json(await svc(c.get('container')).upload(id, index, body as unknown as AsyncIterable<Uint8Array>), 200);
  });
  app.openapi(r.verifyModel, async (c) => c.json(await svc(c.get('container')).verify(c.req.valid('param').id), 200));
  app.openapi(r.cancelModelInstall, async (c) => c.json(await svc(c.get('container')).cancel(c.req.valid('param').id), 200));
  return app;
}
