/**
 * Conflicts at approval are answered by a person, never guessed: a folder that is a repository already, a
 * moved or copied repository (relocate or add_separate), a folder inside or around one (cancel only), a
 * risky folder; each resolution carried out through decideHostActionRecovery, and the risk warnings.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { data, problem, V1 } from '../helpers/api.ts';
import { tempDir } from '../repositories/helpers.ts';
import { riskWarnings } from '../../../server/src/features/host-actions/folder-risks.ts';
import { asked, assertNoPathIn, photoFolder, speaking, useHostEnv, waitFor, type HostEnv } from './helpers.ts';

describe('host action conflicts', () => {
  let env: HostEnv;
  useHostEnv((e) => (env = e));
  const folders: string[] = [];

  /** A folder added through a host action of bob's: its repository id. */
  async function added(dir: string, name: string): Promise<string> {
    const a = await asked(env.bob, { name });
    const done = await env.host.approve(a.id, dir);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    return done.repository_id!;
  }

  /** A new action of bob's approved with `dir`: its conflict (asserting needs_decision). */
  async function conflictAt(dir: string): Promise<{ action: any; conflict: any }> {
    const a = await asked(env.bob, { name: 'Another' });
    const r = await env.host.approve(a.id, dir);
    assert.equal(r.status, 'needs_decision', JSON.stringify(r));
    const action = data(env.bob, await env.bob.get(`${V1}/host-actions/${a.id}`));
    assert.equal(action.status, 'needs_decision');
    assert.deepEqual(action.result.conflict, r.result!.conflict);
    assert.ok(Date.parse(action.expires_at) - Date.now() > 23 * 3_600_000, 'a day to decide');
    return { action, conflict: action.result.conflict };
  }

  const repositoryCount = () => env.srv.container.repositories.all().length;

  test('a folder that is a repository already: only cancel', async () => {
    const dir = photoFolder();
    folders.push(dir);
    const id = await added(dir, 'Registered');
    const { action, conflict } = await conflictAt(dir);
    assert.deepEqual({ ...conflict, root_id: null }, { type: 'already_registered', repository_id: id, root_id: null, allowed_resolutions: ['cancel'], risk_warnings: [] });
    const refused = await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'add_separate' });
    assert.equal(refused.status, 422);
    assert.equal(problem(env.bob, refused).code, 'resolution_not_allowed');
    // Decided in response variant B (the envelope around the same answer).
    const bobB = speaking(env, env.bob, 'B');
    const stale = await bobB.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'cancel', expected_version: action.version + 1 });
    assert.equal(problem(bobB, stale).code, 'stale_version');
    const cancelled = data(bobB, await bobB.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'cancel', expected_version: action.version }));
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.cancel_reason, 'member_cancelled');
  });

  test('a moved repository: relocate points it at the new folder, its photos keep their ids', async () => {
    const dir = photoFolder();
    const id = await added(dir, 'Moved');
    await waitFor('the photos are indexed', async () => {
      await env.srv.container.jobRunner.whenIdle();
      return env.srv.container.db.prepare('SELECT count(*) FROM assets WHERE repository_id = ?').pluck().get(id) === 2;
    }, 60_000);
    const before = env.srv.container.db.prepare('SELECT asset_id FROM assets WHERE repository_id = ? ORDER BY asset_id').pluck().all(id);
    await env.srv.container.repositories.stopWatching(id);
    const moved = path.join(tempDir('hearth-host-moved-'), 'photos');
    fs.renameSync(dir, moved);
    folders.push(moved, dir);

    const { action, conflict } = await conflictAt(moved);
    assert.equal(conflict.type, 'moved_or_copied');
    assert.equal(conflict.repository_id, id);
    assert.deepEqual(conflict.allowed_resolutions, ['relocate', 'add_separate', 'cancel']);
    assert.ok(!conflict.risk_warnings.includes('original_still_present'), 'the old folder is gone');

    const stale = await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'relocate', expected_version: action.version - 1 });
    assert.equal(stale.status, 409);
    assert.equal(problem(env.bob, stale).code, 'stale_version');

    const count = repositoryCount();
    const done = data(env.bob, await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'relocate', request_id: 'decide-1' }));
    assert.equal(done.status, 'completed');
    assert.equal(done.result.repository_id, id);
    assert.equal(repositoryCount(), count, 'no new repository');
    assert.equal(env.srv.container.repositories.byId(id)!.path, fs.realpathSync(moved));
    // The same decision again (a lost answer): the action as it is.
    assert.equal(data(env.bob, await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'relocate', request_id: 'decide-1' })).version, done.version);
    await env.srv.container.jobRunner.whenIdle();
    assert.deepEqual(env.srv.container.db.prepare('SELECT asset_id FROM assets WHERE repository_id = ? AND is_deleted = 0 ORDER BY asset_id').pluck().all(id), before);
  });

  test('a copied repository: add_separate gives the copy a new identity and registers it apart', async () => {
    const dir = photoFolder();
    folders.push(dir);
    const id = await added(dir, 'Original');
    const copy = tempDir('hearth-host-copy-');
    folders.push(copy);
    fs.cpSync(dir, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.hearth`) || src.endsWith('.hearth-repo') });

    const { action, conflict } = await conflictAt(copy);
    assert.equal(conflict.type, 'moved_or_copied');
    assert.ok(conflict.risk_warnings.includes('original_still_present'));
    const done = data(env.bob, await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'add_separate' }));
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.notEqual(done.result.repository_id, id);
    const marker = JSON.parse(fs.readFileSync(path.join(copy, '.hearth-repo'), 'utf8'));
    assert.equal(marker.id, done.result.repository_id, 'the copy carries its new id');
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, '.hearth-repo'), 'utf8')).id, id, 'the original keeps its id');
  });

  test('inside or around a repository: only cancel (a file belongs to one repository)', async () => {
    const dir = photoFolder();
    folders.push(dir);
    const id = await added(dir, 'Outer');
    const inside = await conflictAt(path.join(dir, 'trip'));
    assert.equal(inside.conflict.type, 'inside_repository');
    assert.equal(inside.conflict.repository_id, id);
    assert.deepEqual(inside.conflict.allowed_resolutions, ['cancel']);

    const parent = tempDir('hearth-host-parent-');
    const child = path.join(parent, 'family');
    fs.mkdirSync(child);
    fs.cpSync(photoFolder(), child, { recursive: true });
    const innerId = await added(child, 'Inner');
    folders.push(parent);
    const around = await conflictAt(parent);
    assert.equal(around.conflict.type, 'contains_repository');
    assert.equal(around.conflict.repository_id, innerId);
    const refused = await env.bob.post(`${V1}/host-actions/${around.action.id}/recovery`, { resolution: 'add_separate' });
    assert.equal(refused.status, 422);
    assert.equal(data(env.bob, await env.bob.post(`${V1}/host-actions/${around.action.id}/cancel`)).status, 'cancelled');
  });

  test('a system folder: a risky_folder conflict with its warning', async () => {
    const count = repositoryCount();
    const { action, conflict } = await conflictAt('/etc');
    assert.equal(conflict.type, 'risky_folder');
    assert.ok(conflict.risk_warnings.includes('system_folder'));
    assert.deepEqual(conflict.allowed_resolutions, ['add_separate', 'cancel']);
    assert.equal(data(env.bob, await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'cancel' })).status, 'cancelled');
    assert.equal(repositoryCount(), count);
    assert.ok(!fs.existsSync('/etc/.hearth-repo'));
  });

  test('the risk warnings', () => {
    const dir = photoFolder();
    folders.push(dir);
    assert.deepEqual(riskWarnings(dir, { home: '/nonexistent-home', largeTreeEntries: 3 }), ['very_large_tree']);
    assert.deepEqual(riskWarnings(dir, { home: '/nonexistent-home', largeTreeEntries: 100 }), []);
    assert.deepEqual(riskWarnings(dir, { home: dir, largeTreeEntries: 100 }), ['system_folder'], 'the home folder itself');
    assert.deepEqual(riskWarnings('/media/usb/photos', { home: '/root', largeTreeEntries: 100 }), ['removable_drive']);
    assert.deepEqual(riskWarnings('/', { home: '/root', largeTreeEntries: 1 }), ['system_folder', 'very_large_tree']);
  });

  test('a very large tree added anyway with add_separate', async () => {
    const risks = env.srv.container.hostActions.host.risks;
    const bound = risks.largeTreeEntries;
    risks.largeTreeEntries = 3; // the two photos and their folder make a "very large" tree here
    try {
      const dir = photoFolder();
      folders.push(dir);
      const { action, conflict } = await conflictAt(dir);
      assert.deepEqual(conflict, { type: 'risky_folder', repository_id: null, root_id: null, allowed_resolutions: ['add_separate', 'cancel'], risk_warnings: ['very_large_tree'] });
      const done = data(env.bob, await env.bob.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'add_separate', expected_version: action.version }));
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(JSON.parse(fs.readFileSync(path.join(dir, '.hearth-repo'), 'utf8')).id, done.result.repository_id, 'a marker was written for the new repository');
    } finally {
      risks.largeTreeEntries = bound;
    }
  });

  test('decideHostActionRecovery on a conflict refused for another member, and no answer named a path', async () => {
    const dir = photoFolder();
    folders.push(dir);
    await added(dir, 'Twice');
    const { action } = await conflictAt(dir);
    const carol = speaking(env, env.carol, 'A');
    const r = await carol.post(`${V1}/host-actions/${action.id}/recovery`, { resolution: 'cancel' });
    assert.equal(r.status, 404);
    assert.equal(data(env.bob, await env.bob.get(`${V1}/host-actions/${action.id}`)).status, 'needs_decision');
    assertNoPathIn(env.answers, [...folders, env.srv.dataDir]);
  });
});
