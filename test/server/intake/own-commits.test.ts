/**
 * The door's notes of the names it commits at (features/intake/own-commits.ts): the watcher passes over one `add`
 * per note, a note for a name not used is gone, and a note no event came for expires, so a later file a person
 * puts at that name is never passed over.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OwnCommits } from '../../../server/src/features/intake/own-commits.ts';

test('a noted name is passed over once, per repository; a forgotten or expired note passes nothing over', () => {
  let now = 1_000;
  const own = new OwnCommits(60_000, () => now);
  own.note('repo-a', 'imports/2026/12/a.jpg');
  own.note('repo-a', 'imports/2026/12/b.jpg');
  own.forget('repo-a', 'imports/2026/12/b.jpg'); // reserved, then the commit took another name

  assert.equal(own.take('repo-b', 'imports/2026/12/a.jpg'), false, 'another repository');
  assert.equal(own.take('repo-a', 'imports\\2026\\12\\a.jpg'), true, 'the commit’s add (any separator)');
  assert.equal(own.take('repo-a', 'imports/2026/12/a.jpg'), false, 'once only: the next add is a person’s');
  assert.equal(own.take('repo-a', 'imports/2026/12/b.jpg'), false, 'a name not used');

  own.note('repo-a', 'imports/2026/12/c.jpg');
  own.note('repo-a', 'imports/2026/12/e.jpg'); // never taken: the repository is not watched
  now += 60_001;
  assert.equal(own.take('repo-a', 'imports/2026/12/c.jpg'), false, 'expired: no event came for it in time');
  own.note('repo-a', 'imports/2026/12/d.jpg'); // noting prunes what expired (e)
  assert.equal(own.size, 1);
});
