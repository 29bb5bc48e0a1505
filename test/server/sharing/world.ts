/**
 * The household of the sharing tests: a real server, alice (the administrator) and three members
 * (bob, carl, dave), each signed in, and real corpus photos indexed for alice, bob and carl through
 * the real ingest path and media pipeline (thumbnails made).
 */
import { inVariant } from '../assets/fixture.ts';
import { indexFiles } from '../albums/helpers.ts';
import { signedInHousehold } from '../helpers/api.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';

export type Name = 'alice' | 'bob' | 'carl' | 'dave';

export interface World {
  srv: TestServer;
  id: Record<Name, number>;
  /** A signed-in client of each member in response variant `variant`. */
  as(name: Name, variant: 'A' | 'B'): Client;
  /** Asset ids by key: alice a1, a2, a3; bob b1; carl c1. */
  assets: Record<string, string>;
}

export async function sharingWorld(): Promise<World> {
  const srv = await startServer();
  const h = await signedInHousehold(srv.url, 'A', ['bob', 'carl', 'dave'] as const);
  const clients: Record<Name, Client> = { alice: h.admin, bob: h.members.bob.client, carl: h.members.carl.client, dave: h.members.dave.client };
  const aliceId = (await h.admin.get('/api/v1/auth/me')).body.user_id as number;
  const id = { alice: aliceId, bob: h.members.bob.id, carl: h.members.carl.id, dave: h.members.dave.id };
  const assets = {
    ...(await indexFiles(srv, { a1: 'exif/Canon_40D.jpg', a2: 'exif/Canon_DIGITAL_IXUS_400.jpg', a3: 'exif/Canon_PowerShot_G9.jpg' }, id.alice)),
    ...(await indexFiles(srv, { b1: 'exif/Casio_EX-M2.jpg' }, id.bob)),
    ...(await indexFiles(srv, { c1: 'exif/Fujifilm_FinePix6900ZOOM.jpg' }, id.carl)),
  };
  return { srv, id, assets, as: (name, variant) => inVariant(clients[name], variant) };
}

export const VARIANTS = ['A', 'B'] as const;
