/**
 * Content detection for the intake: what a file is, by its first bytes (adapters/media/detect.ts),
 * decided once per file where the bytes are first seen and then passed along (to the catalog row and
 * to the processing job), so the same head is not opened and read again at every step.
 */
import { detect, detectBytes, type DetectedType } from '../../adapters/media/detect.ts';

export { stillDetected, type DetectedType } from '../../adapters/media/detect.ts';

/** From bytes already in memory (a staged upload's head); `name` tells TIFF-based RAWs apart. */
export function detectContent(head: Uint8Array, name: string): DetectedType | null {
  return detectBytes(head, name);
}

/** From a file on disk (its first 4 KiB; the path's extension tells TIFF-based RAWs apart). */
export function detectFileContent(abs: string): Promise<DetectedType | null> {
  return detect(abs);
}
