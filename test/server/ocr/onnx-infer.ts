/**
 * The OCR pipeline's `infer`, made of onnxruntime-node sessions on ../shared/models/ocr-ppocrv4 (or
 * HEARTH_MODELS). The server gets the same function from the ML runtime's worker pool; the tests and the bench
 * call onnxruntime directly on this thread, with its default thread settings.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { OcrInfer, OcrModel } from '../../../server/src/features/ocr/index.ts';

const require = createRequire(import.meta.url);
// onnxruntime-node is loaded with require (as the ML runtime does): its ESM entry re-exports a CommonJS build.
const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const MODELS = process.env.HEARTH_MODELS ?? path.resolve(repoRoot, '../shared/models');
export const OCR_DIR = path.join(MODELS, 'ocr-ppocrv4');
export const KEYS_PATH = path.join(OCR_DIR, 'ppocr_keys_v1.txt');

const FILES: Record<OcrModel, string> = {
  det: 'ch_PP-OCRv4_det_infer.onnx',
  cls: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  rec: 'ch_PP-OCRv4_rec_infer.onnx',
};

export interface OnnxOcr {
  infer: OcrInfer;
  release(): Promise<void>;
}

export async function onnxOcrInfer(): Promise<OnnxOcr> {
  const sessions = {} as Record<OcrModel, import('onnxruntime-node').InferenceSession>;
  for (const model of Object.keys(FILES) as OcrModel[]) {
    sessions[model] = await ort.InferenceSession.create(path.join(OCR_DIR, FILES[model]), { logSeverityLevel: 3 });
  }
  return {
    async infer(model, input) {
      const session = sessions[model];
      const feeds = { [session.inputNames[0]!]: new ort.Tensor('float32', input.data, input.dims) };
      const out = await session.run(feeds);
      const tensor = out[session.outputNames[0]!]!;
      return { data: tensor.data as Float32Array, dims: [...tensor.dims] };
    },
    async release() {
      for (const s of Object.values(sessions)) await s.release();
    },
  };
}
