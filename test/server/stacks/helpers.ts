/**
 * Helpers of the stacks and tags tests: put real files into the primary repository through the real
 * ingest path, make burst-like JPEGs from a corpus photo (real EXIF written with sharp), and wait
 * until processing and stack detection are done.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { TestServer } from '../helpers/server.ts';
import { CORPUS } from '../media/corpus.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Copies a file (a corpus path, or an absolute path) into the primary repository and indexes it. */
export async function indexInto(srv: TestServer, source: string, relPath: string, ownerId: number): Promise<string> {
  const repo = srv.container.repositories.primary()!;
  const from = path.isAbsolute(source) ? source : path.join(CORPUS, source);
  fs.mkdirSync(path.join(repo.path, path.dirname(relPath)), { recursive: true });
  fs.copyFileSync(from, path.join(repo.path, relPath));
  const r = await srv.container.ingest.indexFile({ repositoryId: repo.repository_id, relPath, ownerId, source: 'scan' });
  assert.equal(r.outcome, 'created', `${relPath}: ${JSON.stringify(r)}`);
  return (r as { asset_id: string }).asset_id;
}

/** Waits until every job is done, the stack detection queued at ingest included (it waits while photos process). */
export async function settle(srv: TestServer): Promise<void> {
  for (let i = 0; i < 600; i++) {
    await srv.container.jobRunner.whenIdle();
    const waiting = srv.container.db
      .prepare("SELECT count(*) FROM jobs WHERE kind = 'stacks.detect-stacks' AND state IN ('available', 'scheduled', 'running', 'retryable')")
      .pluck()
      .get() as number;
    if (waiting === 0) return;
    await sleep(250);
  }
  assert.fail('stack detection did not finish');
}

export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-stacks-'));

/**
 * A JPEG made from a corpus photo (brightness varied so every frame has its own content and hash)
 * with real EXIF: camera model and capture time with milliseconds; optionally an XMP burst id.
 */
export async function frame(
  dir: string,
  name: string,
  opts: { model: string | null; taken: Date | null; variant: number; burstId?: string; base?: string },
): Promise<string> {
  const out = path.join(dir, name);
  const ifd0: Record<string, string> = {};
  const ifd2: Record<string, string> = {};
  if (opts.model) Object.assign(ifd0, { Make: 'Canon', Model: opts.model });
  if (opts.taken) {
    const iso = opts.taken.toISOString();
    Object.assign(ifd2, {
      DateTimeOriginal: `${iso.slice(0, 10).replace(/-/g, ':')} ${iso.slice(11, 19)}`,
      SubSecTimeOriginal: iso.slice(20, 23),
      OffsetTimeOriginal: '+00:00',
    });
  }
  let img = sharp(path.join(CORPUS, opts.base ?? 'exif/orientation_landscape_1.jpg'))
    .modulate({ brightness: 0.8 + 0.03 * opts.variant })
    .withExif({ IFD0: ifd0, IFD2: ifd2 });
  if (opts.burstId) {
    img = img.withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
        `<rdf:Description rdf:about="" xmlns:apple="http://ns.apple.com/burst/1.0/" apple:BurstUUID="${opts.burstId}"/></rdf:RDF></x:xmpmeta>`,
    );
  }
  await img.jpeg({ quality: 80 }).toFile(out);
  return out;
}
