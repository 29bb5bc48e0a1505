/**
 * The changed keys the caches bring kept values up to date with (platform/cache/changed-keys.ts):
 * a position before the epoch started is unknown (null), never the partial set of the keys
 * recorded since the start. A list read on the snapshot worker in a snapshot older than a
 * rebuild would otherwise be patched with only some of its changed rows (browse.lists.ts `prepare`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChangedKeys } from '../../../server/src/platform/cache/changed-keys.ts';
import { depBits } from '../../../server/src/platform/cache/change-journal.ts';

test('since: the keys after a known position; null before the epoch started, past the current position, or after keys were dropped', () => {
  const keys = new ChangedKeys<number>(100);
  keys.push(105, [1, 2], [depBits(['liked']), depBits(['trash'])]);
  keys.push(110, [3]);
  assert.deepEqual([...keys.since(100)!].sort(), [1, 2, 3], 'from the start: every key');
  assert.deepEqual([...keys.since(105)!], [3]);
  assert.deepEqual([...keys.since(110)!], [], 'the current position: nothing changed');
  assert.deepEqual([...keys.since(100, depBits(['trash']))!].sort(), [2, 3], 'only the kinds asked for (a key without kinds counts as any)');
  assert.equal(keys.since(99), null, 'before the epoch started: unknown, not a partial set');
  assert.equal(keys.since(0), null);
  assert.equal(keys.since(111), null, 'ahead of the current position: unknown');

  const bounded = new ChangedKeys<number>(0, 3);
  bounded.push(1, [1, 2]);
  bounded.push(2, [3, 4]);
  assert.equal(bounded.since(0), null, 'the keys of position 1 were dropped to stay bounded');
  assert.deepEqual([...bounded.since(1)!].sort(), [3, 4]);
});
