/**
 * Duplicates are per owner, and a re-upload brings a file back from its owner's Trash. On every
 * upload path (single file, batch file, chunked session), in both response variants:
 *
 * - a member uploading bytes that only another member has gets an asset of their own, and the
 *   answer says nothing of the other member's file; the bytes are stored once on disk, and one
 *   member deleting their asset (or its file) leaves the other's bytes intact;
 * - a member re-uploading a file whose asset is in their Trash gets that asset back (restored),
 *   not a second copy named `name (1).ext`; when its file is gone, the upload puts it back;
 * - a folder scan still catalogues a file it finds for the repository's default owner.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashFile } from '../../../server/src/adapters/media/hash.ts';
import { Client, type TestServer } from '../helpers/server.ts';
import { V1, data } from '../helpers/api.ts';
import { U, copyCorpus, eventually, filesWithHash, postMultipart, repoMediaFiles, stagingFiles, startUploadServer, stopUploadServer, type Answer } from './helpers.ts';

// Distinct photos: one per path, variant and case, so every case starts from bytes nobody has.
const SHARED = {
  A: { single: 'gps/DSCN0010.jpg', batch: 'gps/DSCN0012.jpg', chunked: 'gps/DSCN0021.jpg' },
  B: { single: 'gps/DSCN0025.jpg', batch: 'gps/DSCN0027.jpg', chunked: 'gps/DSCN0029.jpg' },
} as const;
const TRASHED = {
  A: { single: 'exif/Canon_40D.jpg', batch: 'exif/Nikon_D70.jpg', chunked: 'exif/Pentax_K10D.jpg' },
  B: { single: 'exif/Olympus_E-P3.jpg', batch: 'exif/Sony_DSLR-A200.jpg', chunked: 'exif/Canon_PowerShot_G9.jpg' },
} as const;
const MISSING = 'gps/big_ben.jpg';
const ALICE_GONE = 'gps/thompson-springs.jpg';
const BOB_OTHER = 'gps/Canon_600D_gps.jpg';
const SCANNED = 'gps/sydney_opera_house.jpg';
const KINDS = ['single', 'batch', 'chunked'] as const;
type Kind = (typeof KINDS)[number];

/** What one upload became, the same shape on every path (UploadResult or the last BatchResult). */
interface Outcome {
  status: string;
  asset_id: string | null;
  restored_from_trash: boolean;
  message: string;
  receipt_id: string;
  /** The whole answer as sent, to check it names nothing of another member's. */
  text: string;
}

function unwrap(client: Client, a: Answer) {
  assert.equal(a.status, 200, a.text);
  if (client.variant === 'A') return a.body;
  assert.deepEqual(Object.keys(a.body).sort(), ['code', 'data', 'error', 'message']);
  assert.equal(a.body.code, 0);
  return a.body.data;
}

/** Uploads `bytes` as `name` on the given path, as `client`. */
async function upload(srv: TestServer, client: Client, kind: Kind, bytes: Buffer, name: string): Promise<Outcome> {
  const headers = { 'x-api-variant': client.variant };
  if (kind === 'single') {
    const a = await postMultipart(srv, `${U}/files`, client.token, [{ name: 'file', filename: name, data: bytes }], { headers });
    return { ...unwrap(client, a), text: a.text };
  }
  if (kind === 'batch') {
    const a = await postMultipart(srv, `${U}/batch`, client.token, [{ name: 'single_f1', filename: name, data: bytes }], { headers });
    const r = unwrap(client, a).results[0];
    assert.equal(r.success, true, a.text);
    return { ...r, text: a.text };
  }
  const half = Math.ceil(bytes.length / 2);
  const created = await client.post(`${V1}/uploads/sessions`, { filename: name, total_size: bytes.length, total_chunks: 2, chunk_size: half });
  assert.equal(created.status, 201, created.text);
  const id = data(client, created).session_id;
  const a = await postMultipart(srv, `${U}/batch`, client.token, [0, 1].map((i) => ({ name: `chunk_${id}_${i}_2`, filename: 'blob', data: bytes.subarray(i * half, (i + 1) * half) })), { headers });
  const results = unwrap(client, a).results;
  assert.deepEqual(results.map((r: { success: boolean }) => r.success), [true, true], a.text);
  return { ...results[1], text: a.text };
}

