/**
 * The multipart boundary search that replaces busboy's streamsearch (boundary-search.ts): the same
 * callbacks as streamsearch for random bodies cut into random pieces (boundaries and near-misses
 * split across pieces, pieces shorter than the boundary), installed into busboy as it is pinned,
 * and whole forms parsed through it byte for byte.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import busboy from 'busboy';
import { BoundarySearch, installBoundarySearch } from '../../../server/src/features/uploads/boundary-search.ts';
import { parseMultipart } from '../../../server/src/features/uploads/multipart.ts';

const require = createRequire(import.meta.url);
type Cb = (isMatch: boolean, data: Buffer | undefined, start: number, end: number, isDataSafe: boolean) => void;
const StreamSearch = require('streamsearch') as new (needle: Buffer, cb: Cb) => { push(b: Buffer, pos?: number): number; destroy(): void };

/** A deterministic pseudo-random generator (the failures must be reproducible). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

function record(out: string[]): Cb {
  return (isMatch, data, start, end, safe) => out.push(`${isMatch ? 'M' : 'D'}:${data ? data.subarray(start, end).toString('hex') : '-'}:${safe}`);
}

/** A body with boundaries, partial boundaries and CR LF noise, from a small alphabet so near-misses are common. */
function body(rand: () => number, needle: Buffer, size: number, sparse: boolean): Buffer {
  const parts: Buffer[] = [];
  let n = 0;
  while (n < size) {
    const r = rand();
    let b: Buffer;
    if (r < 0.05) b = needle;
    else if (r < 0.15) b = needle.subarray(0, 1 + Math.floor(rand() * (needle.length - 1)));
    else if (r < 0.25) b = Buffer.from('\r\n-');
    else if (r < 0.35) b = Buffer.from('\r\n'.repeat(1 + Math.floor(rand() * 1500))); // line breaks only: the search's fallback
    else if (sparse) b = Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 4000) }, () => Math.floor(rand() * 256))); // media-like: line breaks are rare
    else b = Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 40) }, () => '\r\n-ab'.charCodeAt(Math.floor(rand() * 5)) || 0x62));
    parts.push(b);
    n += b.length;
  }
  return Buffer.concat(parts);
}

function pieces(rand: () => number, buf: Buffer, max: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; ) {
    const n = 1 + Math.floor(rand() * max);
    out.push(buf.subarray(i, i + n));
    i += n;
  }
  return out;
}

describe('multipart boundary search', () => {
  test('gives the same callbacks as streamsearch', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = rng(seed);
      const needle = Buffer.from(`\r\n--${'ab-'.repeat(1 + (seed % 5))}${seed % 3 ? 'b' : ''}`);
      const data = body(rand, needle, 200 + Math.floor(rand() * (seed % 2 ? 3000 : 60_000)), seed % 2 === 0);
      const split = pieces(rand, data, seed % 4 === 0 ? 3 : seed % 4 === 1 ? needle.length + 2 : 700);
      const want: string[] = [];
      const got: string[] = [];
      const a = new StreamSearch(needle, record(want));
      const b = new BoundarySearch(needle, record(got));
      for (const p of split) {
        a.push(p);
        b.push(p);
      }
      a.destroy();
      b.destroy();
      assert.deepEqual(got, want, `seed ${seed}`);
    }
  });

  test('is installed into busboy as pinned (an upgrade that changes its internals is noticed here)', () => {
    const bb = busboy({ headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
    assert.equal(installBoundarySearch(bb), true);
    assert.ok((bb as unknown as { _bparser: unknown })._bparser instanceof BoundarySearch);
    assert.equal(installBoundarySearch({}), false, 'anything else is left alone');
  });

  test('forms parse byte for byte through it, in pieces of any size', async () => {
    for (const [i, max] of [1, 7, 64, 4096, 70_000].entries()) {
      const rand = rng(1000 + i);
      const boundary = `----b${crypto.randomBytes(6).toString('hex')}`;
      const files = [crypto.randomBytes(150_000), Buffer.from(`x\r\n--${boundary.slice(0, 10)}y\r\n--`), crypto.randomBytes(1)];
      const form = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="repository_id"\r\n\r\nrepo-1\r\n`),
        ...files.flatMap((f, k) => [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f${k}"; filename="naïve ${k}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`), f, Buffer.from('\r\n')]),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      const got: { name: string; filename: string; data: Buffer }[] = [];
      const fields: string[] = [];
      await parseMultipart(Readable.from(pieces(rand, form, max)), { 'content-type': `multipart/form-data; boundary=${boundary}` }, { parts: 10, files: 10, fields: 10, fieldSize: 1000, fileSize: 1e9 }, {
        field: (name, value) => void fields.push(`${name}=${value}`),
        file: async (name, stream, info) => {
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          got.push({ name, filename: info.filename, data: Buffer.concat(chunks) });
        },
      });
      assert.deepEqual(fields, ['repository_id=repo-1'], `pieces of ${max}`);
      assert.deepEqual(got.map((g) => g.name), ['f0', 'f1', 'f2']);
      assert.deepEqual(got.map((g) => g.filename), ['naïve 0.bin', 'naïve 1.bin', 'naïve 2.bin']);
      for (const [k, f] of files.entries()) assert.ok(got[k]!.data.equals(f), `file ${k}, pieces of ${max}`);
    }
  });
});
