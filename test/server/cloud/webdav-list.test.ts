/**
 * The WebDAV listing against rclone over corpus files in nested folders (a non-ASCII name, spaces, a hidden
 * file): ids, versions, sizes and times match the files; a changed file gets a new version; a deleted one is no
 * longer listed. Against a fake server on loopback (rclone will not serve such names): names with control
 * characters, `..`, separators or addresses outside the folder are ListingProblems, never items; an unreadable
 * folder is a problem and the walk goes on; a refused password or a dropped server ends it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProviderError, type ListingProblem, type ProviderState, type RemoteItem, type RemoteLibrary } from '../../../server/src/adapters/cloud/provider.ts';
import { WebDavProvider } from '../../../server/src/adapters/cloud/webdav/index.ts';
import { startRcloneWebdav, type RcloneWebdav } from '../helpers/rclone-webdav.ts';
import { recordingServer } from '../helpers/webdav-peers.ts';
import { expectedFiles, makeRemoteTree } from '../helpers/webdav-tree.ts';

const USER = 'anna';
const PASS = 'listing-pass';
const signal = () => AbortSignal.timeout(30_000);

async function listAll(library: RemoteLibrary): Promise<{ items: RemoteItem[]; problems: ListingProblem[] }> {
  const items: RemoteItem[] = [];
  const problems: ListingProblem[] = [];
  for await (const entry of library.list(signal())) {
    if ('problem' in entry) problems.push(entry);
    else items.push(entry);
  }
  items.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { items, problems };
}

describe('WebDAV listing against rclone', () => {
  const provider = new WebDavProvider();
  let dir: string;
  let server: RcloneWebdav;
  let state: ProviderState;

  before(async () => {
    dir = makeRemoteTree();
    server = await startRcloneWebdav({ dir, user: USER, pass: PASS });
    state = (await provider.signIn({ url: server.url, username: USER, password: PASS }, signal())).state;
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('lists every file of the nested folders with its id, name, folder, size, version and time', async () => {
    const library = provider.open(state, { folder: '' });
    try {
      const { items, problems } = await listAll(library);
      assert.deepEqual(problems, []);
      const expected = expectedFiles(dir);
      assert.equal(expected.length, 7);
      assert.deepEqual(
        items.map((i) => ({ id: i.id, name: i.name, folder: i.folder, size: i.size })),
        expected.map((e) => ({ id: e.id, name: e.name, folder: e.folder, size: e.size })),
      );
      assert.ok(items.some((i) => i.id === 'Photos/Été à Paris/jour 2/Olympus_E-P3.jpg' && i.id.normalize('NFC') === i.id));
      assert.ok(items.some((i) => i.name === '.hidden.jpg'), 'hidden files are listed: the importer decides');
      for (const [k, item] of items.entries()) {
        assert.match(item.version, /^[0-9a-f]+$/, `an ETag, unquoted: ${item.version}`);
        // getlastmodified has whole seconds.
        assert.equal(item.facts.fileModified?.time, Math.floor(expected[k]!.mtimeMs / 1000) * 1000, item.id);
        assert.equal(item.facts.fileModified?.offsetMinutes, null);
      }
    } finally {
      await library.close();
    }
  });

  test('a scope lists only its folder, ids relative to it', async () => {
    const scope = await provider.checkScope(state, { folder: 'Photos/Été à Paris' }, signal());
    const library = provider.open(state, scope);
    try {
      const { items } = await listAll(library);
      assert.deepEqual(
        items.map((i) => [i.id, i.folder]),
        [
          ['Stonehenge.heic', []],
          ['jour 2/Olympus_E-P3.jpg', ['jour 2']],
        ],
      );
    } finally {
      await library.close();
    }
  });

  test('a changed file gets a new version; a deleted file is no longer listed', async () => {
    const library = provider.open(state, { folder: 'Photos' });
    try {
      const before = new Map((await listAll(library)).items.map((i) => [i.id, i]));
      const changed = path.join(dir, 'Photos', '2023', 'DSCN0010.jpg');
      fs.appendFileSync(changed, Buffer.from('edited'));
      fs.utimesSync(changed, new Date(), new Date(Date.now() + 5_000));
      fs.rmSync(path.join(dir, 'Photos', '2023', 'Pentax K10D.jpg'));

      const after = new Map((await listAll(library)).items.map((i) => [i.id, i]));
      assert.deepEqual([...after.keys()].sort(), ['2023/DSCN0010.jpg', 'Été à Paris/Stonehenge.heic', 'Été à Paris/jour 2/Olympus_E-P3.jpg']);
      assert.ok(before.has('2023/Pentax K10D.jpg'));
      const was = before.get('2023/DSCN0010.jpg')!;
      const now = after.get('2023/DSCN0010.jpg')!;
      assert.notEqual(now.version, was.version);
      assert.equal(now.size, was.size! + 6);
      assert.equal(after.get('Été à Paris/Stonehenge.heic')!.version, before.get('Été à Paris/Stonehenge.heic')!.version);
    } finally {
      await library.close();
    }
  });
});

/** A multistatus answer for `folder` (a path ending in '/') with these entries. */
function multistatus(folder: string, entries: { href: string; collection?: boolean; props?: string }[]): string {
  const response = (href: string, collection: boolean, props = '') =>
    `<D:response><D:href>${href}</D:href><D:propstat><D:prop>` +
    `<D:resourcetype>${collection ? '<D:collection/>' : ''}</D:resourcetype>${props}` +
    '</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
  return (
    '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">' +
    response(folder, true) +
    entries.map((e) => response(e.href, e.collection ?? false, e.props)).join('') +
    '</D:multistatus>'
  );
}

