/**
 * The household of the Trash tests: a real server, alice (the administrator), bob and carl signed in,
 * real corpus files copied into the primary repository and put through the real ingest path and media
 * pipeline (thumbnails made), and a recorder of `asset.deleted`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { AssetChanges } from '../../../server/src/features/assets/asset-changes.ts';
import { inVariant } from '../assets/fixture.ts';
import { V1, data, signedInHousehold } from '../helpers/api.ts';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { CORPUS } from '../media/corpus.ts';

export type Name = 'alice' | 'bob' | 'carl';
export const VARIANTS = ['A', 'B'] as const;

export interface TrashWorld {
  srv: TestServer;
  id: Record<Name, number>;
  as(name: Name, variant: 'A' | 'B'): Client;
  /** `asset.deleted` events seen so far. */
  deletedEvents: AssetChanges['asset.deleted'][];
  /** Copies a corpus file to `rel` in the primary repository, indexes it for `owner`, waits for its processing. */
  photo(rel: string, corpusFile: string, owner: Name): Promise<string>;
  /** Absolute path of `rel` in the primary repository. */
  file(rel: string): string;
  row(assetId: string): { is_deleted: number; storage_path: string; media_item_id: string | null } | undefined;
}

export async function trashWorld(): Promise<TrashWorld> {
  const srv = await startServer();
  const h = await signedInHousehold(srv.url, 'A', ['bob', 'carl'] as const);
  const clients: Record<Name, Client> = { alice: h.admin, bob: h.members.bob.client, carl: h.members.carl.client };
  const aliceId = (await h.admin.get(`${V1}/auth/me`)).body.user_id as number;
  const id = { alice: aliceId, bob: h.members.bob.id, carl: h.members.carl.id };
  const deletedEvents: AssetChanges['asset.deleted'][] = [];
  srv.container.assetChanges.on('asset.deleted', 'trash test recorder', (e) => {
    assert.ok(srv.container.db.inTransaction, 'asset.deleted is emitted inside the transaction that removes the row');
    deletedEvents.push(e);
  });
  const repo = srv.container.repositories.primary()!;
  const file = (rel: string) => path.join(repo.path, rel);
  return {
    srv,
    id,
    deletedEvents,
    as: (name, variant) => inVariant(clients[name], variant),
    file,
    async photo(rel, corpusFile, owner) {
      fs.mkdirSync(path.dirname(file(rel)), { recursive: true });
      fs.copyFileSync(path.join(CORPUS, corpusFile), file(rel));
      const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId: id[owner], source: 'scan' });
      assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
      await srv.container.jobRunner.whenIdle();
      return (r as { asset_id: string }).asset_id;
    },
    row: (assetId) =>
      srv.container.db.prepare('SELECT is_deleted, storage_path, media_item_id FROM assets WHERE asset_id = ?').get(assetId) as
        | { is_deleted: number; storage_path: string; media_item_id: string | null }
        | undefined,
  };
}

/** Moves an asset to the Trash through the contract's deleteAsset. */
export async function trash(c: Client, assetId: string): Promise<void> {
  const r = await c.req('DELETE', `${V1}/assets/${assetId}`);
  assert.equal(r.status, 200, r.text);
}

export async function deletePermanently(c: Client, ids: string[]) {
  return c.post(`${V1}/assets/trash/delete`, { asset_ids: ids });
}

export function outcome(c: Client, r: Awaited<ReturnType<typeof deletePermanently>>) {
  assert.equal(r.status, 200, r.text);
  return data(c, r) as { deleted: string[]; failed: { asset_id: string; original_filename: string; code: string; message: string }[] };
}

/**
 * Makes a folder refuse removals of its files, as a read-only share or a folder the server may not
 * write does: without write permission for an ordinary user; for root (who ignores permissions), the
 * immutable attribute. Checked with a probe: a folder that still takes a new file fails the test.
 */
export function makeReadOnly(dir: string): () => void {
  fs.chmodSync(dir, 0o555);
  let undo = () => fs.chmodSync(dir, 0o755);
  if (canWrite(dir)) {
    execFileSync('chattr', ['+i', dir]);
    const before = undo;
    undo = () => {
      execFileSync('chattr', ['-i', dir]);
      before();
    };
  }
  assert.ok(!canWrite(dir), `${dir} could not be made read-only on this machine`);
  return undo;
}

function canWrite(dir: string): boolean {
  const probe = path.join(dir, '.probe');
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
    return true;
  } catch {
    return false;
  }
}
