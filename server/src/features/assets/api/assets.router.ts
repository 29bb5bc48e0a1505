import type { Context } from 'hono';
import { routerUsing } from '../../../platform/http/router.ts';
import type { AppEnv } from '../../../platform/http/context.ts';
import { contentDisposition, sendFile } from '../../../platform/http/send-file.ts';
import type { FileRef, StreamedDownload } from './assets.service.ts';
import * as r from './assets.routes.ts';
import * as x from './export.routes.ts';
import * as s from './sidecar.routes.ts';

/** File answers are the same in both variants, their errors stay problem+json. */
async function file(c: Context<AppEnv>, ref: () => FileRef | Promise<FileRef>, disposition: 'inline' | 'attachment' = 'inline') {
  c.set('rawRoute', true);
  const f = await ref();
  return sendFile(c, f.path, { contentType: f.contentType, etag: f.etag, downloadName: f.name, disposition });
}

function attachmentName(name: string): string {
  return contentDisposition('attachment', name);
}

/** A streamed download made on request (export, zip): never cached, always an attachment. */
function download(c: Context<AppEnv>, d: StreamedDownload) {
  c.set('rawRoute', true);
  const headers = {
    'content-type': d.contentType,
    'content-length': String(d.size),
    'content-disposition': attachmentName(d.name),
    'cache-control': 'no-store',
  };
  return new Response(d.stream, { status: 200, headers });
}

export function assetsRouter() {
  const { app, services } = routerUsing(['assets']);
  const svc = (c: Context<AppEnv>) => services(c).assets;

  app.openapi(x.downloadAssets, (c) => {
    const log = c.get('log');
    const onError = (e: Error) => log.warn({ err: e.message }, 'zip download failed while streaming');
    return download(c, svc(c).download(c.get('actor')!, c.req.valid('json').asset_ids, onError)) as never;
  });
  app.openapi(r.getAsset, (c) => {
    const q = c.req.valid('query');
    const include = { thumbnails: q.include_thumbnails, tags: q.include_tags, albums: q.include_albums, species: q.include_species, ocr: q.include_ocr, faces: q.include_faces };
    return c.json(svc(c).detail(c.get('actor')!, c.req.valid('param').id, include) as never, 200);
  });
  app.openapi(r.deleteAsset, (c) => c.json(svc(c).delete(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.restoreAsset, (c) => c.json(svc(c).restore(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.updateAssetMetadata, (c) => c.json(svc(c).updateMetadata(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').specific_metadata), 200));
  app.openapi(r.updateAssetDescription, (c) => c.json(svc(c).updateDescription(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').description), 200));
  app.openapi(r.updateAssetLike, (c) => c.json(svc(c).updateLike(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').liked), 200));
  app.openapi(r.updateAssetRating, (c) => c.json(svc(c).updateRating(c.get('actor')!, c.req.valid('param').id, c.req.valid('json').rating), 200));
  app.openapi(r.updateAssetRatingAndLike, (c) => c.json(svc(c).updateRatingAndLike(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.getAssetMediaItem, (c) => c.json(svc(c).mediaItem(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.getAssetExif, (c) => c.json(svc(c).exif(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.getAssetThumbnail, (c) => file(c, () => svc(c).thumbnail(c.get('actor')!, c.req.valid('param').id, c.req.valid('query').size)) as never);
  app.openapi(r.getAssetOriginal, (c) => file(c, () => svc(c).original(c.get('actor')!, c.req.valid('param').id)) as never);
  app.openapi(r.getAssetWebVideo, (c) => file(c, () => svc(c).webMedia(c.get('actor')!, c.req.valid('param').id, 'VIDEO')) as never);
  app.openapi(r.getAssetWebAudio, (c) => file(c, () => svc(c).webMedia(c.get('actor')!, c.req.valid('param').id, 'AUDIO')) as never);
  app.openapi(x.exportAsset, async (c) => {
    const q = c.req.valid('query');
    const opts = { format: q.format, quality: q.quality, maxWidth: q.max_width, maxHeight: q.max_height, filename: q.filename };
    return download(c, await svc(c).export(c.get('actor')!, c.req.valid('param').id, opts)) as never;
  });
  app.openapi(s.getAssetSidecar, (c) => c.json(svc(c).getSidecar(c.get('actor')!, c.req.valid('param').id) as never, 200));
  app.openapi(s.updateAssetSidecar, (c) => c.json(svc(c).saveSidecar(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')) as never, 200));
  app.openapi(r.reprocessAsset, async (c) => {
    const body = (c.req.valid('json') ?? {}) as { tasks?: string[] };
    return c.json(svc(c).reprocess(c.get('actor')!, c.req.valid('param').id, body.tasks ?? []), 200);
  });
  return app;
}