const FILE = '<D:getcontentlength>3</D:getcontentlength><D:getetag>W/"abc"</D:getetag>';
const MODIFIED = 'Tue, 03 Jan 2023 10:00:00 GMT';

/** A hostile or broken WebDAV server: every answer is written here, by folder path. */
function hostileAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const send = (body: string): void => {
    res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end(body);
  };
  switch (req.url) {
    case '/dav/':
      return send(
        multistatus('/dav/', [
          { href: '/dav/ok.jpg', props: FILE },
          // Some servers (IIS, some NAS boxes) answer with full addresses: the same origin is fine.
          { href: `http://${req.headers.host}/dav/full%20address.jpg`, props: FILE },
          { href: '/dav/%2e%2e/', collection: true },
          { href: '/dav/..', props: FILE },
          { href: '/dav/..%2Fetc%2Fpasswd', props: FILE },
          { href: '/dav/nul%00.jpg', props: FILE },
          { href: '/dav/tab%09name.jpg', props: FILE },
          { href: '/dav/bell%07.jpg', props: FILE },
          { href: '/dav/back%5Cslash.jpg', props: FILE },
          { href: '/dav/bad%ZZescape.jpg', props: FILE },
          { href: '/dav/more/deeper.jpg', props: FILE },
          { href: '/elsewhere/x.jpg', props: FILE },
          { href: 'http://evil.example/dav/y.jpg', props: FILE },
          { href: '/dav/private/', collection: true },
          { href: '/dav/gone/', collection: true },
          { href: '/dav/more/', collection: true },
        ]),
      );
    case '/dav/more/':
      return send(multistatus('/dav/more/', [{ href: '/dav/more/deep.jpg', props: `<D:getcontentlength>5</D:getcontentlength><D:getlastmodified>${MODIFIED}</D:getlastmodified>` }]));
    case '/dav/private/':
      return void res.writeHead(403).end();
    case '/dav/gone/':
      return void res.writeHead(404).end();
    case '/locked/':
      return send(multistatus('/locked/', [{ href: '/locked/sub/', collection: true }]));
    case '/locked/sub/':
      return void res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
    case '/dropping/':
      return send(multistatus('/dropping/', [{ href: '/dropping/sub/', collection: true }]));
    default:
      req.socket.destroy();
  }
}

