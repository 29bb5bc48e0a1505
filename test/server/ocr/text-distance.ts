/**
 * How far OCR output is from the ground truth, for the corpus tests and the bench.
 *
 * The labels list the text a person transcribed from each photo, which is not all of the text in it (a bar's
 * chalkboards carry dozens of words; the labels name four). So each labelled line is matched against the best
 * stretch of the OCR output (semi-global edit distance: free start and end in the output), and the character
 * error rate is the sum of those distances over the total length of the labelled lines. Text the labels do not
 * mention costs nothing; a labelled line that was not found costs its whole length.
 */

/** Edit distance between `needle` and the best-matching substring of `haystack`. */
export function substringDistance(needle: string, haystack: string): number {
  const a = [...needle], b = [...haystack];
  let prev = new Array<number>(b.length + 1).fill(0); // starting anywhere in the haystack is free
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1);
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return Math.min(...prev); // and so is ending anywhere
}

/** Character error rate of the labelled lines against the OCR text (see above), 0 = every labelled character read. */
export function labelCer(labelLines: readonly string[], ocrText: string, normalise: (s: string) => string = (s) => s): number {
  const hay = normalise(ocrText);
  let errors = 0, length = 0;
  for (const line of labelLines) {
    const n = normalise(line);
    errors += substringDistance(n, hay);
    length += [...n].length;
  }
  return length === 0 ? 0 : errors / length;
}

/** What a text search will compare: NFKC, case folded, accents and whitespace removed. */
export function searchForm(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}
