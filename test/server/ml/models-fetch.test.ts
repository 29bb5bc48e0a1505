/**
 * The model downloader (adapters/ml/model-fetch.ts and `npm run models:fetch`) against a real HTTP
 * server on loopback serving copies of small files from ../shared/models: progress, verification and
 * atomic placement; a connection cut mid-file resumed with an HTTP Range request (in the same run and
 * in the next run); a wrong sha256 refused with nothing placed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ModelCatalog, ModelFileChecker, fetchModels, modelEntry, sha256File, type FetchProgress } from '../../../server/src/adapters/ml/index.ts';
import { CLS_FILE, CLS_MODEL, SHARED_MODELS, tempModelsDir } from './models.ts';
import { copies, serveModels } from './model-server.ts';
import { tempDataDir } from '../helpers/server.ts';
import { makeClipStandin } from '../../../scripts/models/make-clip-standin.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const YUNET_FILE = modelEntry('yunet-n')!.files[0]!.path;
const YUNET_S_FILE = modelEntry('yunet-s')!.files[0]!.path;

const catalogOf = (dir: string) => new ModelCatalog(dir, new ModelFileChecker(null), () => null);
const exists = (p: string) => fs.existsSync(p);

describe('models:fetch', () => {
  test('downloads the missing files with progress, verifies them and places them; a second run downloads nothing', async () => {
    const dir = tempModelsDir();
    const srv = await serveModels(copies([CLS_FILE, YUNET_FILE]));
    try {
      const events: FetchProgress[] = [];
      const result = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL, 'yunet-n'], baseUrl: srv.url, onProgress: (p) => events.push(p) });
      assert.deepEqual(result.failed, []);
      assert.deepEqual(result.fetched.sort(), [CLS_FILE, YUNET_FILE].sort());
      for (const rel of [CLS_FILE, YUNET_FILE]) {
        const file = path.join(dir, rel);
        assert.equal(await sha256File(file), await sha256File(path.join(SHARED_MODELS, rel)));
        assert.ok(!exists(`${file}.part`), 'no part left behind');
      }
      const cls = events.filter((e) => e.path === CLS_FILE);
      assert.deepEqual([cls[0]!.phase, cls.at(-2)!.phase, cls.at(-1)!.phase], ['start', 'verify', 'done']);
      const data = cls.filter((e) => e.phase === 'data').map((e) => e.received);
      assert.ok(data.length > 1 && data.every((n, i) => i === 0 || n > data[i - 1]!), 'progress grows');
      assert.equal(data.at(-1), 578966);
      assert.equal((await catalogOf(dir).status(CLS_MODEL)).state, 'ready');

      const before = srv.requests.length;
      const again = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL, 'yunet-n'], baseUrl: srv.url });
      assert.deepEqual([again.fetched, again.present.length], [[], 2]);
      assert.equal(srv.requests.length, before, 'nothing requested for installed files');
    } finally {
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a connection cut mid-file is resumed with a Range request from what arrived', async () => {
    const dir = tempModelsDir();
    const url = `models/${CLS_FILE}`;
    const srv = await serveModels(copies([CLS_FILE]), { cut: new Set([url]) });
    try {
      const events: FetchProgress[] = [];
      const result = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL], baseUrl: srv.url, retryDelayMs: 10, onProgress: (p) => events.push(p) });
      assert.deepEqual(result.failed, []);
      assert.deepEqual(result.fetched, [CLS_FILE]);
      const asked = srv.requests.filter((r) => r.path === url);
      assert.equal(asked.length, 2);
      assert.equal(asked[0]!.range, null);
      const from = Number(/^bytes=(\d+)-$/.exec(asked[1]!.range ?? '')?.[1]);
      assert.ok(from > 0 && from < 578966, `resumed from the middle, not from 0: ${asked[1]!.range}`);
      assert.ok(events.some((e) => e.phase === 'retry'));
      assert.equal(events.find((e, i) => e.phase === 'start' && i > 0)?.received, from, 'the second request started at the part size');
      assert.equal(await sha256File(path.join(dir, CLS_FILE)), (modelEntry(CLS_MODEL)!.files[0]!).sha256);
    } finally {
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a stalled connection is cut after the idle timeout and resumed; a server that ignores ranges starts the part over', async () => {
    const dir = tempModelsDir();
    const url = `models/${CLS_FILE}`;
    const stalled = await serveModels(copies([CLS_FILE]), { cut: new Set([url]), stall: true });
    const noRanges = await serveModels(copies([YUNET_FILE]), { cut: new Set([`models/${YUNET_FILE}`]), ignoreRange: true });
    try {
      const events: FetchProgress[] = [];
      const a = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL], baseUrl: stalled.url, idleTimeoutMs: 300, retryDelayMs: 10, onProgress: (p) => events.push(p) });
      assert.deepEqual(a.failed, []);
      assert.match(events.find((e) => e.phase === 'retry')?.message ?? '', /no data for 0\.3 s; resuming/);
      assert.match(stalled.requests.at(-1)!.range ?? '', /^bytes=[1-9]\d*-$/);
      assert.equal((await catalogOf(dir).status(CLS_MODEL)).state, 'ready');

      const b = await fetchModels(catalogOf(dir), { ids: ['yunet-n'], baseUrl: noRanges.url, retryDelayMs: 10 });
      assert.deepEqual(b.failed, []);
      assert.match(noRanges.requests.at(-1)!.range ?? '', /^bytes=/, 'a range was asked for and answered with the whole file');
      assert.equal((await catalogOf(dir).status('yunet-n')).state, 'ready', 'the part started over, not appended to');
    } finally {
      await stalled.close();
      await noRanges.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the stand-in CLIP, made by its script and served on loopback, is fetched with a cut connection resumed, verified and placed', async () => {
    const made = tempModelsDir();
    const dir = tempModelsDir();
    const ids = ['clip-standin-vision', 'clip-standin-text'];
    const vocab = path.join(SHARED_MODELS, modelEntry('clip-tokenizer')!.files[0]!.path);
    const written = await makeClipStandin(made, vocab);
    const files = new Map(written.map((w) => [`models/${w.path}`, fs.readFileSync(path.join(made, w.path))]));
    const text = `models/${modelEntry('clip-standin-text')!.files[0]!.path}`;
    const srv = await serveModels(files, { cut: new Set([text]) });
    try {
      const result = await fetchModels(catalogOf(dir), { ids, baseUrl: srv.url, retryDelayMs: 10 });
      assert.deepEqual(result.failed, []);
      assert.deepEqual(result.fetched.sort(), written.map((w) => w.path).sort());
      const asked = srv.requests.filter((r) => r.path === text);
      assert.equal(asked.length, 2);
      const from = Number(/^bytes=(\d+)-$/.exec(asked[1]!.range ?? '')?.[1]);
      assert.ok(from > 0 && from < modelEntry('clip-standin-text')!.files[0]!.bytes, `resumed from the middle: ${asked[1]!.range}`);
      for (const id of ids) assert.equal((await catalogOf(dir).status(id)).state, 'ready', id);
    } finally {
      await srv.close();
      fs.rmSync(made, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an interrupted run leaves its part (reported downloading), and the next run continues it', async () => {
    const dir = tempModelsDir();
    const url = `models/${CLS_FILE}`;
    const srv = await serveModels(copies([CLS_FILE]), { cut: new Set([url]) });
    try {
      const first = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL], baseUrl: srv.url, attempts: 1 });
      assert.equal(first.failed.length, 1);
      const part = path.join(dir, `${CLS_FILE}.part`);
      const partial = fs.statSync(part).size;
      assert.ok(partial > 0 && partial < 578966);
      assert.ok(!exists(path.join(dir, CLS_FILE)), 'nothing placed');
      const status = await catalogOf(dir).status(CLS_MODEL);
      assert.equal(status.state, 'downloading');
      assert.equal(status.progress_percent, Math.floor((partial / 578966) * 100));

      const second = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL], baseUrl: srv.url, attempts: 1 });
      assert.deepEqual(second.failed, []);
      assert.equal(srv.requests.at(-1)!.range, `bytes=${partial}-`);
      assert.equal((await catalogOf(dir).status(CLS_MODEL)).state, 'ready');
      assert.ok(!exists(part));
    } finally {
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file with the wrong sha256 is refused: the download is deleted and nothing is placed', async () => {
    const dir = tempModelsDir();
    const files = copies([CLS_FILE]);
    const bytes = files.get(`models/${CLS_FILE}`)!;
    bytes[4000] = bytes[4000]! ^ 0xff;
    const srv = await serveModels(files);
    try {
      const result = await fetchModels(catalogOf(dir), { ids: [CLS_MODEL], baseUrl: srv.url });
      assert.deepEqual(result.fetched, []);
      assert.equal(result.failed.length, 1);
      assert.match(result.failed[0]!.error, /sha256 [0-9a-f]{64} does not match the registry's 491843a3.*deleted/);
      assert.ok(!exists(path.join(dir, CLS_FILE)));
      assert.ok(!exists(path.join(dir, `${CLS_FILE}.part`)));
      assert.equal((await catalogOf(dir).status(CLS_MODEL)).state, 'not_installed');
      // A missing file on the server fails that file, not the run.
      const missing = await fetchModels(catalogOf(dir), { ids: ['yunet-n'], baseUrl: srv.url });
      assert.match(missing.failed[0]!.error, /answered 404/);
    } finally {
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('npm run models:fetch: installs from HEARTH_MODELS_BASE_URL (exit 0), fails loudly on a wrong hash (exit 1)', async () => {
    const dir = tempModelsDir();
    const dataDir = tempDataDir();
    // The CLI's catalog finds the OCR files in the npm package, so it is run on models that are only downloaded.
    const good = await serveModels(copies([YUNET_S_FILE]));
    const badFiles = copies([YUNET_FILE]);
    const badBytes = badFiles.get(`models/${YUNET_FILE}`)!;
    badBytes[100] = badBytes[100]! ^ 0xff;
    const bad = await serveModels(badFiles);
    const run = async (base: string, models: string) => {
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/models-fetch.ts', '--models', models], {
          cwd: root,
          env: { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_MODELS_DIR: dir, HEARTH_MODELS_BASE_URL: base },
        });
        return { code: 0, stdout, stderr };
      } catch (e) {
        const x = e as { code: number; stdout: string; stderr: string };
        return { code: x.code, stdout: x.stdout, stderr: x.stderr };
      }
    };
    try {
      const ok = await run(good.url, 'yunet-s');
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /yunet_s_dynamic\.onnx: installed/);
      assert.match(ok.stdout, /1 downloaded, 0 already installed, 0 failed/);
      assert.equal((await catalogOf(dir).status('yunet-s')).state, 'ready');
      const bundled = await run(good.url, CLS_MODEL);
      assert.equal(bundled.code, 0, bundled.stderr);
      assert.match(bundled.stdout, /0 downloaded, 1 already installed, 0 failed/, 'the OCR package\'s copy counts as installed');

      const refused = await run(bad.url, 'yunet-n');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /yunet_n_dynamic\.onnx: FAILED: .*sha256 [0-9a-f]{64} does not match/);
      assert.ok(!exists(path.join(dir, YUNET_FILE)));

      const unknown = await run(good.url, 'no-such-model');
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /unknown model id/);
    } finally {
      await good.close();
      await bad.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
