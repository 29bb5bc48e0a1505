/**
 * The OCR pipeline on every file of ../shared/corpus/ocr against its labels.json: character error rate per file
 * (labelled lines against the OCR text, see text-distance.ts), printed, with a ceiling per file measured on this
 * pipeline. "strict" compares exact characters (after NFKC); "search" compares what a text search will compare
 * (case, accents and spaces ignored): the "ch" PP-OCRv4 recogniser drops most spaces between English words and
 * has no accented Latin letters (MANIFEST §5), which costs strict CER but not findability.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createOcr, loadCharset, type OcrEngine, type OcrResult } from '../../../server/src/features/ocr/index.ts';
import { corpusPath, CORPUS } from '../media/corpus.ts';
import { KEYS_PATH, onnxOcrInfer, type OnnxOcr } from './onnx-infer.ts';
import { labelCer, searchForm } from './text-distance.ts';

interface OcrLabel {
  text: string[];
  language: string;
  expected_metadata: { width: number; height: number };
}
const LABELS = JSON.parse(fs.readFileSync(`${CORPUS}/ocr/labels.json`, 'utf8')) as Record<string, OcrLabel>;

/**
 * Ceilings, measured (strict / search CER on this pipeline, Node 22, onnxruntime-node 1.30 CPU) with a margin
 * for run-to-run differences of the thread pool's float sums (none were seen over three runs). Since the
 * detector reads every image once at 800 px (recognise.ts; before, a second time at up to 960 px where text was
 * found), ocr_01 lost 3 more spaces, ocr_02 one more character, ocr_07 one character of a vertical column;
 * ocr_06 gained. The figures before are given where they changed.
 */
const CEILING: Record<string, { strict: number; search: number }> = {
  // measured 0.047 / 0.003 (0.023 before): every word right, 13 spaces between words missing (7 before) ("Cleanhandswithsoap")
  'ocr_01.png': { strict: 0.06, search: 0.02 },
  // measured 0.093 / 0.013 (0.081 before): accents lost (É, é, â), "1er" read "ler", "LoUVRE"
  'ocr_02.jpg': { strict: 0.11, search: 0.03 },
  // measured 0.080 / 0.091: "西" and "315" are separate boxes (the label joins them with a space)
  'ocr_03.jpg': { strict: 0.1, search: 0.11 },
  // measured 0.250 / 0.270: "ポイ捨て", "できれいな", "を" missed: ppocr_keys_v1.txt has no kana at all (nor 捨)
  'ocr_04.jpg': { strict: 0.28, search: 0.3 },
  // measured 0.000 / 0.000
  'ocr_05.jpg': { strict: 0.02, search: 0.02 },
  // measured 0.034 / 0.037 (0.069 / 0.037 before): "MAIN SIAY", "RODEO CLOWN iPA"
  'ocr_06.jpg': { strict: 0.06, search: 0.06 },
  // measured 0.857 / 0.857 (0.714 before): vertical signs, read as stacked cells: "番榨J"; the 800-px detector's
  // box of that column stops below its first character "一" (at 960 px it did not). The "ch" dictionary has no
  // kana ("キリン", "り" cannot come out) and has 榨, not Japanese 搾. Turned by 90° only, as PaddleOCR reads
  // them, it was 0.857 too, but with one character ("番").
  'ocr_07.jpg': { strict: 0.9, search: 0.9 },
};

describe('OCR on the corpus (PP-OCRv4 det + cls + rec, onnxruntime-node)', () => {
  let onnx: OnnxOcr;
  let ocr: OcrEngine;
  const results = new Map<string, OcrResult>();
  before(async () => {
    onnx = await onnxOcrInfer();
    ocr = createOcr({ infer: onnx.infer, charset: loadCharset(KEYS_PATH) });
  });
  after(() => onnx?.release());

  for (const [file, label] of Object.entries(LABELS)) {
    test(`${file} (${label.language}): CER under the measured ceiling`, async () => {
      const result = await ocr.recognise(corpusPath('ocr', file));
      results.set(file, result);
      const text = result.lines.map((l) => l.text).join(' ');
      const strict = labelCer(label.text, text);
      const search = labelCer(label.text, text, searchForm);
      console.log(`${file}: CER strict ${strict.toFixed(3)}, search ${search.toFixed(3)}, ${result.lines.length} lines: ${JSON.stringify(text)}`);
      assert.ok(strict <= CEILING[file]!.strict, `${file}: strict CER ${strict.toFixed(3)} > ${CEILING[file]!.strict}`);
      assert.ok(search <= CEILING[file]!.search, `${file}: search CER ${search.toFixed(3)} > ${CEILING[file]!.search}`);

      // Boxes are in pixels of the upright image the lines were cut from: every sign here has a line thinner than
      // the recogniser's 48 px at 800 px, so that is the image as given, capped at 4096 on the longest side.
      const scale = Math.min(1, 4096 / Math.max(label.expected_metadata.width, label.expected_metadata.height));
      assert.equal(result.width, Math.round(label.expected_metadata.width * scale));
      assert.equal(result.height, Math.round(label.expected_metadata.height * scale));
      for (const line of result.lines) {
        assert.equal(line.box.length, 4);
        for (const p of line.box) assert.ok(p.x >= 0 && p.y >= 0 && p.x <= result.width && p.y <= result.height);
        assert.ok(line.confidence >= 0.5 && line.confidence <= 1);
      }
    });
  }

  test('Latin and CJK both come out: the Chinese and Japanese signs with their English', () => {
    const texts = (file: string) => results.get(file)!.lines.map((l) => l.text);
    assert.ok(texts('ocr_03.jpg').includes('愚园路'), JSON.stringify(texts('ocr_03.jpg')));
    assert.ok(texts('ocr_03.jpg').includes('Yuyuan Rd.'));
    const japanese = texts('ocr_04.jpg').join(' ');
    for (const word of ['禁止', '港区', 'MINATO']) assert.ok(japanese.includes(word), `${word} in ${japanese}`);
  });

  test('vertical Japanese signs are read as columns of upright characters, not sideways', () => {
    const texts = results.get('ocr_07.jpg')!.lines.map((l) => l.text);
    // Two characters of one column in their order (read turned by 90°, the column gives one character at most).
    assert.ok(texts.some((t) => t.includes('番榨')), JSON.stringify(texts));
  });

  test('lines come in reading order: top to bottom, left to right within a row', () => {
    const order = results.get('ocr_03.jpg')!.lines.map((l) => l.text);
    // Row 1: 西, 愚园路, 东; row 2: 315, 309; row 3: W, Yuyuan Rd., E.
    assert.deepEqual(order, ['西', '愚园路', '东', '315', '309', 'W', 'Yuyuan Rd.', 'E']);
    const who = results.get('ocr_01.png')!.lines.map((l) => l.text);
    assert.match(who[0]!, /^Reduce/);
    assert.match(who.at(-1)!, /Organization/);
  });
});
