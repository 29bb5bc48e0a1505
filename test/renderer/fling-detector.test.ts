/**
 * When the timeline takes a scroll for a fling (renderer/src/photos/fling-detector.ts): from where
 * the window is at each frame, on frames of even and of uneven length (a busy phone rendering new
 * rows), at a fling's speed and at a reader's, through the stop and a jump.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlingDetector, SETTLE_MS } from '../../renderer/src/photos/fling-detector.ts';

const SCREEN = 860;

/**
 * Feeds `detector` the frames of a scroll at `speed` px/s from `y0` for `ms`, position from time (a
 * late frame jumps further), frame lengths taken in turn from `frames`; then `stillMs` of frames
 * of `frames` length where the window stays. Returns whether it was flung at each frame.
 */
function scroll(detector: FlingDetector, { speed, ms, frames, stillMs = 0, t0 = 0, y0 = 0 }: { speed: number; ms: number; frames: number[]; stillMs?: number; t0?: number; y0?: number }) {
  const flung: { t: number; y: number; fast: boolean }[] = [];
  let t = t0;
  let i = 0;
  let continued = false;
  while (t - t0 <= ms + stillMs) {
    const y = y0 + (speed * Math.min(t - t0, ms)) / 1000;
    flung.push({ t, y, fast: detector.sample(t, y, SCREEN, continued) });
    continued = true;
    t += frames[i++ % frames.length]!;
  }
  return flung;
}

test('a fling at 4000 px/s on even frames is one from its second frame until it stops', () => {
  const frames = scroll(new FlingDetector(), { speed: 4000, ms: 2500, frames: [16.7], stillMs: 1000 });
  const moving = frames.filter((f) => f.t <= 2500);
  assert.equal(moving[0]!.fast, false, 'the first frame has nothing to be measured from');
  assert.ok(moving.slice(1).every((f) => f.fast), 'flung from the second frame to the last moving one');
  const endedAt = frames.find((f) => f.t > 2500 && !f.fast)!.t;
  // Not at once (the span still holds a few moving frames), and soon.
  assert.ok(endedAt - 2500 >= SETTLE_MS / 2 && endedAt - 2500 <= SETTLE_MS + 100, `ended ${Math.round(endedAt - 2500)} ms after the stop`);
  assert.ok(frames.filter((f) => f.t > endedAt).every((f) => !f.fast), 'stays ended while the window stays');
});

test('on a busy device, frames of 16, 76 and 266 ms in turn (and a frame of 700 ms), the fling holds from its second frame to the stop', () => {
  const frames = scroll(new FlingDetector(), { speed: 4000, ms: 2500, frames: [16, 76, 266, 16, 76, 266, 700], stillMs: 2000 });
  const moving = frames.filter((f) => f.t <= 2500);
  assert.ok(moving.slice(1).every((f) => f.fast), `flung at every moving frame: ${moving.map((f) => Number(f.fast)).join('')}`);
  const after = frames.filter((f) => f.t > 2500);
  assert.equal(after.at(-1)!.fast, false, 'ended once the window stayed');
});

test('reading, a screen a second or less, is never a fling, on even or uneven frames', () => {
  for (const frames of [[16.7], [16, 76, 266], [33, 250]]) {
    const seen = scroll(new FlingDetector(), { speed: SCREEN, ms: 5000, frames });
    assert.ok(seen.every((f) => !f.fast), `frames ${frames.join('/')}`);
  }
});

test('a jump seen in the first frame after a rest is held for that frame only; moving on fast from there is a fling', () => {
  const detector = new FlingDetector();
  assert.equal(detector.sample(0, 0, SCREEN, false), false);
  // Two seconds later, 20 screens further (a scrubber's jump, or a slow device's first long frames of a fling).
  assert.equal(detector.sample(2000, 20 * SCREEN, SCREEN, false), true, 'held: nothing says yet which it is');
  assert.equal(detector.sample(2016, 20 * SCREEN, SCREEN, true), false, 'still after the jump: thumbnails load');
  assert.equal(detector.sample(2032, 20 * SCREEN + 100, SCREEN, true), true, '100 px in 16 ms (6250 px/s)');
});

test('a small move after a rest (a wheel notch) is not held', () => {
  const detector = new FlingDetector();
  assert.equal(detector.sample(0, 0, SCREEN, false), false);
  assert.equal(detector.sample(5000, 100, SCREEN, false), false);
  assert.equal(detector.sample(5016, 120, SCREEN, true), false);
});

test('the first frames of a fling on a slow device, a screen away at the first reading, are held and the fling goes on', () => {
  const detector = new FlingDetector();
  assert.equal(detector.sample(0, 0, SCREEN, false), false);
  // 4000 px/s; the first reading comes 300 ms in (1200 px), then frames of 250 ms.
  assert.equal(detector.sample(300, 1200, SCREEN, false), true);
  for (let t = 550; t < 2500; t += 250) assert.equal(detector.sample(t, 4 * t, SCREEN, true), true, `at ${t} ms`);
});

test('a fling going up is a fling too', () => {
  const frames = scroll(new FlingDetector(), { speed: -4000, ms: 1000, frames: [16.7], y0: 20000 });
  assert.ok(frames.slice(1).every((f) => f.fast));
});
