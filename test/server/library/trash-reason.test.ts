/**
 * Watching and scanning bring back an asset whose file went missing and returned, but never undo a
 * person's deletion because the file is still on disk, was touched, or was moved.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { CORPUS } from '../media/corpus.ts';

describe('the Trash and the files on disk', { timeout: 120_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let ownerId: number;
  let repoId: string;
  let repoPath: string;
  const put = async (rel: string, from: string) => {
    fs.mkdirSync(path.join(repoPath, path.dirname(rel)), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, from), path.join(repoPath, rel));
    const r = await srv.container.ingest.indexFile({ repositoryId: repoId, relPath: rel, ownerId, source: 'scan' });
    await srv.container.jobRunner.whenIdle();
    return r as { outcome: string; asset_id: string };
  };
  const index = (rel: string) => srv.container.ingest.indexFile({ repositoryId: repoId, relPath: rel, ownerId, source: 'scan' });
  const isDeleted = async (id: string) => data(owner, await owner.get(`${V1}/assets/${id}`)).is_deleted as boolean;

  before(async () => {
    srv = await startServer();
    owner = new Client(srv.url);
    ownerId = (await registerAdmin(owner)).session.user.user_id;
    const repo = srv.container.repositories.primary()!;
    repoId = repo.repository_id;
    repoPath = repo.path;
  });
  after(() => srv.stop({ removeData: true }));

  test('a deleted photo stays in the Trash when its file is indexed again, touched, or moved', async () => {
    const { asset_id } = await put('trash/a.jpg', 'exif/Canon_40D.jpg');
    assert.equal((await owner.req('DELETE', `${V1}/assets/${asset_id}`)).status, 200);

    assert.equal((await index('trash/a.jpg')).outcome, 'unchanged');
    assert.equal(await isDeleted(asset_id), true, 'unchanged file: still trashed');

    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(repoPath, 'trash/a.jpg'), later, later);
    await index('trash/a.jpg');
    await srv.container.jobRunner.whenIdle();
    assert.equal(await isDeleted(asset_id), true, 'touched file: still trashed');

    fs.renameSync(path.join(repoPath, 'trash/a.jpg'), path.join(repoPath, 'trash/b.jpg'));
    assert.equal((await index('trash/b.jpg')).outcome, 'moved');
    assert.equal(await isDeleted(asset_id), true, 'moved file: still trashed, same asset');

    // Restoring is the person's choice.
    assert.equal((await owner.post(`${V1}/assets/${asset_id}/restore`)).status, 200);
    assert.equal(await isDeleted(asset_id), false);
  });

  test('a photo whose file went missing comes back when the file returns', async () => {
    const { asset_id } = await put('gone/c.jpg', 'gps/DSCN0010.jpg');
    const saved = fs.readFileSync(path.join(repoPath, 'gone/c.jpg'));
    fs.rmSync(path.join(repoPath, 'gone/c.jpg'));
    assert.equal((await index('gone/c.jpg')).outcome, 'unsupported');
    assert.equal(await isDeleted(asset_id), true, 'missing: in the Trash');
    fs.writeFileSync(path.join(repoPath, 'gone/c.jpg'), saved);
    assert.equal((await index('gone/c.jpg')).outcome, 'restored');
    assert.equal(await isDeleted(asset_id), false);
  });
});
