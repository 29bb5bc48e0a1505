/**
 * One date format on every screen (issue 24 point 5): renderer/src/lib/dates.ts writes dates in the
 * browser's locale through Intl.DateTimeFormat, the capture times (lib/capture-time.ts), event ranges
 * and upload times go through it, and no other file of the web UI formats a date on its own (no bare
 * toLocaleDateString, toLocaleTimeString or Intl.DateTimeFormat, no month names written by hand).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { formatDate, formatDateRange, formatDateTime, formatTime } from '../../renderer/src/lib/dates.ts';
import { formatCaptureTimeShort } from '../../renderer/src/lib/capture-time.ts';
import { dateRange } from '../../renderer/src/features/photo-events/event-dates.ts';

/** Intl puts thin and narrow no-break spaces around a range's dash and before AM/PM: compared as plain spaces. */
const plain = (s: string) => s.replace(/\s/g, ' ');
const SRC = path.resolve(import.meta.dirname, '../../renderer/src');

test("dates in the locale's medium style, times short, ranges by Intl", () => {
  const t = Date.parse('2007-04-19T17:03:15Z');
  assert.equal(formatDate(t, { locale: 'en-US', utc: true }), 'Apr 19, 2007');
  assert.equal(formatDate(t, { locale: 'en-GB', utc: true }), '19 Apr 2007');
  assert.equal(formatDate(t, { locale: 'de-DE', utc: true }), '19.04.2007');
  assert.equal(plain(formatDateTime('2007-04-19T17:03:15Z', { locale: 'en-US', utc: true })), 'Apr 19, 2007, 5:03 PM');
  assert.equal(formatTime(t, { locale: 'en-GB', utc: true }), '17:03');
  assert.equal(plain(formatDateRange(Date.parse('2024-06-03T10:00:00Z'), Date.parse('2024-06-09T10:00:00Z'), { locale: 'en-US', utc: true })), 'Jun 3 – 9, 2024');
  assert.equal(formatDate(null), '');
  assert.equal(formatDate('not a date'), '');
});

test('a capture time, an event and an upload time read alike', () => {
  const capture = formatCaptureTimeShort({ taken_time: '2024-06-03T10:00:00.000Z', capture_offset_minutes: null }, 'en-US');
  const event = dateRange(Date.parse('2024-06-03T10:00:00Z'), Date.parse('2024-06-03T11:00:00Z'), null, 'en-US');
  const upload = formatDateTime('2024-06-03T10:00:00Z', { locale: 'en-US', utc: true });
  assert.equal(event, 'Jun 3, 2024');
  assert.ok(capture.startsWith(event), capture);
  assert.ok(upload.startsWith(event), upload);
});

test('no screen formats a date by itself: lib/dates.ts does', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(SRC);
  const own = path.join(SRC, 'lib/dates.ts');
  const offenders: string[] = [];
  for (const f of files) {
    if (f === own) continue;
    const text = fs.readFileSync(f, 'utf8');
    for (const [what, re] of [
      ['toLocaleDateString', /\.toLocaleDateString\(/],
      ['toLocaleTimeString', /\.toLocaleTimeString\(/],
      ['a Date toLocaleString with date options', /\.toLocaleString\([^)]*(dateStyle|timeStyle|month|weekday)/],
      ['its own Intl.DateTimeFormat', /new Intl\.DateTimeFormat\(/],
      ['month names by hand', /'January',\s*'February'/],
    ] as const) {
      if (re.test(text)) offenders.push(`${path.relative(SRC, f)}: ${what}`);
    }
  }
  assert.deepEqual(offenders, []);
});
