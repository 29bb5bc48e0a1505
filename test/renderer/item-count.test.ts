/** A pin's count says what its items are: a pin of one video is "1 video", not "1 photo" (features/assistant-board). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { itemNoun, photoCount } from '../../renderer/src/features/assistant-board/item-count.ts';

test('a pin counts videos as videos, photos as photos, and a mix as both', () => {
  assert.equal(photoCount(1, { VIDEO: 1 }), '1 video');
  assert.equal(photoCount(3, { VIDEO: 3 }), '3 videos');
  assert.equal(photoCount(1, { PHOTO: 1 }), '1 photo');
  assert.equal(photoCount(4, { PHOTO: 3, VIDEO: 1 }), '4 photos and videos');
  assert.equal(photoCount(2), '2 photos');
  assert.equal(itemNoun(0, {}), 'photos');
});
