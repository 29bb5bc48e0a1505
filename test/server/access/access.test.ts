/**
 * The access layer (server/src/platform/access) on a real catalog: one batch of ids in, the permitted
 * subset out, and another member's rows indistinguishable from rows that do not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DomainError } from '../../../server/src/platform/http/errors.ts';
import { V1, data } from '../helpers/api.ts';
import { addFile, household, NO_SUCH_ID, silentWav, type Household } from '../assets/fixture.ts';

describe('access layer', () => {
  let h: Household;
  let mine: string[];
  let theirs: string;
  let myAlbum: number;
  before(async () => {
    h = await household();
    mine = [await addFile(h.srv, 'a/one.wav', h.ownerId, silentWav()), await addFile(h.srv, 'a/two.wav', h.ownerId, silentWav(0.6))];
    theirs = await addFile(h.srv, 'b/three.wav', h.otherId, silentWav(0.7));
    myAlbum = data<{ album_id: number }>(h.owner, await h.owner.post(`${V1}/albums`, { album_name: 'Mine' })).album_id;
  });
  after(() => h.srv.stop());

  const owner = () => ({ userId: h.ownerId });
  const other = () => ({ userId: h.otherId });

  it('returns the permitted subset of a batch, in the order given, each once', () => {
    const access = h.srv.container.access;
    for (const permission of ['read', 'contribute', 'change', 'own'] as const) {
      const got = access.permitted(owner(), 'asset', [mine[1]!, theirs, NO_SUCH_ID, mine[0]!, mine[1]!], permission);
      assert.deepEqual(got, [mine[1], mine[0]], permission);
      assert.deepEqual(access.permitted(other(), 'asset', [...mine, theirs], permission), [theirs], permission);
    }
    assert.deepEqual(access.permitted(owner(), 'asset', [], 'read'), []);
    assert.deepEqual(access.permitted(owner(), 'album', [myAlbum], 'change'), [myAlbum]);
    assert.deepEqual(access.permitted(other(), 'album', [myAlbum], 'read'), []);
  });

  it('looks each id up by its key: the cost follows the batch, never the size of the library', () => {
    const access = h.srv.container.access;
    for (const kind of ['asset', 'album', 'upload_session', 'upload_receipt', 'partner_share', 'share_link', 'link'] as const) {
      for (const permission of ['read', 'contribute', 'change', 'own'] as const) {
        const plan = access.plan(kind, permission);
        const where = `${kind}/${permission}: ${plan.join(' | ')}`;
        assert.match(plan[0]!, /^SCAN j VIRTUAL TABLE/, `${kind}/${permission}: the candidates are the outer loop (${plan.join(' | ')})`);
        assert.match(plan[1]!, /^SEARCH t USING (COVERING INDEX|INDEX|INTEGER PRIMARY KEY) .*(asset_id|album_id|session_id|receipt_id|rowid)=\?/, where);
        // Shares and album members are looked up per candidate too (EXISTS by key), never walked.
        for (const step of plan.slice(2)) {
          assert.ok(/^CORRELATED SCALAR SUBQUERY \d+$/.test(step) || /^SEARCH \w+ USING (COVERING INDEX|INDEX|INTEGER PRIMARY KEY|PRIMARY KEY) .*=\?/.test(step), where);
        }
        assert.ok(!plan.some((step) => /^SCAN (?!j )/.test(step)), `${where}: nothing but the candidates is scanned`);
      }
    }
  });

  it('gives lists the same rule as a condition on their own query', () => {
    const access = h.srv.container.access;
    const db = h.srv.container.db;
    const listed = (actor: { userId: number }) => {
      const scope = access.scope(actor, 'asset', 'read', 'x');
      return (db.prepare(`SELECT x.asset_id FROM assets x WHERE ${scope.sql} ORDER BY x.asset_id`).all(scope.params) as { asset_id: string }[]).map((r) => r.asset_id);
    };
    assert.deepEqual(listed(owner()), [...mine].sort());
    assert.deepEqual(listed(other()), [theirs]);
    assert.throws(() => access.scope(owner(), 'asset', 'read', 'x; DROP TABLE assets'), /not an SQL alias/);
  });

  it("answers another member's row exactly like a row that does not exist", () => {
    const access = h.srv.container.access;
    const failure = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        assert.ok(e instanceof DomainError);
        return { status: e.status, code: e.code, message: e.message, errors: e.extra.errors };
      }
      assert.fail('expected a refusal');
    };
    const foreign = failure(() => access.require(owner(), 'asset', theirs, 'read', 'path.id'));
    const unknown = failure(() => access.require(owner(), 'asset', NO_SUCH_ID, 'read', 'path.id'));
    assert.deepEqual(foreign, unknown);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.code, 'asset_not_found');
    assert.equal(failure(() => access.require(other(), 'album', myAlbum, 'change')).code, 'album_not_found');
  });

  it('names every refused id of a batch by its field, once', () => {
    const refused = (() => {
      try {
        h.srv.container.access.requireAll(owner(), 'asset', [mine[0]!, theirs, NO_SUCH_ID, theirs], 'change', (i) => `body.asset_ids.${i}`);
      } catch (e) {
        return e as DomainError;
      }
      assert.fail('expected a refusal');
    })();
    assert.equal(refused.status, 404);
    assert.deepEqual(
      refused.extra.errors?.map((e) => e.field),
      ['body.asset_ids.1', 'body.asset_ids.2'],
    );
    assert.ok(!refused.message.includes(mine[0]!), 'permitted ids are not named');
  });
});
