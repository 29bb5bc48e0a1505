/**
 * YuNet on an RGB image (MANIFEST §1): letterboxed to ≤ 640 px with H and W multiples of 32, BGR 0..255 NCHW;
 * per cell of strides 8/16/32, score = √(cls·obj), box and landmarks decoded from the cell; score ≥ 0.8, NMS at
 * IoU 0.3. Boxes and landmarks come back in the pixels of the image given.
 */
import { FACE_PARAMS } from './params.ts';
import type { DetectedFace, FaceInfer, FacePixels, FaceTensor, RgbImage } from './types.ts';

const P = FACE_PARAMS.detector;

/**
 * Bilinear resize into the detector's frame (≤ 640 px, zero-padded to multiples of 32), as BGR planes of 0..255:
 * made here as the resized image's 8-bit RGB pixels (each value rounded, as OpenCV's resize of an 8-bit image
 * gives YuNet's reference pipeline), which the worker expands into the float planes (FacePixels). 1.2 MB cross to
 * it for a 640-px frame instead of the 4.9 MB of floats.
 */
export function detectorInput(img: RgbImage): { tensor: FacePixels; scale: number } {
  const scale = Math.min(1, P.maxSide / Math.max(img.width, img.height));
  const rw = Math.max(1, Math.round(img.width * scale));
  const rh = Math.max(1, Math.round(img.height * scale));
  const W = Math.ceil(rw / P.multiple) * P.multiple;
  const H = Math.ceil(rh / P.multiple) * P.multiple;
  const out = new Uint8Array(3 * rw * rh);
  const sx = img.width / rw;
  const sy = img.height / rh;
  const { width, data } = img;
  // Each column's source byte offsets and weight, computed once (the same values the per-pixel form computed).
  const xs0 = new Int32Array(rw);
  const xs1 = new Int32Array(rw);
  const wxs = new Float64Array(rw);
  for (let x = 0; x < rw; x++) {
    const fx = Math.min(img.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    const x0 = Math.floor(fx);
    xs0[x] = x0 * 3;
    xs1[x] = Math.min(img.width - 1, x0 + 1) * 3;
    wxs[x] = fx - x0;
  }
  // One pass, the three channels unrolled: no per-channel loop or index arithmetic in the inner loop. A weighted
  // mean of bytes stays within 0..255, and a Uint8Array truncates what it is given: + 0.5 rounds it (as Math.round
  // does for values ≥ 0, at a fraction of its cost in this loop).
  for (let y = 0; y < rh; y++) {
    const fy = Math.min(img.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(img.height - 1, y0 + 1);
    const wy = fy - y0;
    const row0 = y0 * width * 3;
    const row1 = y1 * width * 3;
    let o = y * rw * 3;
    for (let x = 0; x < rw; x++, o += 3) {
      const a = row0 + xs0[x]!, b = row0 + xs1[x]!, d = row1 + xs0[x]!, e = row1 + xs1[x]!;
      const wx = wxs[x]!;
      const w00 = (1 - wx) * (1 - wy), w01 = wx * (1 - wy), w10 = (1 - wx) * wy, w11 = wx * wy;
      out[o] = data[a]! * w00 + data[b]! * w01 + data[d]! * w10 + data[e]! * w11 + 0.5;
      out[o + 1] = data[a + 1]! * w00 + data[b + 1]! * w01 + data[d + 1]! * w10 + data[e + 1]! * w11 + 0.5;
      out[o + 2] = data[a + 2]! * w00 + data[b + 2]! * w01 + data[d + 2]! * w10 + data[e + 2]! * w11 + 0.5;
    }
  }
  // BGR planes: blue (byte 2) first.
  const pixels = { width: rw, height: rh, order: [2, 1, 0], scale: [1, 1, 1], offset: [0, 0, 0] };
  return { tensor: { data: out, dims: [1, 3, H, W], pixels }, scale: rw / img.width };
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Decodes YuNet's outputs for a W×H input; coordinates in the input's pixels. */
export function decodeYunet(outputs: Record<string, FaceTensor>, W: number, H: number): DetectedFace[] {
  const found: DetectedFace[] = [];
  for (const s of P.strides) {
    const cols = W / s;
    const rows = H / s;
    const cls = outputs[`cls_${s}`]!.data;
    const obj = outputs[`obj_${s}`]!.data;
    const bbox = outputs[`bbox_${s}`]!.data;
    const kps = outputs[`kps_${s}`]!.data;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        const score = Math.sqrt(clamp01(cls[i]!) * clamp01(obj[i]!));
        if (score < P.scoreThreshold) continue;
        const cx = (c + bbox[i * 4]!) * s;
        const cy = (r + bbox[i * 4 + 1]!) * s;
        const w = Math.exp(bbox[i * 4 + 2]!) * s;
        const h = Math.exp(bbox[i * 4 + 3]!) * s;
        const landmarks: [number, number][] = [];
        for (let k = 0; k < 5; k++) landmarks.push([(kps[i * 10 + 2 * k]! + c) * s, (kps[i * 10 + 2 * k + 1]! + r) * s]);
        found.push({ x: cx - w / 2, y: cy - h / 2, w, h, score, landmarks });
      }
    }
  }
  return nms(found, P.nmsIou);
}

export function iou(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }): number {
  const ix = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  const inter = ix * iy;
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

function nms(faces: DetectedFace[], threshold: number): DetectedFace[] {
  const sorted = [...faces].sort((a, b) => b.score - a.score);
  const kept: DetectedFace[] = [];
  for (const f of sorted) if (kept.every((k) => iou(k, f) <= threshold)) kept.push(f);
  return kept;
}

/** The faces of `img` (its pixels), best score first, clipped to the image. */
export async function detectFaces(img: RgbImage, infer: FaceInfer): Promise<DetectedFace[]> {
  const { tensor, scale } = detectorInput(img);
  const [, , H, W] = tensor.dims as [number, number, number, number];
  return facesInImage(decodeYunet(await infer('detector', tensor), W, H), img, scale);
}

/** Detections in the detector's frame → faces in the pixels of `img`: too small ones dropped, clipped to it. */
export function facesInImage(found: DetectedFace[], img: RgbImage, scale: number): DetectedFace[] {
  return found
    .filter((f) => Math.min(f.w, f.h) >= P.minFacePx)
    .map((f) => {
      const x0 = Math.max(0, f.x / scale);
      const y0 = Math.max(0, f.y / scale);
      const x1 = Math.min(img.width, (f.x + f.w) / scale);
      const y1 = Math.min(img.height, (f.y + f.h) / scale);
      return { x: x0, y: y0, w: x1 - x0, h: y1 - y0, score: f.score, landmarks: f.landmarks.map(([lx, ly]) => [lx / scale, ly / scale] as [number, number]) };
    })
    .filter((f) => f.w > 0 && f.h > 0);
}
