import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import { contentDisposition } from '../../platform/http/send-file.ts';
import { bodyStream, closeUnfinishedBody } from '../../platform/http/request-body.ts';
import * as r from './cloud-import.routes.ts';
import * as up from './takeout-uploads.routes.ts';

export function cloudImportRouter() {
  const { app, services } = routerUsing(['cloudImport']);
  const creds = (c: Context<AppEnv>) => services(c).cloudImport.credentials;
  const runs = (c: Context<AppEnv>) => services(c).cloudImport.runs;
  const actor = (c: Context<AppEnv>) => c.get('actor')!;

  app.openapi(r.listCloudProviders, (c) => c.json(creds(c).providers(), 200));
  app.openapi(r.listCloudCredentials, (c) => c.json(creds(c).list(actor(c)), 200));
  app.openapi(r.createCloudCredential, async (c) => c.json(await creds(c).create(actor(c), c.req.valid('json')), 200));
  app.openapi(r.verifyCloudCredentialChallenge, async (c) => c.json(await creds(c).verifyChallenge(actor(c), c.req.valid('param').id, c.req.valid('json').inputs), 200));
  app.openapi(r.disconnectCloudCredential, (c) => c.json(creds(c).disconnect(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.reconnectCloudCredential, async (c) => c.json(await creds(c).reconnect(actor(c), c.req.valid('param').id, c.req.valid('json')?.inputs ?? {}), 200));
  app.openapi(r.removeCloudCredential, (c) => c.json(creds(c).remove(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.browseCloudCredentialFolders, async (c) => c.json(await creds(c).folders(actor(c), c.req.valid('param').id, c.req.valid('query').folder ?? ''), 200));

  app.openapi(r.listImportRuns, (c) => c.json(runs(c).list(actor(c), c.req.valid('query')), 200));
  app.openapi(r.getImportRun, (c) => c.json(runs(c).get(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.cancelImportRun, (c) => c.json(runs(c).cancel(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.resumeImportRun, (c) => c.json(runs(c).resume(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.listImportRunFiles, (c) => c.json(runs(c).report(actor(c), c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(r.downloadImportRunReport, (c) => {
    const { fileName, body } = runs(c).reportCsv(actor(c), c.req.valid('param').id);
    return c.body(body, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': contentDisposition('attachment', fileName), 'cache-control': 'no-store' });
  });

  app.openapi(r.getRepositoryCloudStatus, (c) => c.json(runs(c).repositoryStatus(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.startRepositoryCloudImport, async (c) => c.json(await runs(c).start(actor(c), c.req.valid('param').id, c.req.valid('json') ?? {}), 200));
  app.openapi(r.bindRepositoryCloudSource, async (c) => c.json(await runs(c).bind(actor(c), c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.listTakeoutArchives, async (c) => c.json(await runs(c).takeoutArchives(actor(c), c.req.valid('query').repository_id), 200));
  app.openapi(r.previewTakeoutImport, async (c) => c.json(await runs(c).takeoutPreview(actor(c), c.req.valid('json')), 200));
  app.openapi(r.startTakeoutImport, async (c) => c.json(await runs(c).startTakeout(actor(c), c.req.valid('json')), 200));

  const uploads = (c: Context<AppEnv>) => services(c).cloudImport.takeoutUploads;
  app.use('/cloud/takeout/uploads/:id', closeUnfinishedBody);
  app.openapi(up.listTakeoutUploads, async (c) => c.json(await uploads(c).listUnfinished(actor(c), c.req.valid('query').repository_id), 200));
  app.openapi(up.createTakeoutUpload, async (c) => {
    const { created, upload } = await uploads(c).create(actor(c), c.req.valid('json'));
    return created ? c.json(upload, 201) : c.json(upload, 200);
  });
  app.openapi(up.getTakeoutUpload, async (c) => c.json(await uploads(c).get(actor(c), c.req.valid('param').id), 200));
  app.openapi(up.uploadTakeoutChunk, async (c) => c.json(await uploads(c).receive(actor(c), c.req.valid('param').id, c.req.valid('header')['content-range'], bodyStream(c)), 200));
  app.openapi(up.cancelTakeoutUpload, async (c) => c.json(await uploads(c).cancel(actor(c), c.req.valid('param').id), 200));
  app.openapi(r.syncCloud, (c) => runs(c).syncCloud());
  return app;
}
