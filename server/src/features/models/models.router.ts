import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './models.routes.ts';
import { ModelsService } from './models.service.ts';

export function modelsRouter() {
  const { app, services } = routerUsing(['ml', 'config']);
  const svc = (c: Context<AppEnv>) => {
    const { ml, config } = services(c);
    return new ModelsService(ml, config.modelsBaseUrl);
  };
  app.openapi(r.listModels, async (c) => c.json(await svc(c).list(), 200));
  app.openapi(r.installModel, async (c) => c.json(await svc(c).install(c.req.valid('json')), 202));
  app.openapi(r.uploadModelFile, async (c) => {
    const { id, index } = c.req.valid('param');
    const body = c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (ctl) => ctl.close() });
    return c.json(await svc(c).upload(id, index, body as unknown as AsyncIterable<Uint8Array>), 200);
  });
  app.openapi(r.verifyModel, async (c) => c.json(await svc(c).verify(c.req.valid('param').id), 200));
  app.openapi(r.cancelModelInstall, async (c) => c.json(await svc(c).cancel(c.req.valid('param').id), 200));
  return app;
}
