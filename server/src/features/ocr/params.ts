/**
 * The numbers of the PP-OCRv4 pipeline, in one place. They come from ../shared/models/MANIFEST.md §5 (which
 * follows PaddleOCR's own inference defaults, tools/infer/utility.py and ppocr/postprocess/db_postprocess.py);
 * where the MANIFEST is silent the PaddleOCR default is used and named as such.
 */
export const OCR_PARAMS = {
  det: {
    /**
     * The detector reads the image at up to this longest side: the medium thumbnail's size, the decode the face
     * and text indexers of a photo share (features/indexing/photo-pixels.ts INDEX_PIXELS_MAX_SIDE), so a photo is
     * detected once, on pixels already there (recognise.ts).
     */
    imageSide: 800,
    /** Longest side of the detector input (MANIFEST: "≤ 960"; PaddleOCR det_limit_side_len 960, limit_type max). */
    limitSide: 960,
    /** Both sides of the detector input are multiples of this (the network downsamples by 32). */
    multiple: 32,
    /** ImageNet statistics, applied to the planes in B, G, R order as PaddleOCR does on cv2's BGR images. */
    mean: [0.485, 0.456, 0.406] as const,
    std: [0.229, 0.224, 0.225] as const,
  },
  db: {
    /** A map pixel is text when its probability is above this. */
    threshold: 0.3,
    /** A region is kept when the mean probability inside its box is above this. */
    boxThreshold: 0.6,
    /** The shrunk text kernel is grown back by area·ratio/perimeter on every side. */
    unclipRatio: 1.5,
    /** Boxes whose short side (map pixels) is below this are noise (PaddleOCR min_size 3; +2 after unclip). */
    minSize: 3,
    /** At most this many regions per image are considered (PaddleOCR max_candidates). */
    maxCandidates: 1000,
  },
  cls: {
    height: 48,
    width: 192,
    /** Turn a crop by 180° only when the classifier is this sure it is upside down (MANIFEST: > 0.9). */
    flipThreshold: 0.9,
  },
  rec: {
    height: 48,
    /** Narrowest batch width (PaddleOCR rec_image_shape 3,48,320): short words are padded, not stretched. */
    minWidth: 320,
    /** Widest crop, in pixels at height 48: a 4096-px-wide line is 85 characters of body text; longer is noise. */
    maxWidth: 4096,
    /** Crops per recognition call (PaddleOCR rec_batch_num 6). */
    batchSize: 6,
    /** Lines whose confidence is below this are dropped (PaddleOCR drop_score 0.5). */
    dropScore: 0.5,
    /**
     * A gap between characters where the space's probability reaches this is a space (ctc-decode.ts). Measured on
     * the corpus: 0.05 → strict CER of the English poster 0.023 (0.132 without), 0.08 → 0.065, 0.12 → 0.085; the
     * cost is a space inside widely tracked capitals ("F. U. N.").
     */
    spaceFloor: 0.05,
  },
  crop: {
    /** A crop at least this much taller than wide is a vertical line: it is read turned by 90° (PaddleOCR). */
    verticalRatio: 1.5,
  },
  vertical: {
    /**
     * Character pitches (× strip height) at which a vertical box's column is cut into cells (vertical.ts): full
     * squares, and 0.6 for columns of short kana and bars ("一", "ン") that a square pitch merges in pairs.
     */
    stackPitches: [1, 0.6],
    /**
     * A stacked reading is a second guess, kept only from this confidence: on the corpus the real vertical signs
     * read at 0.77–0.86, while a column of Latin-ish clutter beside them read "my h + Nt" at 0.57.
     */
    minConfidence: 0.7,
  },
  source: {
    /**
     * Crops are cut from the image at up to this longest side rather than from the 960-px detector input, so
     * small print in a 24 MP photo keeps its strokes; capped so a 200 MP panorama costs at most ~50 MB of RGB.
     */
    maxSide: 4096,
  },
} as const;
