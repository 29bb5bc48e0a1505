/**
 * Browsing compiles no SQL once warm: the timeline's years, a bucket's assets, the people list and a photo's info
 * run statements kept prepared (platform/db/prepared.ts), not prepared again on every request. Preparing them was
 * 11 s of a server's main thread in one people rebuild at 100k faces with a person browsing beside it (a CPU profile
 * of `npm run bench:people-rebuild`): 3–9 ms inside single requests while the rebuild's steps and a GC pause
 * shared the same turn of the event loop (issue 25 point 4).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, registerAdmin } from '../helpers/api.ts';
import { catalogOf } from '../helpers/factories.ts';

const REPO = '0195f000-0000-7000-8000-00000000b5a1';

describe('browsing compiles no SQL once warm', () => {
  let srv: TestServer;
  let alice: Client;
  let assetId: string;

  before(async () => {
    srv = await startServer();
    // The job runner's own upkeep (leases, retries) prepares its statements on the same connection whenever it
    // runs: stopped, so that what is counted is the requests' alone.
    await srv.container.jobRunner.stop();
    // So does an indexer coming up (its models checked off the start's path) when it wakes the jobs that waited for
    // it: once, but whenever the check ends, which on a loaded machine was during the counted pass.
    await srv.container.indexing.indexers.settled();
    alice = new Client(srv.url);
    const aliceId = (await registerAdmin(alice)).session.user.user_id;
    const catalog = catalogOf(srv.container.db, () => Date.parse('2026-03-01T12:00:00Z'));
    catalog.repository({ repository_id: REPO, name: 'Synthetic', path: '/nonexistent/hearth-statements', status: 'offline' });
    for (let i = 0; i < 30; i++) {
      assetId = catalog.asset({ owner_id: aliceId, repository_id: REPO, original_filename: `p${i}.jpg`, taken_time: Date.parse(`20${10 + (i % 10)}-05-0${1 + (i % 9)}T10:00:00Z`) });
    }
  });
  after(() => srv.stop({ removeData: true }));

  /** The four requests of a person browsing (scripts/bench/loop-watch.ts `Browsing`), each answered 200. */
  async function browse() {
    for (const [method, path, body] of [
      ['POST', '/assets/query/years', {}],
      ['POST', '/assets/query', { filter: { date: { from: '2015-01-01', to: '2015-12-31' } }, pagination: { limit: 200 } }],
      ['GET', '/people?limit=50', undefined],
      ['GET', `/assets/${assetId}`, undefined],
    ] as const) {
      const r = method === 'POST' ? await alice.post(`${V1}${path}`, body) : await alice.get(`${V1}${path}`);
      assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
      data(alice, r);
    }
  }

  test('the second pass over the four requests prepares no statement', async () => {
    await browse();
    const db = srv.container.db;
    const compiled: string[] = [];
    const prepare = db.prepare;
    db.prepare = function (this: typeof db, sql: string) {
      compiled.push(sql.replace(/\s+/g, ' ').slice(0, 120));
      return prepare.call(this, sql);
    } as typeof db.prepare;
    try {
      await browse();
    } finally {
      db.prepare = prepare;
    }
    assert.deepEqual(compiled, [], `statements prepared again:\n${compiled.join('\n')}`);
  });
});
