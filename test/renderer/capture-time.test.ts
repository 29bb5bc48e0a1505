/**
 * Capture times in the photo's own zone (renderer/src/lib/capture-time.ts) and the timeline's days
 * built from them (timeline-entry.ts + timeline-layout.ts): a photo taken at 11:03 −06:00 shows 11:03
 * and lies on its own day wherever the viewer is, and items without a capture time go under "No date",
 * never "Today".
 */
process.env.TZ = 'Asia/Tokyo'; // far from the photos' zones: a conversion into it would show

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCaptureTime, formatCaptureTimeShort, formatOffset, wallClockMs } from '../../renderer/src/lib/capture-time.ts';
import { dayLabel, layoutTimeline, NO_DATE, type LayoutOptions } from '../../renderer/src/photos/timeline-layout.ts';
import { GALLERY_ENTRY, type DatedItem } from '../../renderer/src/photos/timeline-entry.ts';

/** What the server answers for a row (browse.service.ts): best_ts_ms is taken_time, else upload_time. */
function item(id: string, taken: string | null, offset: number | null, uploaded = '2025-06-01T09:00:00.000Z'): DatedItem {
  return { id, best_ts_ms: Date.parse(taken ?? uploaded), media_item: { primary_asset: { taken_time: taken, capture_offset_minutes: offset } } };
}

test('a capture time is shown on the photo\'s own clock with its offset, whatever the viewer\'s zone', () => {
  // The IPTC example of the corpus: 2007:04:19 11:03:15 −06:00, i.e. 17:03:15Z.
  const a = { taken_time: '2007-04-19T17:03:15.000Z', capture_offset_minutes: -360 };
  assert.equal(formatCaptureTime(a, 'en-US'), 'Apr 19, 2007, 11:03 AM (UTC\u221206:00)');
  assert.equal(formatCaptureTimeShort(a, 'en-US'), 'Apr 19, 2007, 11:03 AM');
  // A half-hour zone east of UTC, past midnight UTC: the photo's day, not UTC's.
  assert.equal(formatCaptureTime({ taken_time: '2024-01-01T20:00:00.000Z', capture_offset_minutes: 330 }, 'en-US'), 'Jan 2, 2024, 1:30 AM (UTC+05:30)');
  // UTC itself is an offset like any other.
  assert.equal(formatCaptureTime({ taken_time: '2023-06-07T12:45:55.000Z', capture_offset_minutes: 0 }, 'en-US'), 'Jun 7, 2023, 12:45 PM (UTC+00:00)');
});

test('a capture time without a recorded offset is shown as the camera recorded it, not converted', () => {
  // Zone-less wall clock 2023:06:07 13:45:55, written by the server as if it were UTC.
  const a = { taken_time: '2023-06-07T13:45:55.000Z', capture_offset_minutes: null };
  assert.equal(formatCaptureTime(a, 'en-US'), 'Jun 7, 2023, 1:45 PM');
  assert.equal(wallClockMs(a.taken_time, null), Date.UTC(2023, 5, 7, 13, 45, 55));
});

test('no capture time gives no text (the caller says "Unknown" or "No date")', () => {
  assert.equal(formatCaptureTime({ taken_time: null, capture_offset_minutes: null }), '');
  assert.equal(formatCaptureTime({ taken_time: 'not a date', capture_offset_minutes: 60 }), '');
  assert.equal(wallClockMs(null, 60), null);
});

test('offsets are written as UTC±hh:mm', () => {
  assert.deepEqual([0, -360, 330, 345, -570, 840].map(formatOffset), ['UTC+00:00', 'UTC\u221206:00', 'UTC+05:30', 'UTC+05:45', 'UTC\u221209:30', 'UTC+14:00']);
});

const OPTIONS: LayoutOptions = { width: 1000, rowHeight: 160, gap: 4, dayGap: 8, dayHeader: 28, monthHeader: 48, groupByDay: true };

test('day headers are the photos\' own days, and undated items are under "No date", never "Today"', () => {
  const now = new Date(2025, 5, 1, 12, 0); // the viewer's 1 June 2025, noon
  const items = [
    // Uploaded today without a capture time: the server sorts it by its upload time, first.
    item('undated-1', null, null),
    item('undated-2', null, null),
    // 23:30 on 19 April in Mexico City is 05:30Z on the 20th and 14:30 on the 20th in Tokyo: still the 19th.
    item('mexico-late', '2007-04-20T05:30:00.000Z', -360),
    item('mexico-morning', '2007-04-19T17:03:15.000Z', -360),
    // 00:30 on 19 April in Auckland is 11:30Z on the 18th: the 19th, with the Mexican photos.
    item('auckland', '2007-04-18T12:30:00.000Z', 720),
    // A camera clock without zone at 00:10 on 18 April: the 18th.
    item('camera-clock', '2007-04-18T00:10:00.000Z', null),
  ].sort((a, b) => b.best_ts_ms - a.best_ts_ms);
  const layout = layoutTimeline(items, OPTIONS, undefined, GALLERY_ENTRY);
  // A day's label sits over its first tile; the day runs to the next label.
  const labels = layout.rows.flatMap((r) => (r.kind === 'tiles' ? r.days : []));
  const headers = labels.map((d, n) => ({
    label: dayLabel(d.ts, now, 'en-US'),
    ids: items.slice(d.firstIndex, labels[n + 1]?.firstIndex ?? items.length).map((i) => i.id).sort(),
  }));
  assert.deepEqual(headers, [
    { label: NO_DATE, ids: ['undated-1', 'undated-2'] },
    { label: 'Thu, April 19, 2007', ids: ['auckland', 'mexico-late', 'mexico-morning'] },
    { label: 'Wed, April 18, 2007', ids: ['camera-clock'] },
  ]);
  assert.ok(!headers.some((h) => h.label === 'Today'), 'nothing dated by its upload');
});

test('"Today" and "Yesterday" are the viewer\'s calendar days, compared with the photo\'s own day', () => {
  const now = new Date(2025, 5, 1, 0, 5); // five past midnight on 1 June where the viewer is
  // Taken at 23:50 on 31 May in New York (−04:00): yesterday, though it is already 1 June in UTC.
  const ny = GALLERY_ENTRY.ts(item('ny', '2025-06-01T03:50:00.000Z', -240))!;
  assert.equal(dayLabel(ny, now, 'en-US'), 'Yesterday');
  const here = GALLERY_ENTRY.ts(item('here', '2025-06-01T00:01:00.000Z', 0))!;
  assert.equal(dayLabel(here, now, 'en-US'), 'Today');
  assert.equal(dayLabel(null, now, 'en-US'), 'No date');
  // This year without the year, another year with it.
  assert.equal(dayLabel(Date.UTC(2025, 2, 3, 10), now, 'en-US'), 'Mon, March 3');
});
