/**
 * `npm run bench:ocr`: OCR throughput on the corpus's ocr folder (../shared/corpus/ocr, or HEARTH_CORPUS).
 *
 * One process, onnxruntime-node sessions created directly (test/server/ocr/onnx-infer.ts) with onnxruntime's
 * default threads, the pipeline run on this thread: the figures are the pipeline's own cost, without the ML
 * runtime's worker pool. One warm-up pass (session start, first allocations) is not counted; then `--rounds`
 * passes (default 3) over every image in the folder. Prints per image its size, lines and mean time, per stage
 * the mean milliseconds per image, and images per second overall; with labels.json in the folder also each
 * image's character error rate (test/server/ocr/text-distance.ts). The files are decoded from disk every time as
 * the engine reads a file: at 800 px for the one detector run, and again at up to 4096 px only when a line is
 * thinner than the recogniser's 48 px (features/ocr/recognise.ts).
 *
 * Options: `--rounds N`, `--dir PATH`, `--thumbnail` (feed each image as an 800-px WebP made beforehand, the
 * input the `ocr` indexer gives when the medium thumbnail exists, instead of the original file), `--indexer`
 * (what the `ocr` indexer reads from an original: the 800-px decode it shares with faces, made through the
 * indexers' PhotoPixels, and the up-to-4096-px decode for thin lines through it too; decoding timed). Both
 * modes read the same pixels since the detector runs once on the 800 px; `--indexer` checks that it stays so.
 *
 * Reading the figures: a 2-core VM shared with other people's test runs; take the best of a few runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { INDEX_PIXELS_MAX_SIDE, PhotoPixels } from '../../server/src/features/indexing/index.ts';
import { OCR_PARAMS, createOcr, emptyTimings, loadCharset, type OcrPixels, type OcrTimings } from '../../server/src/features/ocr/index.ts';
import { KEYS_PATH, onnxOcrInfer } from '../../test/server/ocr/onnx-infer.ts';
import { labelCer } from '../../test/server/ocr/text-distance.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    dir: { type: 'string', default: path.join(process.env.HEARTH_CORPUS ?? path.resolve(import.meta.dirname, '../../../shared/corpus'), 'ocr') },
    thumbnail: { type: 'boolean', default: false },
    indexer: { type: 'boolean', default: false },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const files = fs.readdirSync(values.dir).filter((f) => /\.(jpe?g|png|webp|heic|tiff?)$/i.test(f)).sort();
if (files.length === 0) throw new Error(`no images in ${values.dir}`);

// Ground truth when the folder has it (the corpus's labels.json): the CER column shows what a smaller input costs.
const labelsFile = path.join(values.dir, 'labels.json');
const labels = fs.existsSync(labelsFile) ? (JSON.parse(fs.readFileSync(labelsFile, 'utf8')) as Record<string, { text?: string[] }>) : {};

const inputs = new Map<string, string | Buffer>();
/** The indexer's input of an original (ocr-indexer.ts), decoded anew on every call as the other modes are. */
const indexerInput = async (file: string): Promise<OcrPixels> => {
  const pixels = new PhotoPixels();
  const detection = await pixels.get(file, INDEX_PIXELS_MAX_SIDE);
  const shrunk = Math.max(detection.width, detection.height) >= INDEX_PIXELS_MAX_SIDE;
  return { detection, crops: async () => (shrunk ? pixels.once(file, OCR_PARAMS.source.maxSide) : detection) };
};
const input = async (f: string) => (values.indexer ? indexerInput(path.join(values.dir, f)) : inputs.get(f)!);
for (const f of files) {
  const file = path.join(values.dir, f);
  inputs.set(f, values.thumbnail ? await sharp(file).autoOrient().resize(800, 800, { fit: 'inside' }).webp({ quality: 80 }).toBuffer() : file);
}

const onnx = await onnxOcrInfer();
const ocr = createOcr({ infer: onnx.infer, charset: loadCharset(KEYS_PATH) });
for (const f of files) await ocr.recognise(await input(f)); // warm-up

const timings = emptyTimings();
const perFile = new Map<string, { ms: number; lines: number; size: string; cer: string }>();
const start = performance.now();
for (let r = 0; r < rounds; r++) {
  for (const f of files) {
    const t = performance.now();
    const result = await ocr.recognise(await input(f), { timings });
    const truth = labels[f]?.text;
    const cer = truth ? labelCer(truth, result.lines.map((l) => l.text).join(' ')).toFixed(3) : '–';
    const entry = perFile.get(f) ?? { ms: 0, lines: result.lines.length, size: `${result.width}×${result.height}`, cer };
    entry.ms += performance.now() - t;
    perFile.set(f, entry);
  }
}
const elapsed = performance.now() - start;
await onnx.release();

const images = rounds * files.length;
const mode = values.indexer ? " (the indexer's input: the shared 800-px decode, up to 4096 px for thin lines)" : values.thumbnail ? ' (800-px WebP thumbnails)' : ' (original files)';
console.log(`OCR bench: ${files.length} images × ${rounds} rounds${mode}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
for (const [f, e] of perFile) console.log(`  ${f.padEnd(14)} ${e.size.padStart(10)}  ${String(e.lines).padStart(3)} lines  ${(e.ms / rounds).toFixed(0).padStart(6)} ms  CER ${e.cer}`);
console.log('ms per image by stage:');
for (const [stage, ms] of Object.entries(timings) as [keyof OcrTimings, number][]) console.log(`  ${stage.padEnd(14)} ${(ms / images).toFixed(1).padStart(8)}`);
console.log(`images/s: ${((images * 1000) / elapsed).toFixed(2)} (${(elapsed / images).toFixed(0)} ms per image)`);
