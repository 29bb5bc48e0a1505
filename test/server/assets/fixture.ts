/**
 * Shared setup of the one-asset tests: a real server, an owner (admin) and another member, and corpus files
 * copied into the primary repository and put through the real ingest path and media pipeline.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { addMember, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';

export interface Household {
  srv: TestServer;
  owner: Client;
  other: Client;
  ownerId: number;
  otherId: number;
}

export async function household(opts: { dataDir?: string } = {}): Promise<Household> {
  const srv = await startServer(opts);
  const owner = new Client(srv.url);
  const me = await registerAdmin(owner);
  const other = new Client(srv.url);
  const bob = await addMember(owner, other, 'bob');
  return { srv, owner, other, ownerId: me.session.user.user_id, otherId: bob.session.user.user_id };
}

/** A client of the same signed-in account speaking response variant `variant`. */
export function inVariant(signedIn: Client, variant: 'A' | 'B'): Client {
  const c = new Client(signedIn.base, variant);
  c.token = signedIn.token;
  return c;
}

/** Copies a corpus file (or writes `bytes`) to `rel` in the primary repository and indexes it. */
export async function addFile(srv: TestServer, rel: string, ownerId: number, from: string | Buffer = rel): Promise<string> {
  const repo = srv.container.repositories.primary()!;
  const dest = path.join(repo.path, rel);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  if (typeof from === 'string') fs.copyFileSync(path.join(CORPUS, from), dest);
  else fs.writeFileSync(dest, from);
  const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId, source: 'scan' });
  assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
  return (r as { asset_id: string }).asset_id;
}

export function repoPath(srv: TestServer, rel = ''): string {
  return path.join(srv.container.repositories.primary()!.path, rel);
}

/** A short mono 16-bit PCM WAV of silence (audio without needing a corpus file). */
export function silentWav(seconds = 0.5, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVE', 8, 'latin1');
  b.write('fmt ', 12, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

export const NO_SUCH_ID = '00000000-0000-7000-8000-000000000000';
