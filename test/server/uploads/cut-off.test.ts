/**
 * Upload bodies that never arrive whole, sent over raw sockets (node:net) exactly as the attack in
 * issue 10 did: a multipart file part header and 3,000 bytes, with a Content-Length for the whole
 * form, then silence (a stall), a hang-up (the client goes away) or the end of the body (a
 * Content-Length that stops before the closing boundary). On every upload path (single file, batch
 * file, batch chunk of a session), in both response variants:
 *
 * - the body ending early answers 400 `upload_incomplete`, a stall answers 408 `upload_stalled`
 *   after the idle timeout (and closes the connection), a hang-up frees what it held;
 * - nothing is left in staging, no receipt stays `uploading`, no slot stays taken;
 * - one member filling their share of the upload slots leaves the others uploading.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client, type TestServer } from '../helpers/server.ts';
import { V1 } from '../helpers/api.ts';
import { U, copyCorpus, eventually, postMultipart, stagingFiles, startUploadServer, stopUploadServer, uploadFile } from './helpers.ts';

const PHOTO = 'gps/DSCN0010.jpg';
const OTHER = 'gps/DSCN0012.jpg';
const THIRD = 'exif/Canon_40D.jpg';
const SENT = 3000; // file bytes the attacker sends before stopping
const BOUNDARY = 'hearth-cut-off-test';

type Variant = 'A' | 'B';
type How = 'stall' | 'hang-up' | 'end-early';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** The server closed the connection (after answering, or without an answer). */
  closed: boolean;
}

