/**
 * Real media for list and search tests: corpus files copied into the primary repository and
 * indexed for an owner through the real ingest pipeline (metadata, pairing, thumbnails), the jobs
 * awaited; one signed-in client speaking both response variants; and what queryAssets lists, by key.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client, type TestServer } from './server.ts';
import { V1, data } from './api.ts';
import { corpusFile } from '../repositories/helpers.ts';

/** `files`: key → [corpus path, repository path]. Answers key → asset id. */
export async function indexCorpus<K extends string>(srv: TestServer, ownerId: number, files: Record<K, readonly [string, string]>): Promise<Record<K, string>> {
  const repo = srv.container.repositories.primary()!;
  const ids = {} as Record<K, string>;
  for (const [key, [from, rel]] of Object.entries(files) as [K, readonly [string, string]][]) {
    fs.mkdirSync(path.join(repo.path, path.dirname(rel)), { recursive: true });
    fs.copyFileSync(corpusFile(from), path.join(repo.path, rel));
    const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId, source: 'scan' });
    assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
    ids[key] = (r as { asset_id: string }).asset_id;
  }
  await srv.container.jobRunner.whenIdle();
  return ids;
}

/** The signed-in client `a` (variant A) and a twin with its token speaking variant B. */
export function inBothVariants(a: Client): Record<'A' | 'B', Client> {
  const b = new Client(a.base, 'B');
  b.token = a.token;
  return { A: a, B: b };
}

/** The keys (of `ids`) of the items queryAssets lists for `body`, sorted; an asset not in `ids` by its id. */
export async function listedKeys(c: Client, ids: Record<string, string>, body: object): Promise<string[]> {
  const r = await c.post(`${V1}/assets/query`, { pagination: { limit: 100 }, ...body });
  assert.equal(r.status, 200, `${JSON.stringify(body)}: ${r.text}`);
  const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
  return (data(c, r).items as { media_item: { primary_asset: { asset_id: string } } }[])
    .map((i) => byId.get(i.media_item.primary_asset.asset_id) ?? i.media_item.primary_asset.asset_id)
    .sort();
}
