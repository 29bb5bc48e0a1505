/**
 * The verified models beside the repository (../shared/models, or HEARTH_SHARED_MODELS), and temporary
 * models folders made from them for tests that need a broken or partial install. Files are linked,
 * not copied, unless a test changes them (then it gets its own copy).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { modelEntry } from '../../../server/src/adapters/ml/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const SHARED_MODELS = process.env.HEARTH_SHARED_MODELS ?? path.resolve(repoRoot, '../shared/models');

/** A new, empty models folder. */
export function tempModelsDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-models-'));
}

/** Puts the files of the given registry models into `dir` as symbolic links to the shared copies. */
export function linkModels(dir: string, ids: string[]): void {
  for (const id of ids) {
    for (const f of modelEntry(id)!.files) {
      const dest = path.join(dir, f.path);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.symlinkSync(path.join(SHARED_MODELS, f.path), dest);
    }
  }
}

/** Replaces the file at registry path `rel` in `dir` by a copy whose byte at `at` is flipped (same size). */
export function corruptCopy(dir: string, rel: string, at = 1000): string {
  const dest = path.join(dir, rel);
  const bytes = fs.readFileSync(path.join(SHARED_MODELS, rel));
  bytes[at] = bytes[at]! ^ 0xff;
  fs.rmSync(dest, { force: true });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, bytes);
  return dest;
}

export const CLS_MODEL = 'ppocr-cls';
export const CLS_FILE = 'ocr-ppocrv4/ch_ppocr_mobile_v2.0_cls_infer.onnx';
