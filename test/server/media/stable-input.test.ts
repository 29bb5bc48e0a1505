/**
 * A photo cut short while it is being decoded must not take the server down. libvips maps a file
 * it is given by path; when the file shrinks under it (truncate, then write: what copy tools, sync
 * clients and editors do when saving over a photo), the next page it touches raises SIGBUS and the
 * process dies. Decoders get the file's bytes instead (adapters/media/stable-input.ts); this runs
 * the real thumbnail decode of a large JPEG in a child process while the file is truncated under it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';

const ROOT = path.resolve(import.meta.dirname, '../../..');
let dir = '';

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-truncate-'));
  // A large JPEG of noise (about 30 MB), so that decoding takes long enough to be cut short.
  const w = 6000;
  const h = 6000;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.imul(i, 2654435761) >>> 24) & 0xff;
  await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 95 }).toFile(path.join(dir, 'big.jpg'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('decoding a photo that is cut short meanwhile fails or succeeds, and the process lives', { timeout: 120_000 }, () => {
  const child = spawnSync(
    path.join(ROOT, 'node_modules/.bin/node'),
    ['--import', 'tsx', path.join(ROOT, 'test/server/media/fixtures/decode-while-truncated.ts'), path.join(dir, 'big.jpg'), path.join(dir, 'photo.jpg')],
    { cwd: ROOT, encoding: 'utf8', timeout: 110_000 },
  );
  assert.equal(child.signal, null, `the decoding process was killed by ${child.signal}; output: ${child.stdout}${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  const rounds = child.stdout.split('\n').filter((l) => l.startsWith('round '));
  assert.equal(rounds.length, 6);
  for (const r of rounds) assert.match(r, /^round \d: (decoded \d+ bytes|refused: .+)$/);
  assert.match(child.stdout, /\ndone\n/);
});