describe('WebDAV listing against a hostile server', () => {
  const provider = new WebDavProvider({ idleTimeoutMs: 5_000 });
  let peer: Awaited<ReturnType<typeof recordingServer>>;
  const stateFor = (folder: string): ProviderState => ({
    identity: 'x',
    displayName: 'x',
    publicConfig: { url: `${peer.url}${folder}/`, username: USER },
    secrets: { password: PASS },
    session: null,
  });

  before(async () => {
    peer = await recordingServer(hostileAnswer);
  });
  after(() => peer.close());

  test('names that are not names, and entries outside the folder, are ListingProblems, never items', async () => {
    const library = provider.open(stateFor('dav'), { folder: '' });
    try {
      const { items, problems } = await listAll(library);
      assert.deepEqual(
        items.map((i) => ({ id: i.id, version: i.version, size: i.size, folder: i.folder, modified: i.facts.fileModified?.time })),
        [
          { id: 'full address.jpg', version: 'abc', size: 3, folder: [], modified: undefined },
          { id: 'more/deep.jpg', version: `5:${Date.parse(MODIFIED)}`, size: 5, folder: ['more'], modified: Date.parse(MODIFIED) },
          { id: 'ok.jpg', version: 'abc', size: 3, folder: [], modified: undefined },
        ],
      );
      const byReason = problems.map((p) => `${p.where} | ${p.reason}`).sort();
      const expectations: [RegExp, number][] = [
        [/"\.\." \(it would point outside its folder\)/, 2],
        [/a name with a path separator/, 2],
        [/a name with a control character/, 3],
        [/malformed escape/, 1],
        [/outside this folder/, 2],
        [/another host/, 1],
        [/^private \| .*HTTP 403/, 1],
        [/^gone \| the folder disappeared/, 1],
      ];
      for (const [pattern, count] of expectations) {
        assert.equal(byReason.filter((r) => pattern.test(r)).length, count, `${pattern}: ${byReason.join('\n')}`);
      }
      assert.equal(problems.length, 13);
      // Reasons are printable: a control character shows as an escape, never raw.
      for (const p of problems) assert.ok(![...p.where + p.reason].some((c) => c.charCodeAt(0) < 0x20), p.reason);
      assert.ok(byReason.some((r) => r.includes('nul\\u0000.jpg')));
    } finally {
      await library.close();
    }
  });

  test('a refused password mid-walk ends the listing (session_expired)', async () => {
    const library = provider.open(stateFor('locked'), { folder: '' });
    try {
      await assert.rejects(listAll(library), (e: unknown) => e instanceof ProviderError && e.code === 'session_expired');
    } finally {
      await library.close();
    }
  });

  test('a server that drops the connection mid-walk ends the listing (unreachable, retryable)', async () => {
    const library = provider.open(stateFor('dropping'), { folder: '' });
    try {
      await assert.rejects(listAll(library), (e: unknown) => e instanceof ProviderError && e.code === 'unreachable' && e.retryable);
    } finally {
      await library.close();
    }
  });

  test('no more than the configured number of folders are read at once', async () => {
    let open = 0;
    let most = 0;
    const folders = Array.from({ length: 12 }, (_, i) => `f${i}`);
    const slow = await recordingServer((req, res) => {
      open++;
      most = Math.max(most, open);
      const entries = req.url === '/wide/' ? folders.map((f) => ({ href: `/wide/${f}/`, collection: true })) : [{ href: `${req.url}a.jpg`, props: FILE }];
      setTimeout(() => {
        open--;
        res.writeHead(207, { 'content-type': 'application/xml' }).end(multistatus(req.url!, entries));
      }, 40);
    });
    const library = new WebDavProvider({ listConcurrency: 3 }).open(
      { identity: 'x', displayName: 'x', publicConfig: { url: `${slow.url}wide/`, username: USER }, secrets: { password: PASS }, session: null },
      { folder: '' },
    );
    try {
      const { items } = await listAll(library);
      assert.equal(items.length, 12);
      assert.equal(most, 3);
      assert.equal(slow.requests.length, 13);
      assert.ok(slow.requests.every((r) => r.method === 'PROPFIND' && r.headers.depth === '1'));
    } finally {
      await library.close();
      await slow.close();
    }
  });

  test('a stopped listing stops asking: an aborted signal ends it with its reason', async () => {
    const library = provider.open(stateFor('dav'), { folder: '' });
    const controller = new AbortController();
    controller.abort(new Error('run cancelled'));
    try {
      await assert.rejects(async () => {
        for await (const entry of library.list(controller.signal)) assert.fail(`listed ${JSON.stringify(entry)}`);
      }, /run cancelled/);
    } finally {
      await library.close();
    }
  });
});
