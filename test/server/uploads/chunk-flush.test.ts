/**
 * Chunks are answered once written and flushed to disk behind the answer (features/uploads/chunk-sync.ts):
 * - the flushes catch up with the answers (no chunk stays unflushed), and the committed file is whole;
 * - after a stop in the same boot of the machine (a crash or kill of the server: the page cache
 *   survives) answered chunks still count;
 * - after the machine itself went down (another boot at the next start) chunks that were not flushed
 *   yet no longer count: resume asks for them again, and the file committed at the end is the
 *   client's, never one with a lost chunk's hole in it.
 * Real server, real SQLite file, real corpus photo, HTTP in both response variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { bootId } from '../../../server/src/features/uploads/chunk-sync.ts';
import { addMember, data, login, registerAdmin } from '../helpers/api.ts';
import { Client, startServer, type HttpResult, type TestServer } from '../helpers/server.ts';
import { U, copyCorpus, eventually, multipartBuffer, MULTIPART_TYPE, uploadFolderNow, type Part } from './helpers.ts';

const PHOTO = 'duplicates/IMG_20180725_163423.jpg'; // about 4 MB
const CHUNK = 512 * 1024;

interface Session {
  session_id: string;
  received_chunks: number[];
  bytes_received: number;
  status: string;
  receipt_id: string;
}

function unflushed(srv: TestServer, sessionId: string): number[] {
  const row = srv.container.db.prepare('SELECT unsynced_chunks FROM upload_sessions WHERE session_id = ?').get(sessionId) as { unsynced_chunks: string };
  return JSON.parse(row.unsynced_chunks) as number[];
}

for (const variant of ['A', 'B'] as const) {
  describe(`chunks flushed behind their answers (variant ${variant})`, { timeout: 300_000 }, () => {
    const src = copyCorpus([PHOTO]);
    let srv: TestServer;
    let bob: Client;
    after(async () => {
      await srv?.stop({ removeData: true });
      fs.rmSync(src.dir, { recursive: true, force: true });
    });

    const bytes = fs.readFileSync(src.file(PHOTO));
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));

    const openSession = async (body: object): Promise<Session> => {
      const r = await bob.req('POST', `${U}/sessions`, { json: { filename: 'holiday.jpg', total_size: bytes.length, total_chunks: chunks.length, chunk_size: CHUNK, ...body } });
      assert.ok(r.status === 200 || r.status === 201, r.text);
      return data(bob, r);
    };
    const send = async (sessionId: string, indexes: number[]): Promise<{ status: string; success: boolean; content_hash: string | null; size: number | null }[]> => {
      const parts = indexes.map((i): Part => ({ name: `chunk_${sessionId}_${i}_${chunks.length}`, filename: 'blob', data: chunks[i]! }));
      const r: HttpResult = await bob.req('POST', `${U}/batch`, { body: await multipartBuffer(parts), headers: { 'content-type': MULTIPART_TYPE } });
      assert.equal(r.status, 200, r.text);
      return data<{ results: { status: string; success: boolean; content_hash: string | null; size: number | null }[] }>(bob, r).results;
    };
    const restart = async () => {
      const dataDir = srv.dataDir;
      await srv.stop();
      srv = await startServer({ dataDir, env: { HEARTH_API_VARIANT: variant } });
      bob = new Client(srv.url, variant);
      await login(bob, 'bob');
    };

    test('answered chunks are flushed behind the answers; a new boot asks again for what was not flushed', async () => {
      assert.ok(bootId(), 'this machine tells its boot (Linux): chunks are flushed behind their answers');
      assert.ok(chunks.length >= 6, `${chunks.length} chunks`);
      srv = await startServer({ env: { HEARTH_API_VARIANT: variant } });
      const alice = new Client(srv.url, variant);
      await registerAdmin(alice);
      bob = new Client(srv.url, variant);
      await addMember(alice, bob, 'bob');
      const repoPath = srv.container.repositories.primary()!.path;
      const hash = await hashFile(src.file(PHOTO));

      const s = await openSession({ client_hash: hash });
      const firstHalf = [0, 1, 2, 3, 4];
      for (const r of await send(s.session_id, firstHalf)) assert.deepEqual([r.success, r.status], [true, 'uploading']);
      // The flushes run behind the answers and catch up with them.
      await eventually(() => unflushed(srv, s.session_id).length === 0, 30_000, 'the chunks to be flushed');

      // A stop of the server in this boot (a crash or a kill: the page cache is the kernel's): chunks
      // answered and not flushed yet still count.
      srv.container.db.prepare('UPDATE upload_sessions SET unsynced_chunks = ?, written_boot_id = ? WHERE session_id = ?').run('[3,4]', bootId(), s.session_id);
      await restart();
      assert.deepEqual((await openSession({ session_id: s.session_id })).received_chunks, firstHalf, 'same boot: every answered chunk counts');

      // The machine went down (a power cut) before chunks 3 and 4 were flushed: their bytes may be
      // gone (a hole in the data file). At the next start, in another boot, they no longer count.
      srv.container.db.prepare('UPDATE upload_sessions SET unsynced_chunks = ?, written_boot_id = ? WHERE session_id = ?').run('[3,4]', 'an-earlier-boot', s.session_id);
      const dataFile = path.join(repoPath, '.hearth/staging/sessions', s.session_id, 'data');
      const fd = fs.openSync(dataFile, 'r+');
      fs.writeSync(fd, Buffer.alloc(2 * CHUNK), 0, 2 * CHUNK, 3 * CHUNK); // what a lost page cache leaves
      fs.closeSync(fd);
      await restart();
      const resumed = await openSession({ session_id: s.session_id });
      assert.deepEqual(resumed.received_chunks, [0, 1, 2], 'another boot: chunks not flushed are asked for again');
      assert.equal(resumed.bytes_received, 3 * CHUNK);
      assert.deepEqual(unflushed(srv, s.session_id), []);

      // The client sends what resume asked for: the committed file is the client's, byte for byte.
      const rest = chunks.map((_, i) => i).filter((i) => !resumed.received_chunks.includes(i));
      const results = await send(s.session_id, rest);
      const last = results.at(-1)!;
      assert.deepEqual([last.success, last.status, last.content_hash, last.size], [true, 'processing', hash, bytes.length]);
      assert.deepEqual(fs.readFileSync(path.join(repoPath, uploadFolderNow(), 'holiday.jpg')), bytes);
      assert.deepEqual(unflushed(srv, s.session_id), [], 'finishing flushed the whole file');
    });
  });
}
