/**
 * The Duplicates screen's own logic (renderer/src/features/duplicates), without a browser:
 * - "Find duplicates" over several folders (detection-outcome.ts): counts summed, nothing found said
 *   plainly, a detection already running (409 `duplicate_detection_running`) reported as news rather
 *   than an error, a failure named with its folder;
 * - a group's facts (group-facts.ts): the keeper shown (the person's choice, else the suggestion),
 *   the bytes "Keep one" recovers with it (the Trash's photos count nothing, as on the server), the
 *   sentences before and after a merge, the header's summary, resolutions, and names that tell copies
 *   with the same file name apart;
 * - paging (group-pages.ts): the next offset, a group shown once when resolving shifted it onto the
 *   next page, and a resolved group taken off the loaded pages at once.
 * The browser side is test/e2e/duplicates.spec.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeDetection, type DetectionCounts } from '../../renderer/src/features/duplicates/detection-outcome.ts';
import {
  groupTitle,
  keepOneExplanation,
  keeperOf,
  mergedSentence,
  photoName,
  recoverableWith,
  resolutionOf,
  summarySentence,
  type DuplicateGroup,
} from '../../renderer/src/features/duplicates/group-facts.ts';
import { flattenGroups, nextGroupOffset, withoutGroup, type GroupPage } from '../../renderer/src/features/duplicates/group-pages.ts';

const counts = (c: Partial<DetectionCounts>): DetectionCounts => ({
  assets_affected: 0,
  exact_groups: 0,
  generated_at: '2026-11-26T06:00:00.000Z',
  groups: 0,
  mixed_groups: 0,
  phash_groups: 0,
  ...c,
});

describe('Find duplicates: what the page says', () => {
  test('groups found in two folders are summed, by kind', () => {
    const r = describeDetection([
      { repository: 'Photos', outcome: 'done', counts: counts({ groups: 2, exact_groups: 1, phash_groups: 1, assets_affected: 5 }) },
      { repository: 'Family', outcome: 'done', counts: counts({ groups: 1, phash_groups: 1, assets_affected: 2 }) },
    ]);
    assert.equal(r.tone, 'success');
    assert.equal(r.text, 'Found 3 groups of duplicates (7 photos): 1 of exact copies, 2 of similar photos.');
  });

  test('nothing found is said plainly', () => {
    assert.deepEqual(describeDetection([{ repository: 'Photos', outcome: 'done', counts: counts({}) }]), { tone: 'success', text: 'No duplicates found.' });
  });

  test('a detection already running is information, not an error, and names the folder', () => {
    const r = describeDetection([
      { repository: 'Photos', outcome: 'done', counts: counts({}) },
      { repository: 'Family', outcome: 'running' },
    ]);
    assert.equal(r.tone, 'info');
    assert.match(r.text, /^No duplicates found in Photos\. Duplicates are already being looked for in Family;/);
  });

  test('a failure names its folder and the reason, and makes the report an error', () => {
    const r = describeDetection([
      { repository: 'Photos', outcome: 'done', counts: counts({ groups: 1, mixed_groups: 1, assets_affected: 3 }) },
      { repository: 'Old disk', outcome: 'failed', message: 'Hearth could not be reached. Check the connection and try again.' },
    ]);
    assert.equal(r.tone, 'error');
    assert.equal(r.text, 'Found 1 group of duplicates (3 photos): 1 of both. Could not look in Old disk: Hearth could not be reached. Check the connection and try again.');
  });

  test('no folder at all', () => {
    assert.equal(describeDetection([]).tone, 'info');
  });
});

type Member = DuplicateGroup['assets'][number];
const member = (id: string, name: string, size: number, extra: Partial<Member['asset']> = {}): Member =>
  ({
    asset: { asset_id: id, original_filename: name, folder_path: '', width: 4000, height: 3000, is_deleted: false, ...extra },
    file_size: size,
    role: 'candidate',
  }) as Member;

const group = (assets: Member[], recommended: string | null, method: DuplicateGroup['method'] = 'phash') =>
  ({ group_id: 'g1', method, status: 'pending', recommended_keeper_asset_id: recommended, asset_count: assets.length, assets }) as unknown as DuplicateGroup;

describe('a group’s facts', () => {
  const g = group([member('a', 'big.jpg', 4_000_000), member('b', 'small.jpg', 300_000), member('c', 'tiny.jpg', 20_000, { is_deleted: true })], 'a');

  test('the keeper is the person’s choice while it is a member, else the suggestion', () => {
    assert.equal(keeperOf(g, undefined), 'a');
    assert.equal(keeperOf(g, 'b'), 'b');
    assert.equal(keeperOf(g, 'gone'), 'a');
    assert.equal(keeperOf(group([member('x', 'x.jpg', 1)], null), undefined), 'x');
  });

  test('the space recovered counts the others outside the Trash, and follows the chosen keeper', () => {
    assert.equal(recoverableWith(g, 'a'), 300_000);
    assert.equal(recoverableWith(g, 'b'), 4_000_000);
  });

  test('before a merge the page says where the others go', () => {
    assert.equal(keepOneExplanation(g, 'a'), 'The other photo goes to the Trash (300 KB); its albums, tags, rating and favourite move to the one you keep.');
    const three = group([member('a', 'a.jpg', 1000), member('b', 'b.jpg', 2000), member('c', 'c.jpg', 3000)], 'c');
    assert.match(keepOneExplanation(three, 'c'), /^The other 2 photos go to the Trash \(3\.0 KB\)/);
  });

  test('after a merge: kept, moved, recovered', () => {
    assert.equal(
      mergedSentence({ group_id: 'g1', keeper_asset_id: 'a', merged_duplicates: ['b'], recovered_bytes: 53_493 }, 'rocks.jpg'),
      'Kept rocks.jpg; 1 copy moved to the Trash. 53.5 KB recovered once the Trash is emptied (until then you can restore it from the Trash).',
    );
    assert.match(mergedSentence({ group_id: 'g1', keeper_asset_id: 'a', merged_duplicates: ['b', 'c'], recovered_bytes: 0 }, 'a.jpg'), /other copies were already in the Trash/);
  });

  test('the header’s summary', () => {
    const s = { pending_groups: 2, pending_assets: 4, recoverable_bytes: 1_500_000, recoverable_assets: 2, merged_groups: 0, dismissed_groups: 0, last_detected_at: null };
    assert.equal(summarySentence(s), '2 groups of duplicates, 4 photos. Keeping one photo of each group recovers 1.5 MB.');
    assert.equal(summarySentence({ ...s, pending_groups: 0, pending_assets: 0, recoverable_bytes: 0 }), 'No duplicates waiting for you.');
  });

  test('titles, resolutions, and copies with one file name told apart by folder', () => {
    assert.equal(groupTitle(g), 'Similar photos: big.jpg and 2 others');
    assert.equal(resolutionOf({ width: 4048, height: 3036 }), '4048 × 3036');
    assert.equal(resolutionOf({ width: null, height: null }), 'Size unknown');
    const twins = group([member('a', 'IMG_1.jpg', 10, { folder_path: 'phone' }), member('b', 'IMG_1.jpg', 10, { folder_path: 'backup/phone' })], 'a', 'exact');
    assert.equal(photoName(twins, twins.assets[1]!), 'IMG_1.jpg in backup/phone');
    assert.equal(photoName(g, g.assets[0]!), 'big.jpg');
    assert.equal(groupTitle(twins), 'Exact copies: IMG_1.jpg and 1 other');
  });
});

describe('paging through the groups', () => {
  const page = (offset: number, ids: string[], total: number): GroupPage => ({ groups: ids.map((id) => ({ group_id: id }) as DuplicateGroup), limit: 2, offset, total });

  test('the next offset follows the groups received, and stops at the total or at an empty page', () => {
    assert.equal(nextGroupOffset(page(0, ['a', 'b'], 5)), 2);
    assert.equal(nextGroupOffset(page(4, ['e'], 5)), undefined);
    assert.equal(nextGroupOffset(page(2, [], 5)), undefined, 'groups resolved meanwhile: an empty page ends the list');
  });

  test('a group that slid onto the next page (one before it was resolved) is shown once', () => {
    const ids = flattenGroups([page(0, ['a', 'b'], 5), page(2, ['b', 'c'], 4)]).map((g) => g.group_id);
    assert.deepEqual(ids, ['a', 'b', 'c']);
    assert.deepEqual(flattenGroups(undefined), []);
  });

  test('a resolved group leaves the pages at once, and the totals count it out', () => {
    const pages = withoutGroup([page(0, ['a', 'b'], 4), page(2, ['c', 'd'], 4)], 'b');
    assert.deepEqual(flattenGroups(pages).map((g) => g.group_id), ['a', 'c', 'd']);
    assert.deepEqual(pages.map((p) => p.total), [3, 3]);
  });
});
