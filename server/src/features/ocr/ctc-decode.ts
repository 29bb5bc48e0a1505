/**
 * CTC greedy decoding of the recogniser's output `[N, T, C]` (C = 6625 for the PP-OCR "ch" dictionary): per time
 * step the most likely class, repeats collapsed, blanks dropped. Class 0 is the CTC blank, class i in 1..K is
 * line i−1 of ppocr_keys_v1.txt (K = 6623 lines), and class K+1 is a space, which the dictionary file lacks.
 * A line's confidence is the mean probability of the characters kept (PaddleOCR's), 0 when nothing is kept.
 *
 * Spaces: the "ch" recogniser was trained mostly on Chinese, and between English words it usually lets the blank
 * win, with the space only second ("Reduceyourrisk…"). Inside a word the space's probability stays under 0.02, at
 * a gap between words it peaks at 0.1–0.25 (measured on the WHO poster of the corpus). So a run of blanks in which the space reaches `spaceFloor` becomes a
 * space (not between two CJK characters, which are written without them). Such a rescued space is not counted in
 * the confidence: the recogniser did not choose it.
 */
import fs from 'node:fs';
import type { Tensor } from './types.ts';
import { ctcGreedySteps } from '../../adapters/ml/index.ts';

/** Index → character: blank first, then the dictionary's lines, then the space. */
export type Charset = readonly string[];

export function charsetFromKeys(keysText: string): Charset {
  const lines = keysText.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop(); // a trailing newline is not an empty character
  return ['', ...lines, ' '];
}

export function loadCharset(keysPath: string): Charset {
  return charsetFromKeys(fs.readFileSync(keysPath, 'utf8'));
}

export interface Decoded {
  text: string;
  confidence: number;
}

/**
 * The recogniser's output `[N, T, C]` reduced to what greedy decoding reads: per time step (row-major `[N, T]`) the
 * most likely class (the first of equal ones), its probability, and the space's probability (0 when the charset
 * has no space). 12 bytes a step instead of 4·C (26.5 kB): the inference worker makes this where the tensor is made
 * (adapters/ml/inference-worker.ts, reduction `ctc-greedy`, the same loop) and sends it instead of the tensor.
 */
export interface CtcSteps {
  /** `[N, T, C]` of the tensor reduced. */
  dims: [number, number, number];
  best: Int32Array;
  bestP: Float32Array;
  spaceP: Float32Array;
}

/** The class index of the space in a charset (its last class), or -1 when it has none. */
export function spaceIndex(charset: Charset): number {
  return charset.at(-1) === ' ' ? charset.length - 1 : -1;
}

/** `[N, T, C]` probabilities → CtcSteps, on this thread (the worker's `ctc-greedy` reduction runs the same kernel). */
export function ctcSteps(output: Tensor, space: number): CtcSteps {
  const [n, steps, classes] = output.dims as [number, number, number];
  return { dims: [n, steps, classes], ...ctcGreedySteps(output.data as ArrayLike<number>, output.dims, space) };
}

/** Han, kana, Hangul and CJK punctuation: scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Decodes item `n` of a `[N, T, C]` probability tensor. `spaceFloor` (0..1, Infinity to turn it off) is the space
 * probability at which a run of blanks between two characters becomes a space.
 */
export function ctcGreedyDecode(output: Tensor, n: number, charset: Charset, spaceFloor = Infinity): Decoded {
  return decodeSteps(ctcSteps(output, spaceIndex(charset)), n, charset, spaceFloor);
}

/** Decodes item `n` of reduced steps (ctcSteps), as ctcGreedyDecode does the whole tensor. */
export function decodeSteps(reduced: CtcSteps, n: number, charset: Charset, spaceFloor = Infinity): Decoded {
  const [, steps, classes] = reduced.dims;
  if (classes !== charset.length) throw new RangeError(`recogniser gives ${classes} classes, the charset has ${charset.length}`);
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = -1;
  const space = spaceIndex(charset);
  let gapHasSpace = false;
  let last = ''; // the last character written (a whole code point, unlike text.at(-1))
  for (let t = 0; t < steps; t++) {
    const s = n * steps + t;
    const best = reduced.best[s]!;
    const bestP = reduced.bestP[s]!;
    if (best === 0) {
      if (space > 0 && reduced.spaceP[s]! >= spaceFloor) gapHasSpace = true;
    } else if (best !== previous) {
      const char = charset[best]!;
      if (gapHasSpace && last !== '' && last !== ' ' && char !== ' ' && !(CJK.test(last) && CJK.test(char))) text += ' ';
      text += char;
      last = char;
      sum += bestP;
      kept++;
    }
    if (best !== 0) gapHasSpace = false;
    previous = best;
  }
  return { text, confidence: kept === 0 ? 0 : sum / kept };
}
