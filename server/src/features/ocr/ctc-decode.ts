/**
 * CTC greedy decoding of the recogniser's output `[N, T, C]` (C = 6625 for the PP-OCR "ch" dictionary): per time
 * step the most likely class, repeats collapsed, blanks dropped. Class 0 is the CTC blank, class i in 1..K is
 * line i−1 of ppocr_keys_v1.txt (K = 6623 lines), and class K+1 is a space, which the dictionary file lacks.
 * A line's confidence is the mean probability of the characters kept (PaddleOCR's), 0 when nothing is kept.
 */
import fs from 'node:fs';
import type { Tensor } from './types.ts';

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

/** Decodes item `n` of a `[N, T, C]` probability tensor. */
export function ctcGreedyDecode(output: Tensor, n: number, charset: Charset): Decoded {
  const [, steps, classes] = output.dims as [number, number, number];
  if (classes !== charset.length) throw new RangeError(`recogniser gives ${classes} classes, the charset has ${charset.length}`);
  let text = '';
  let sum = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const base = (n * steps + t) * classes;
    let best = 0;
    let bestP = output.data[base]!;
    for (let c = 1; c < classes; c++) {
      const p = output.data[base + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += charset[best]!;
      sum += bestP;
      kept++;
    }
    previous = best;
  }
  return { text, confidence: kept === 0 ? 0 : sum / kept };
}
