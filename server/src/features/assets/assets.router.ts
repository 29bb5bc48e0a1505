import type { Context } from 'hono';
import { createRouter } from '../../platform/http/router.ts';
import type { AppEnv } from '../../platform/http/context.ts';
import { sendFile } from '../../platform/http/send-file.ts';
import type { FileRef } from './assets.service.ts';
import * as r from './assets.routes.ts';

/** File answers are the same in both variants, their errors stay problem+json. */
function file(c: Context<AppEnv>, ref: () => FileRef, disposition: 'inline' | 'attachment' = 'inline') {
  c.set('rawRoute', true);
  const f = ref();
  return sendFile(c, f.path, { contentType: f.contentType, etag: f.etag, downloadName: f.name, disposition });
}

export function assetsRouter() {
  const app = createRouter();
  const svc = (c: Context<AppEnv>) => c.get('container').assets;

  app.openapi(r.getAsset, (c) => {
    const q = c.req.valid('query');
    const include = { thumbnails: q.include_thumbnails, tags: q.include_tags, albums: q.include_albums, ocr: q.include_ocr, faces: q.include_faces };
    return c.json(svc(c).detail(c.get('actor')!, c.req.valid('param').id, include) as never, 200);
  });
  app.openapi(r.getAssetExif, (c) => c.json(svc(c).exif(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.getAssetThumbnail, (c) => file(c, () => svc(c).thumbnail(c.get('actor')!, c.req.valid('param').id, c.req.valid('query').size)) as never);
  app.openapi(r.getAssetOriginal, (c) => file(c, () => svc(c).original(c.get('actor')!, c.req.valid('param').id)) as never);
  app.openapi(r.getAssetWebVideo, (c) => file(c, () => svc(c).webMedia(c.get('actor')!, c.req.valid('param').id, 'VIDEO')) as never);
  app.openapi(r.getAssetWebAudio, (c) => file(c, () => svc(c).webMedia(c.get('actor')!, c.req.valid('param').id, 'AUDIO')) as never);
  app.openapi(r.reprocessAsset, async (c) => {
    const body = (c.req.valid('json') ?? {}) as { tasks?: string[] };
    return c.json(svc(c).reprocess(c.get('actor')!, c.req.valid('param').id, body.tasks ?? []), 200);
  });
  return app;
}
