import type { Context } from 'hono';
import type { AppEnv } from '../../platform/http/context.ts';
import { routerUsing } from '../../platform/http/router.ts';
import * as r from './albums.routes.ts';
import * as m from './members.routes.ts';

export function albumsRouter() {
  const { app, services } = routerUsing(['albums', 'albumMembers']);
  const svc = (c: Context<AppEnv>) => services(c).albums;

  app.openapi(r.listAlbums, (c) => c.json(svc(c).list(c.get('actor')!, c.req.valid('query')), 200));
  app.openapi(r.createAlbum, (c) => c.json(svc(c).create(c.get('actor')!, c.req.valid('json')), 201));
  app.openapi(r.getAlbum, (c) => c.json(svc(c).get(c.get('actor')!, c.req.valid('param').id, c.req.valid('query').repository_id), 200));
  app.openapi(r.updateAlbum, (c) => c.json(svc(c).update(c.get('actor')!, c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(r.deleteAlbum, (c) => c.json(svc(c).delete(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.listAlbumAssets, (c) => c.json(svc(c).assets(c.get('actor')!, c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(r.addAssetToAlbum, (c) => {
    const { id, assetId } = c.req.valid('param');
    return c.json(svc(c).addAsset(c.get('actor')!, id, assetId, c.req.valid('json')?.position), 200);
  });
  app.openapi(r.removeAssetFromAlbum, (c) => {
    const { id, assetId } = c.req.valid('param');
    return c.json(svc(c).removeAsset(c.get('actor')!, id, assetId), 200);
  });
  app.openapi(r.updateAlbumAssetPosition, (c) => {
    const { id, assetId } = c.req.valid('param');
    return c.json(svc(c).moveAsset(c.get('actor')!, id, assetId, c.req.valid('json').position), 200);
  });
  app.openapi(r.queueAlbumSpeciesRecognition, (c) => c.json(svc(c).queueSpecies(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.listAssetAlbums, (c) => c.json(svc(c).albumsOfAsset(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(r.addAssetToAlbumByAsset, (c) => {
    const { id, albumId } = c.req.valid('param');
    return c.json(svc(c).addAsset(c.get('actor')!, albumId, id, undefined, { album: 'path.albumId', asset: 'path.id' }), 200);
  });

  const members = (c: Context<AppEnv>) => services(c).albumMembers;
  app.openapi(m.listAlbumMembers, (c) => c.json(members(c).list(c.get('actor')!, c.req.valid('param').id), 200));
  app.openapi(m.addAlbumMember, (c) => {
    const body = c.req.valid('json');
    return c.json(members(c).add(c.get('actor')!, c.req.valid('param').id, body.user_id, body.role), 201);
  });
  app.openapi(m.updateAlbumMember, (c) => {
    const { id, userId } = c.req.valid('param');
    return c.json(members(c).update(c.get('actor')!, id, userId, c.req.valid('json').role), 200);
  });
  app.openapi(m.removeAlbumMember, (c) => {
    const { id, userId } = c.req.valid('param');
    return c.json(members(c).remove(c.get('actor')!, id, userId), 200);
  });
  return app;
}
