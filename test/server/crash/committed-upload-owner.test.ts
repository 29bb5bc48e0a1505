/**
 * A member's upload killed after its file was committed into `uploads/` and before the catalog
 * write (the crash point `upload.after-commit` kills the server there, with SIGKILL). The next start
 * must give the photo to the member who uploaded it, under the name they gave, and complete their
 * receipt; before the fix the start-up scan catalogued it for the repository's default owner (the
 * administrator), and the member's retry was answered "duplicate" with nothing of theirs.
 * Both upload paths: a single upload and a chunked session.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, startServer, tempDataDir } from '../helpers/server.ts';
import { V1, addMember, data, login, registerAdmin } from '../helpers/api.ts';
import { CORPUS, U, postMultipart } from '../uploads/helpers.ts';
import { startChild, until } from './child.ts';

const SINGLE = path.join(CORPUS, 'gps/DSCN0025.jpg');
const CHUNKED = path.join(CORPUS, 'duplicates/IMG_20180725_163423.jpg');
const CHUNK = 1024 * 1024;
const CRASH = { HEARTH_FAILPOINT: 'upload.after-commit' };

test('an upload committed but not catalogued when the server died is its uploader’s after the restart, and its receipt completes', { timeout: 300_000 }, async () => {
  const dataDir = tempDataDir('hearth-crash-commit-');
  try {
    // 1. A single upload: the server dies right after the commit.
    let child = await startChild(dataDir, CRASH);
    const alice = new Client(child.url);
    await registerAdmin(alice);
    const bob = new Client(child.url);
    await addMember(alice, bob, 'bob');
    const single = await postMultipart(child.url, `${U}/files`, bob.token, [{ name: 'file', filename: 'bob at the lake.jpg', data: fs.readFileSync(SINGLE) }]).catch((e: Error) => ({ status: 0, text: e.message }));
    assert.equal(single.status, 0, `the server died before answering: ${single.text}`);
    assert.equal(await child.exited, 'SIGKILL');
    const committed = fs.readdirSync(path.join(dataDir, 'storage/primary/uploads'), { recursive: true }).map(String).filter((f) => f.endsWith('.jpg'));
    assert.equal(committed.length, 1, 'the file was committed into uploads/ before the crash');

    // 2. A chunked session: the last chunk commits the file and the server dies.
    child = await startChild(dataDir, CRASH);
    const bobAgain = new Client(child.url);
    await login(bobAgain, 'bob');
    const bytes = fs.readFileSync(CHUNKED);
    const chunks = Math.ceil(bytes.length / CHUNK);
    const s = await bobAgain.post(`${U}/sessions`, { filename: 'bob chunked.jpg', total_size: bytes.length, total_chunks: chunks, chunk_size: CHUNK });
    assert.equal(s.status, 201, s.text);
    const sessionId = s.body.session_id as string;
    const sessionReceipt = s.body.receipt_id as string;
    const parts = Array.from({ length: chunks }, (_, i) => ({ name: `chunk_${sessionId}_${i}_${chunks}`, filename: 'blob', data: bytes.subarray(i * CHUNK, (i + 1) * CHUNK) }));
    const sent = await postMultipart(child.url, `${U}/batch`, bobAgain.token, parts).catch((e: Error) => ({ status: 0, text: e.message }));
    assert.equal(sent.status, 0, `the server died before answering: ${sent.text}`);
    assert.equal(await child.exited, 'SIGKILL');

    // 3. The next start, without the crash point.
    const srv = await startServer({ dataDir });
    try {
      const db = srv.container.db;
      const userId = (name: string) => db.prepare('SELECT user_id FROM users WHERE username = ?').pluck().get(name) as number;
      const expectations = [
        { hash: await hashFile(SINGLE), name: 'bob at the lake.jpg' },
        { hash: await hashFile(CHUNKED), name: 'bob chunked.jpg' },
      ];
      await until('both uploads catalogued and processed', () =>
        expectations.every((e) => db.prepare(`SELECT 1 FROM assets WHERE hash = ? AND state = 'ready'`).get(e.hash)),
      );
      const receiptIds: string[] = [];
      for (const e of expectations) {
        const rows = db.prepare('SELECT asset_id, owner_id, original_filename FROM assets WHERE hash = ?').all(e.hash) as { asset_id: string; owner_id: number; original_filename: string }[];
        assert.equal(rows.length, 1, `${e.name}: catalogued exactly once`);
        assert.equal(rows[0]!.owner_id, userId('bob'), `${e.name}: the uploader owns it, not the administrator`);
        assert.equal(rows[0]!.original_filename, e.name, 'under the name the member gave');
        const receipt = db.prepare(`SELECT receipt_id FROM upload_receipts WHERE file_name = ?`).pluck().get(e.name) as string;
        receiptIds.push(receipt);
      }
      assert.equal(receiptIds[1], sessionReceipt);
      assert.equal(db.prepare('SELECT count(*) FROM intake_commits').pluck().get(), 0, 'no commit left unsettled');

      for (const variant of ['A', 'B'] as const) {
        const c = new Client(srv.url, variant);
        await login(c, 'bob');
        const r = await c.get(`${V1}/uploads/receipts?receipt_ids=${receiptIds.join(',')}`);
        assert.equal(r.status, 200, r.text);
        const ops = data(c, r).operations as { receipt_id: string; status: string; asset_id: string | null }[];
        assert.deepEqual(ops.map((o) => o.status), ['completed', 'completed'], 'the receipts complete');
        for (const o of ops) {
          const a = await c.get(`${V1}/assets/${o.asset_id}`);
          assert.equal(a.status, 200, `the member can open their photo: ${a.text}`);
        }
        const progress = await c.get(`${U}/sessions?session_ids=${sessionId}`);
        assert.equal(data(c, progress).sessions[0].status, 'completed', 'the session is done, not waiting to be resumed into a second copy');
      }

      // The member's retry is told they already have it (their own asset), not someone else's duplicate.
      const bobNow = new Client(srv.url);
      await login(bobNow, 'bob');
      const retry = await postMultipart(srv.url, `${U}/files`, bobNow.token, [{ name: 'file', filename: 'bob at the lake.jpg', data: fs.readFileSync(SINGLE) }]);
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.status, 'duplicate');
      const own = db.prepare('SELECT asset_id FROM assets WHERE hash = ?').pluck().get(expectations[0]!.hash);
      assert.equal(retry.body.asset_id, own);
    } finally {
      await srv.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
