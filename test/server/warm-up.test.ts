/**
 * The warm-up after a start (server/src/warm-up.ts) prepares each member's kept answers: the
 * timeline list, folder counts, map points and statistics facts, members with files only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { warmLibraryCaches } from '../../server/src/warm-up.ts';
import type { Container } from '../../server/src/container.ts';
import { insertAsset, setup, type World } from './statistics/catalog.ts';

describe('warm-up after a start', { timeout: 120_000 }, () => {
  let w: World;
  before(async () => {
    w = await setup();
    for (let i = 0; i < 20; i++) insertAsset(w, { owner: w.aliceId, repo: w.primary.repository_id, path: `trip/${i}.jpg`, lat: 52 + i / 100, lon: 4.9, taken: Date.UTC(2020, 5, 1 + i) });
  });
  after(() => w.srv.stop({ removeData: true }));

  test('prepares the answers of every member with files, and says so in the log', async () => {
    const c = w.srv.container;
    assert.equal(c.mapIndex.keeps(w.aliceId), false);
    const lines: { level: string; obj: Record<string, unknown> }[] = [];
    const log = { info: (obj: Record<string, unknown>) => lines.push({ level: 'info', obj }), warn: (obj: Record<string, unknown>) => lines.push({ level: 'warn', obj }) };
    await warmLibraryCaches({ ...w.srv.container, log } as unknown as Container);
    assert.deepEqual(lines.filter((l) => l.level === 'warn'), []);
    assert.equal(lines.find((l) => l.level === 'info')?.obj.members, 1, 'alice has files; bob has none');
    assert.equal(c.mapIndex.keeps(w.aliceId), true);
    assert.equal(c.ownerFacts.keeps(w.aliceId), true);
    assert.equal(c.folderTotals.keeps(w.primary.repository_id, w.aliceId), true);
    assert.equal(c.mapIndex.keeps(w.bobId), false);
  });

  test('stops when the server is closing', async () => {
    const c = w.srv.container;
    insertAsset(w, { owner: w.bobId, repo: w.primary.repository_id, path: 'bob/1.jpg', lat: 1, lon: 1 });
    const lines: unknown[] = [];
    const log = { info: (o: unknown) => lines.push(o), warn: (o: unknown) => lines.push(o) };
    await warmLibraryCaches({ ...w.srv.container, log } as unknown as Container, () => true);
    assert.equal(c.mapIndex.keeps(w.bobId), false);
    assert.deepEqual(lines, []);
  });
});
