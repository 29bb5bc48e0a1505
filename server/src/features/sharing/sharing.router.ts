import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import { contentDisposition, sendFile } from '../../platform/http/send-file.ts';
import * as h from './household.routes.ts';
import * as l from './links.routes.ts';
import * as p from './partners.routes.ts';
import * as pub from './public-links.routes.ts';
import type { FileRefLike } from './links.service.ts';

/** A visitor's link token: header X-Link-Token, or `lt` in the query (for <img> URLs). */
const linkToken = (c: Context<AppEnv>) => c.req.header('x-link-token') ?? c.req.query('lt');

async function file(c: Context<AppEnv>, ref: () => FileRefLike | Promise<FileRefLike>, disposition: 'inline' | 'attachment' = 'inline') {
  c.set('rawRoute', true);
  const f = await ref();
  // Public: the browser may keep it, shared caches may not (a revoked link must stop showing it).
  const res = sendFile(c, f.path, { contentType: f.contentType, etag: f.etag, downloadName: f.name, disposition });
  res.headers.set('referrer-policy', 'no-referrer');
  return res;
}

export function sharingRouter() {
  const { app, services } = routerUsing(['partnerShares', 'shareLinks']);
  const partners = (c: Context<AppEnv>) => services(c).partnerShares;
  const links = (c: Context<AppEnv>) => services(c).shareLinks;

  app.openapi(h.listHouseholdMembers, (c) => c.json(partners(c).members(c.get('actor')!), 200));
  app.openapi(p.listPartnerShares, (c) => c.json(partners(c).list(c.get('actor')!), 200));
  app.openapi(p.createPartnerShare, (c) => c.json(partners(c).create(c.get('actor')!, c.req.valid('json')), 201));
  app.openapi(p.updatePartnerShare, (c) => c.json(partners(c).update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(p.deletePartnerShare, (c) => c.json(partners(c).delete(c.get('actor')!, c.req.valid('param').id), 200));

  app.openapi(l.createShareLink, async (c) => c.json(await links(c).create(c.get('actor')!, c.req.valid('json')), 201));
  app.openapi(l.listShareLinks, (c) => c.json(links(c).list(c.get('actor')!), 200));
  app.openapi(l.updateShareLink, async (c) => c.json(await links(c).update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(l.deleteShareLink, (c) => c.json(links(c).delete(c.get('actor')!, c.req.valid('param').id), 200));

  app.openapi(pub.getSharedLink, (c) => c.json(links(c).describe(c.req.valid('param').key), 200));
  app.openapi(pub.unlockSharedLink, async (c) => c.json(await links(c).unlock(c.req.valid('param').key, c.req.valid('json').password, c.get('clientIp')), 200));
  app.openapi(pub.listSharedLinkAssets, (c) => c.json(links(c).listAssets(c.req.valid('param').key, linkToken(c)), 200));
  app.openapi(pub.getSharedLinkThumbnail, (c) => {
    const { key, photoId } = c.req.valid('param');
    return file(c, () => links(c).thumbnail(key, linkToken(c), photoId, c.req.valid('query').size)) as never;
  });
  app.openapi(pub.getSharedLinkVideo, (c) => {
    const { key, photoId } = c.req.valid('param');
    return file(c, () => links(c).video(key, linkToken(c), photoId)) as never;
  });
  app.openapi(pub.getSharedLinkOriginal, (c) => {
    const { key, photoId } = c.req.valid('param');
    return file(c, () => links(c).original(key, linkToken(c), photoId), 'attachment') as never;
  });
  app.openapi(pub.downloadSharedLinkZip, (c) => {
    c.set('rawRoute', true);
    const log = c.get('log');
    const d = links(c).zip(c.req.valid('param').key, linkToken(c), (e) => log.warn({ err: e.message }, 'shared link zip failed while streaming'));
    const headers = { 'content-type': d.contentType, 'content-length': String(d.size), 'content-disposition': contentDisposition('attachment', d.name), 'cache-control': 'no-store' };
    return new Response(d.stream, { status: 200, headers }) as never;
  });
  return app;
}
