/**
 * CTC greedy decoding on small hand-made outputs, and the real dictionary's layout (blank, 6623 lines, space).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { charsetFromKeys, ctcGreedyDecode, loadCharset } from '../../../server/src/features/ocr/ctc-decode.ts';
import type { Tensor } from '../../../server/src/features/ocr/types.ts';
import { KEYS_PATH } from './onnx-infer.ts';

const CHARSET = charsetFromKeys('a\nb\n'); // ['', 'a', 'b', ' ']

/** One item per row of class indices; the chosen class gets probability p (default 0.9), the rest share the remainder. */
function output(rows: { cls: number; p?: number }[][]): Tensor {
  const steps = rows[0]!.length, classes = CHARSET.length;
  const data = new Float32Array(rows.length * steps * classes);
  rows.forEach((row, n) =>
    row.forEach(({ cls, p = 0.9 }, t) => {
      for (let c = 0; c < classes; c++) data[(n * steps + t) * classes + c] = c === cls ? p : (1 - p) / (classes - 1);
    }),
  );
  return { data, dims: [rows.length, steps, classes] };
}
const seq = (...classes: number[]) => classes.map((cls) => ({ cls }));

describe('CTC greedy decoding', () => {
  test('repeats collapse, a blank between two equal classes keeps both, blanks are dropped', () => {
    const out = output([seq(1, 1, 0, 1, 2, 2, 0, 0)]);
    assert.equal(ctcGreedyDecode(out, 0, CHARSET).text, 'aab');
  });

  test('the last class is a space; confidence is the mean probability of the kept characters', () => {
    const out = output([[{ cls: 1, p: 0.8 }, { cls: 1, p: 0.99 }, { cls: 3, p: 0.6 }, { cls: 0 }, { cls: 2, p: 1 }]]);
    const decoded = ctcGreedyDecode(out, 0, CHARSET);
    assert.equal(decoded.text, 'a b');
    // Kept: 'a' at its first step (0.8), the space (0.6) and 'b' (1.0); the repeat's 0.99 is not a character.
    assert.ok(Math.abs(decoded.confidence - (0.8 + 0.6 + 1) / 3) < 1e-6);
  });

  test('all blanks: empty text with confidence 0; items of a batch decode independently', () => {
    const out = output([seq(0, 0, 0), seq(2, 0, 1)]);
    assert.deepEqual(ctcGreedyDecode(out, 0, CHARSET), { text: '', confidence: 0 });
    assert.equal(ctcGreedyDecode(out, 1, CHARSET).text, 'ba');
  });

  test('a blank gap where the space is runner-up above the floor becomes one space; not at the ends, not between CJK', () => {
    // Blank wins everywhere between the characters; the space reaches 0.2 in the gap after "ab", 0.01 after "a".
    const blankWithSpace = (p: number) => ({ cls: 0, p: 0.7, space: p });
    const rows: { cls: number; p?: number; space?: number }[] = [{ cls: 1 }, blankWithSpace(0.01), { cls: 2 }, blankWithSpace(0.2), blankWithSpace(0.25), { cls: 1 }, blankWithSpace(0.3)];
    const steps = rows.length, classes = CHARSET.length;
    const data = new Float32Array(steps * classes);
    rows.forEach((r, t) => {
      const space = r.space ?? 0.02;
      for (let c = 0; c < classes; c++) data[t * classes + c] = c === r.cls ? (r.p ?? 0.9) : c === 3 ? space : (1 - (r.p ?? 0.9) - space) / 2;
    });
    const out = { data, dims: [1, steps, classes] };
    assert.equal(ctcGreedyDecode(out, 0, CHARSET).text, 'aba', 'off by default');
    const rescued = ctcGreedyDecode(out, 0, CHARSET, 0.05);
    assert.equal(rescued.text, 'ab a');
    assert.ok(Math.abs(rescued.confidence - 0.9) < 1e-6, 'a rescued space does not count in the confidence');

    const cjk = charsetFromKeys('港\n区\n');
    assert.equal(ctcGreedyDecode({ data, dims: [1, steps, classes] }, 0, cjk, 0.05).text, '港区港');
  });

  test('a recogniser with another class count is refused, not misread', () => {
    assert.throws(() => ctcGreedyDecode({ data: new Float32Array(10), dims: [1, 2, 5] }, 0, CHARSET), RangeError);
  });

  test('ppocr_keys_v1.txt: blank 0, line i−1 at index i, 6624 a space (6625 classes, as the recogniser gives)', () => {
    const charset = loadCharset(KEYS_PATH);
    const lines = fs.readFileSync(KEYS_PATH, 'utf8').split('\n');
    assert.equal(charset.length, 6625);
    assert.equal(charset[0], '');
    assert.equal(charset[1], lines[0]);
    assert.equal(charset[6623], lines[6622]);
    assert.equal(charset[6624], ' ');
  });
});