async function asset(client: Client, id: string) {
  const r = await client.get(`${V1}/assets/${id}?include_thumbnails=false`);
  assert.equal(r.status, 200, r.text);
  return data(client, r);
}

/** Whether this folder's file system clones files (copy-on-write): then a shared copy has its own inode. */
function clonesFiles(dir: string): boolean {
  const a = path.join(dir, `.clone-probe-${process.pid}`);
  fs.writeFileSync(a, 'x');
  try {
    fs.copyFileSync(a, `${a}.2`, fs.constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(a, { force: true });
    fs.rmSync(`${a}.2`, { force: true });
  }
}

describe('duplicates are per owner; a re-upload restores from the Trash', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let alice: Client;
  let bob: Client;
  let repoPath: string;
  let src: ReturnType<typeof copyCorpus>;
  /** Alice and bob, signed in, speaking the given variant. */
  const clientsFor = (variant: 'A' | 'B') =>
    [alice, bob].map((c) => {
      const v = new Client(srv.url, variant);
      v.token = c.token;
      return v;
    }) as [Client, Client];

  before(async () => {
    const all = [...Object.values(SHARED.A), ...Object.values(SHARED.B), ...Object.values(TRASHED.A), ...Object.values(TRASHED.B), MISSING, SCANNED, ALICE_GONE, BOB_OTHER];
    ({ src, srv, alice, bob, repoPath } = await startUploadServer(all));
  });
  after(() => stopUploadServer(srv, src));

  for (const variant of ['A', 'B'] as const) {
    test(`bytes another member has become an asset of the uploader's own, stored once, on every path (variant ${variant})`, async () => {
      const [a, b] = clientsFor(variant);
      const sharedDisk = !clonesFiles(repoPath);
      for (const kind of KINDS) {
        const file = src.file(SHARED[variant][kind]);
        const bytes = fs.readFileSync(file);
        const hash = await hashFile(file);
        const byAlice = await upload(srv, a, kind, bytes, `alice-${kind}.jpg`);
        assert.equal(byAlice.status, 'processing', byAlice.text);

        const byBob = await upload(srv, b, kind, bytes, `bob-${kind}.jpg`);
        assert.equal(byBob.status, 'processing', `${kind}: ${byBob.text}`);
        assert.ok(byBob.asset_id, `${kind}: bob gets an asset`);
        assert.notEqual(byBob.asset_id, byAlice.asset_id);
        assert.equal(byBob.restored_from_trash, false);
        assert.ok(!byBob.text.includes(byAlice.asset_id!), 'the answer never names the other member’s asset');
        assert.ok(!/alice-|another member|repository already/i.test(byBob.text), `the answer never hints at the other member’s file: ${byBob.text}`);

        const mine = await asset(b, byBob.asset_id!);
        assert.equal(mine.original_filename, `bob-${kind}.jpg`);
        assert.equal(mine.hash, hash);
        assert.equal((await b.get(`${V1}/assets/${byAlice.asset_id}`)).status, 404, 'alice’s asset stays hers');
        const receipt = data(b, await b.get(`${V1}/uploads/receipts?receipt_ids=${byBob.receipt_id}`)).operations[0];
        assert.ok(['processing', 'completed'].includes(receipt.status), JSON.stringify(receipt));
        assert.equal(receipt.asset_id, byBob.asset_id);

        // Two names, one stored copy (a hard link; or a clone where the file system makes them).
        const paths = await filesWithHash(repoPath, hash);
        assert.equal(paths.length, 2, `one name per member: ${paths.join(', ')}`);
        const [s1, s2] = paths.map((p) => fs.statSync(path.join(repoPath, p)));
        if (sharedDisk) assert.equal(s1!.ino, s2!.ino, 'stored once on disk');
        assert.deepEqual(stagingFiles(repoPath).filter((f) => !f.startsWith('sessions/')), []);

        // Bob's second upload is his own duplicate; alice's too.
        const again = await upload(srv, b, kind, bytes, `bob-again-${kind}.jpg`);
        assert.deepEqual([again.status, again.asset_id, again.restored_from_trash], ['duplicate', byBob.asset_id, false], again.text);
        const aliceAgain = await upload(srv, a, kind, bytes, `alice-again-${kind}.jpg`);
        assert.deepEqual([aliceAgain.status, aliceAgain.asset_id], ['duplicate', byAlice.asset_id], aliceAgain.text);
        assert.equal((await filesWithHash(repoPath, hash)).length, 2);

        // Alice deleting her asset, then even its file, leaves bob's bytes and asset as they were.
        assert.equal((await a.req('DELETE', `${V1}/assets/${byAlice.asset_id}`)).status, 200);
        fs.rmSync(path.join(repoPath, paths.find((p) => p.includes('alice-'))!));
        const bobsFile = path.join(repoPath, paths.find((p) => p.includes('bob-'))!);
        assert.equal(await hashFile(bobsFile), hash, 'bob’s bytes are intact');
        assert.equal((await asset(b, byBob.asset_id!)).is_deleted, false);
      }
    });

    test(`re-uploading a file whose asset is in the uploader's Trash restores it instead of storing a copy, on every path (variant ${variant})`, async () => {
      const [a, b] = clientsFor(variant);
      for (const kind of KINDS) {
        const file = src.file(TRASHED[variant][kind]);
        const bytes = fs.readFileSync(file);
        const hash = await hashFile(file);
        const first = await upload(srv, b, kind, bytes, `trashed-${variant}-${kind}.jpg`);
        assert.equal(first.status, 'processing', first.text);
        assert.equal((await b.req('DELETE', `${V1}/assets/${first.asset_id}`)).status, 200);
        assert.equal((await asset(b, first.asset_id!)).is_deleted, true);

        const again = await upload(srv, b, kind, bytes, `trashed-${variant}-${kind}.jpg`);
        assert.equal(again.status, 'duplicate', again.text);
        assert.equal(again.asset_id, first.asset_id, 'the trashed asset is offered back');
        assert.equal(again.restored_from_trash, true);
        assert.match(again.message, /Trash/);
        assert.equal((await asset(b, first.asset_id!)).is_deleted, false, 'restored');
        const paths = await filesWithHash(repoPath, hash);
        assert.equal(paths.length, 1, `not stored twice: ${paths.join(', ')}`);
        assert.ok(!repoMediaFiles(repoPath).some((f) => f.includes(`trashed-${variant}-${kind} (1)`)), 'no "name (1).ext"');
        const receipt = data(b, await b.get(`${V1}/uploads/receipts?receipt_ids=${again.receipt_id}`)).operations[0];
        assert.deepEqual([receipt.status, receipt.asset_id, receipt.terminal, receipt.success], ['duplicate', first.asset_id, true, true]);

        // Another member's Trash is not the uploader's: alice gets her own asset, bob's stays his.
        const byAlice = await upload(srv, a, kind, bytes, `alice-trashed-${kind}.jpg`);
        assert.equal(byAlice.status, 'processing', byAlice.text);
        assert.notEqual(byAlice.asset_id, first.asset_id);
      }
    });
  }

  test('a re-upload of a trashed asset whose file is gone puts the file back into that asset', async () => {
    const file = src.file(MISSING);
    const bytes = fs.readFileSync(file);
    const hash = await hashFile(file);
    const first = await upload(srv, bob, 'single', bytes, 'gone.jpg');
    assert.equal(first.status, 'processing', first.text);
    await srv.container.jobRunner.whenIdle();
    assert.equal((await bob.req('DELETE', `${V1}/assets/${first.asset_id}`)).status, 200);
    const [stored] = await filesWithHash(repoPath, hash);
    fs.rmSync(path.join(repoPath, stored!));
    assert.equal((await filesWithHash(repoPath, hash)).length, 0);

    const again = await upload(srv, bob, 'single', bytes, 'gone.jpg');
    assert.equal(again.asset_id, first.asset_id, again.text);
    const back = await asset(bob, first.asset_id!);
    assert.equal(back.is_deleted, false, 'out of the Trash: the member asked for the file');
    assert.deepEqual(await filesWithHash(repoPath, hash), [stored], 'back at its path');
    const row = srv.container.db.prepare('SELECT storage_path FROM assets WHERE asset_id = ?').get(first.asset_id) as { storage_path: string };
    assert.equal(row.storage_path, stored);
  });

  test("an upload never lands in another member's asset whose file went missing (same name, or same bytes)", async () => {
    const aliceBytes = fs.readFileSync(src.file(ALICE_GONE));
    const hash = await hashFile(src.file(ALICE_GONE));
    const byAlice = await upload(srv, alice, 'single', aliceBytes, 'holiday.jpg');
    assert.equal(byAlice.status, 'processing', byAlice.text);
    await srv.container.jobRunner.whenIdle();
    const [alicePath] = await filesWithHash(repoPath, hash);
    fs.rmSync(path.join(repoPath, alicePath!));
    const repoId = srv.container.repositories.primary()!.repository_id;
    const scan = await alice.post(`${V1}/repositories/${repoId}/scans`, { force: true });
    assert.ok(scan.status === 200 || scan.status === 202, scan.text);
    await eventually(async () => (await asset(alice, byAlice.asset_id!)).is_deleted, 60_000, 'alice’s asset to be missing');

    // Bob's photo with the same name: his own asset at a free path, alice's left as it was.
    const other = await upload(srv, bob, 'single', fs.readFileSync(src.file(BOB_OTHER)), 'holiday.jpg');
    assert.equal(other.status, 'processing', other.text);
    assert.notEqual(other.asset_id, byAlice.asset_id);
    assert.equal((await asset(bob, other.asset_id!)).original_filename, 'holiday.jpg');
    const rows = srv.container.db.prepare('SELECT asset_id, storage_path, hash FROM assets WHERE asset_id IN (?, ?)').all(byAlice.asset_id, other.asset_id) as { asset_id: string; storage_path: string; hash: string }[];
    const alicesRow = rows.find((r) => r.asset_id === byAlice.asset_id)!;
    assert.equal(alicesRow.storage_path, alicePath);
    assert.equal(alicesRow.hash, hash, 'alice’s asset keeps its content');
    assert.notEqual(rows.find((r) => r.asset_id === other.asset_id)!.storage_path, alicePath);

    // Bob uploading the very bytes of alice's missing asset: his own asset, hers stays missing.
    const same = await upload(srv, bob, 'single', aliceBytes, 'holiday-copy.jpg');
    assert.equal(same.status, 'processing', same.text);
    assert.notEqual(same.asset_id, byAlice.asset_id);
    assert.equal((await asset(alice, byAlice.asset_id!)).is_deleted, true);
    assert.equal((await asset(bob, same.asset_id!)).original_filename, 'holiday-copy.jpg');
  });

  test("a folder scan catalogues a file it finds for the repository's default owner, also when a member has the same bytes", async () => {
    const file = src.file(SCANNED);
    const bytes = fs.readFileSync(file);
    const byBob = await upload(srv, bob, 'single', bytes, 'scanned.jpg');
    assert.equal(byBob.status, 'processing', byBob.text);
    fs.mkdirSync(path.join(repoPath, 'from-the-folder'), { recursive: true });
    fs.copyFileSync(file, path.join(repoPath, 'from-the-folder', 'scanned.jpg'));
    const repoId = srv.container.repositories.primary()!.repository_id;
    const r = await alice.post(`${V1}/repositories/${repoId}/scans`, { force: true });
    assert.ok(r.status === 200 || r.status === 202, r.text);
    const row = await eventually(
      () => srv.container.db.prepare(`SELECT a.owner_id, u.username FROM assets a JOIN users u ON u.user_id = a.owner_id WHERE storage_path = 'from-the-folder/scanned.jpg'`).get() as { username: string } | undefined,
      60_000,
      'the scan to catalogue the file',
    );
    assert.equal(row!.username, 'alice', 'the default owner (the first administrator)');
    assert.equal((await asset(bob, byBob.asset_id!)).is_deleted, false);
  });
});
