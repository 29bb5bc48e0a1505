/**
 * The face pipeline's numbers (../shared/models/MANIFEST.md §1 and §4).
 *
 * - Detection reads the photo at most 640 px on its longest side (the medium thumbnail is 800 px; YuNet-n finds
 *   faces down to ~10 px at that size), padded right and bottom to multiples of 32 (letterbox: one scale for
 *   both axes, so boxes map back exactly).
 * - Score ≥ 0.8, not the 0.6 of YuNet's demo: animal faces trigger at ~0.7 (MANIFEST §1, a cat at 0.72).
 * - Faces smaller than 16 px in the detector's frame are not kept: MobileFaceNet's embedding of a face that
 *   small is noise, and it would only scatter into clusters of its own.
 */
export const FACE_PARAMS = {
  detector: { maxSide: 640, multiple: 32, scoreThreshold: 0.8, nmsIou: 0.3, minFacePx: 16, strides: [8, 16, 32] },
  /** What is decoded for detection and alignment: the medium thumbnail's size. */
  source: { maxSide: 800 },
  embedding: { size: 112, dims: 128, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] },
} as const;

/** ArcFace's five-point template on 112×112: eyes, nose tip, mouth corners (image-left first). */
export const ARCFACE_TEMPLATE: readonly (readonly [number, number])[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

/** The registry models (adapters/ml/model-manifest.ts). */
export const FACE_MODELS = { detector: 'yunet-n', embedding: 'mobilefacenet' } as const;

/**
 * Stored with every face and in the index entry: both networks and the pipeline's version (bumped when the
 * pre- or post-processing changes what is found or embedded, so a rebuild can tell what is stale).
 */
export const FACE_MODEL_ID = 'yunet-n+mobilefacenet/1';
