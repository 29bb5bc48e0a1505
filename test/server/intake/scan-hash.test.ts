/**
 * A folder scan hashes through the intake like an upload: with the native BLAKE3, on the intake's
 * worker (not hash-wasm on the main thread, as scans did before the intake), and to the same digest
 * the upload path computes for the same bytes. Real corpus files, a real repository folder, a real
 * scan job and a real upload over HTTP, in both response variants.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { data, V1 } from '../helpers/api.ts';
import type { HttpResult } from '../helpers/server.ts';
import { multipartBuffer, MULTIPART_TYPE } from '../uploads/helpers.ts';
import { assetAt, cleanupTemps, copyIn, corpusFile, createRepo, makeRepoFolder, scanNow, startEnv, waitForScan, type Env } from '../repositories/helpers.ts';

/** A photo and a video: different readers, the same hashing. */
const FILES = { 'trip/IMG_40D.jpg': 'exif/Canon_40D.jpg', 'trip/clip.avi': 'video/MVI_4823.AVI' } as const;

for (const variant of ['A', 'B'] as const) {
  describe(`intake: a folder scan hashes natively (variant ${variant})`, () => {
    let env: Env | undefined;
    after(async () => {
      await env?.ts.stop({ removeData: true });
      cleanupTemps();
    });

    test('files found by a scan are hashed by the native BLAKE3 on the worker, to the digest the upload path gives', async () => {
      env = await startEnv({ variant });
      const { dir, id } = makeRepoFolder();
      const repo = await createRepo(env, dir, `Scan ${variant}`);
      await waitForScan(env, repo.id);
      // Only the scan may see the files: the watcher would index them on its own.
      await env.ts.container.repositories.stopWatching(id!);
      for (const [rel, src] of Object.entries(FILES)) copyIn(dir, rel, src);

      const before = env.ts.container.intake.stats();
      const scan = await scanNow(env, repo.id);
      assert.equal(scan.status, 'completed', JSON.stringify(scan));
      assert.equal(scan.added, 2, JSON.stringify(scan));
      const afterScan = env.ts.container.intake.stats();

      const sizes = Object.keys(FILES).map((rel) => fs.statSync(path.join(dir, ...rel.split('/'))).size);
      const grew = (k: keyof typeof afterScan) => ({ files: afterScan[k].files - before[k].files, bytes: afterScan[k].bytes - before[k].bytes });
      assert.deepEqual(grew('native_worker'), { files: 2, bytes: sizes[0]! + sizes[1]! }, 'both files hashed by the native BLAKE3 on the worker');
      assert.deepEqual(grew('wasm_main'), { files: 0, bytes: 0 }, 'nothing hashed by hash-wasm on the main thread');
      assert.deepEqual(grew('wasm_worker'), { files: 0, bytes: 0 });
      assert.deepEqual(grew('native_main'), { files: 0, bytes: 0 }, 'the scan did not hash on the main thread');

      for (const [rel, src] of Object.entries(FILES)) {
        const row = assetAt(env.ts, repo.id, rel);
        assert.ok(row, `${rel} is catalogued`);
        // The reference digest (hash-wasm), and the digest of the same bytes uploaded by a member.
        assert.equal(row.hash, await hashFile(corpusFile(src)), `${rel}: the scan's hash is the file's BLAKE3`);
        const body = await multipartBuffer([{ name: 'file', filename: path.basename(rel), data: fs.readFileSync(corpusFile(src)) }]);
        const r: HttpResult = await env.member.req('POST', `${V1}/uploads/files`, { body, headers: { 'content-type': MULTIPART_TYPE } });
        assert.equal(r.status, 200, r.text);
        const uploaded: { status: string; content_hash: string } = data(env.member, r);
        assert.equal(uploaded.status, 'processing', JSON.stringify(uploaded));
        assert.equal(uploaded.content_hash, row.hash, `${rel}: the upload path gives the scan's digest`);
      }
      const afterUploads = env.ts.container.intake.stats();
      assert.equal(afterUploads.native_main.files - afterScan.native_main.files, 2, 'the uploads were hashed inline by the native BLAKE3 as they streamed');
    });
  });
}