/** The form the client claims to send: one file part holding `file`, then the closing boundary. */
function form(field: string, fileName: string, file: Buffer): { prefix: Buffer; whole: Buffer } {
  const prefix = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: image/jpeg\r\n\r\n`);
  return { prefix, whole: Buffer.concat([prefix, file, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]) };
}

/**
 * Sends the part header and the first SENT bytes of `file` over a raw socket, then:
 * `stall`: nothing more (Content-Length of the whole form); `hang-up`: the same, and the socket is
 * destroyed when `hangUp()` is called; `end-early`: Content-Length stops right there, so the body
 * is complete for HTTP but the form has no closing boundary.
 */
function cutOffUpload(srv: TestServer, opts: { path: string; token: string; variant: Variant; field: string; file: Buffer; how: How }) {
  const { prefix, whole } = form(opts.field, 'cut-off.jpg', opts.file);
  const sent = Buffer.concat([prefix, opts.file.subarray(0, SENT)]);
  const contentLength = opts.how === 'end-early' ? sent.length : whole.length;
  const url = new URL(srv.url);
  const socket = net.connect(Number(url.port), url.hostname);
  const answer = new Promise<RawAnswer | null>((resolve, reject) => {
    let raw = Buffer.alloc(0);
    const parse = (): RawAnswer | null => {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const lines = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? -1);
      const bodyBytes = raw.subarray(end + 4);
      if (length < 0 || bodyBytes.length < length) return null;
      const text = bodyBytes.subarray(0, length).toString('utf8');
      return { status: Number(lines[0]!.split(' ')[1]), headers, body: /json/.test(headers['content-type'] ?? '') ? JSON.parse(text) : text, closed: false };
    };
    socket.on('data', (d: Buffer) => {
      raw = Buffer.concat([raw, d]);
      const a = parse();
      // A keep-alive answer is complete when its body is: wait a moment for a close that may follow.
      if (a && (a.headers.connection ?? '').toLowerCase() !== 'close') {
        socket.destroy();
        resolve(a);
      }
    });
    socket.on('close', () => {
      const a = parse();
      resolve(a ? { ...a, closed: true } : null);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
  });
  socket.write(
    `POST ${opts.path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${opts.token}\r\nX-Api-Variant: ${opts.variant}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${contentLength}\r\n\r\n`,
  );
  socket.write(sent);
  return { answer, hangUp: () => socket.destroy() };
}

/** The problem in a raw answer, checked for its variant's shape. */
function rawProblem(a: RawAnswer | null, variant: Variant, status: number, code: string) {
  assert.ok(a, 'the server answered');
  assert.equal(a.status, status, JSON.stringify(a.body));
  let p = a.body;
  if (variant === 'A') {
    assert.match(a.headers['content-type'] ?? '', /^application\/problem\+json/);
  } else {
    assert.deepEqual(Object.keys(a.body).sort(), ['code', 'data', 'error', 'message']);
    assert.equal(a.body.code, status);
    assert.ok(a.body.error);
    p = a.body.data;
  }
  assert.equal(p.status, status);
  assert.equal(p.code, code);
  assert.equal(typeof p.detail, 'string');
  return p;
}

/** Staging files that are not a live session's data file. */
function strayStaging(repoPath: string): string[] {
  return stagingFiles(repoPath).filter((f) => !/^sessions\/[^/]+\/data$/.test(f));
}

/** Receipts still `uploading` that no live chunk session stands behind. */
function receiptsLeftUploading(srv: TestServer): number {
  const sql = `SELECT count(*) AS n FROM upload_receipts r WHERE r.status = 'uploading'
                 AND NOT EXISTS (SELECT 1 FROM upload_sessions s WHERE s.receipt_id = r.receipt_id AND s.status IN ('pending', 'uploading'))`;
  return (srv.container.db.prepare(sql).get() as { n: number }).n;
}

async function freeOfLeftovers(srv: TestServer, repoPath: string): Promise<void> {
  await eventually(() => srv.container.uploads.slotsInUse().total === 0 && strayStaging(repoPath).length === 0, 20_000, 'slots and staging to be free');
  assert.equal(receiptsLeftUploading(srv), 0, 'no receipt stays uploading');
}

/** A chunk session of bob's for `file` in two chunks; returns the first chunk's field name. */
async function chunkSession(bob: Client, file: Buffer): Promise<{ id: string; field: string; chunks: Buffer[] }> {
  const half = Math.ceil(file.length / 2);
  const r = await bob.post(`${V1}/uploads/sessions`, { filename: 'chunked.jpg', total_size: file.length, total_chunks: 2 });
  assert.equal(r.status, 201, r.text);
  const id = bob.variant === 'B' ? r.body.data.session_id : r.body.session_id;
  return { id, field: `chunk_${id}_0_2`, chunks: [file.subarray(0, half), file.subarray(half)] };
}

const PATHS = ['single', 'batch file', 'batch chunk'] as const;

describe('upload bodies cut off mid-way', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let repoPath: string;
  let src: ReturnType<typeof copyCorpus>;
  let photo: Buffer;

  before(async () => {
    process.env.HEARTH_UPLOAD_IDLE_TIMEOUT_S = '1';
    try {
      ({ src, srv, alice, bob, repoPath } = await startUploadServer([PHOTO, OTHER, THIRD]));
    } finally {
      delete process.env.HEARTH_UPLOAD_IDLE_TIMEOUT_S;
    }
    photo = fs.readFileSync(src.file(PHOTO));
  });
  after(() => stopUploadServer(srv, src));

  /** Where a cut-off part goes on each path (a chunk session is made for the chunk path). */
  async function target(kind: (typeof PATHS)[number]) {
    if (kind === 'single') return { path: `${U}/files`, field: 'file', session: null };
    if (kind === 'batch file') return { path: `${U}/batch`, field: 'single_cut-off', session: null };
    const session = await chunkSession(bob, photo);
    return { path: `${U}/batch`, field: session.field, session };
  }

  /** The chunk session still takes its chunks whole after the cut-off, and completes. */
  async function sessionStillCompletes(session: Awaited<ReturnType<typeof chunkSession>>) {
    const r = await postMultipart(srv, `${U}/batch`, bob.token, session.chunks.map((data, i) => ({ name: `chunk_${session.id}_${i}_2`, filename: 'blob', data })));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.results.map((x: { success: boolean }) => x.success), [true, true], r.text);
    assert.ok(['processing', 'duplicate'].includes(r.body.results[1].status), r.text);
  }

  for (const variant of ['A', 'B'] as const) {
    test(`a body that ends before its closing boundary answers 400 upload_incomplete on every path and keeps nothing (variant ${variant})`, async () => {
      for (const kind of PATHS) {
        const t = await target(kind);
        const { answer } = cutOffUpload(srv, { path: t.path, token: bob.token!, variant, field: t.field, file: photo, how: 'end-early' });
        // A batch reports a part that failed in its results only when the form could go on; a
        // form without its closing boundary cannot, so the request itself is incomplete.
        rawProblem(await answer, variant, 400, 'upload_incomplete');
        await freeOfLeftovers(srv, repoPath);
        if (t.session) await sessionStillCompletes(t.session);
      }
      await freeOfLeftovers(srv, repoPath);
    });

    test(`a body that stalls is answered 408 upload_stalled after the idle timeout and keeps nothing (variant ${variant})`, async () => {
      for (const kind of PATHS) {
        const t = await target(kind);
        const { answer } = cutOffUpload(srv, { path: t.path, token: bob.token!, variant, field: t.field, file: photo, how: 'stall' });
        const a = await answer;
        const p = rawProblem(a, variant, 408, 'upload_stalled');
        assert.equal(p.retryable, true);
        assert.equal(a!.closed, true, 'the connection of a stalled upload is closed after the answer');
        await freeOfLeftovers(srv, repoPath);
        if (t.session) await sessionStillCompletes(t.session);
      }
    });
  }

  test('a client that hangs up mid-body frees its slot and its staging file on every path', async () => {
    for (const kind of PATHS) {
      const t = await target(kind);
      const before = new Set(strayStaging(repoPath));
      const { answer, hangUp } = cutOffUpload(srv, { path: t.path, token: bob.token!, variant: 'A', field: t.field, file: photo, how: 'hang-up' });
      // The server is receiving the part: its staging file exists.
      await eventually(() => strayStaging(repoPath).some((f) => !before.has(f)), 20_000, `the ${kind} part to be staged`);
      hangUp();
      assert.equal(await answer, null, 'nobody is left to answer');
      await freeOfLeftovers(srv, repoPath);
      if (t.session) await sessionStillCompletes(t.session);
    }
    // Another member's upload goes through.
    const ok = await uploadFile(srv, alice.token!, src.file(OTHER));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.status, 'processing');
    await freeOfLeftovers(srv, repoPath);
  });
});

describe('one member cannot take every upload slot', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let repoPath: string;
  let src: ReturnType<typeof copyCorpus>;

  before(async () => void ({ src, srv, alice, bob, repoPath } = await startUploadServer([PHOTO, OTHER, THIRD])));
  after(() => stopUploadServer(srv, src));

  test('32 stalled uploads by one member: the others still upload; when they hang up, every slot and staging file is freed', async () => {
    const photo = fs.readFileSync(src.file(PHOTO));
    const attacks = Array.from({ length: 32 }, (_, i) =>
      cutOffUpload(srv, { path: `${U}/files`, token: bob.token!, variant: i % 2 ? 'B' : 'A', field: 'file', file: photo, how: 'hang-up' }),
    );
    // Every request is either admitted (it stalls, receiving into a staging file) or refused.
    const answered: { a: RawAnswer | null; variant: Variant }[] = [];
    attacks.forEach((x, i) => void x.answer.then((a) => answered.push({ a, variant: i % 2 ? 'B' : 'A' })));
    await eventually(() => stagingFiles(repoPath).length + answered.length === 32, 30_000, 'all 32 requests to be admitted or refused');
    const admitted = stagingFiles(repoPath).length;

    // Alice uploads while bob's requests stall: he could not take every slot.
    const byAlice = await uploadFile(srv, alice.token!, src.file(OTHER));
    assert.equal(byAlice.status, 200, byAlice.text);
    assert.equal(byAlice.body.status, 'processing');

    // Bob got his share (a quarter of the default 32); the rest were refused at once, in both variants.
    const limits = srv.container.uploads.limits;
    assert.equal(limits.maxInFlight, 32, 'the default server-wide cap');
    assert.equal(admitted, limits.maxInFlightPerUser);
    assert.ok(admitted < limits.maxInFlight);
    assert.equal(answered.length, 32 - admitted);
    for (const { a, variant } of answered) rawProblem(a, variant, 503, 'uploads_busy');

    // Bob cannot take more than his share.
    const more = await uploadFile(srv, bob.token!, src.file(THIRD));
    assert.equal(more.status, 503, more.text);
    assert.equal(more.body.code, 'uploads_busy');

    for (const a of attacks) a.hangUp();
    await eventually(() => stagingFiles(repoPath).length === 0, 20_000, 'bob’s staging files to be removed');
    await eventually(() => srv.container.uploads.slotsInUse().total === 0, 20_000, 'bob’s slots to be freed');
    assert.equal(receiptsLeftUploading(srv), 0);
    const again = await uploadFile(srv, bob.token!, src.file(THIRD));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.status, 'processing');
    assert.deepEqual(stagingFiles(repoPath), []);
  });
});
