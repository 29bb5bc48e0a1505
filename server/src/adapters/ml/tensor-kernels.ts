/**
 * The two loops over tensors that run both in an inference worker and on the server's own thread, written once.
 *
 * Why the rules below: the worker's program (inference-worker.ts) is a string evaluated without the TypeScript
 * loader, and it takes these functions as their source text (`fn.toString()`, which is plain JavaScript once tsx or
 * the server bundle has stripped the types). So each function here must be self-contained: it reads only its
 * arguments and globals every JavaScript runtime has (Float32Array, Int32Array), and it declares no inner named
 * function or class (esbuild's keepNames would add a `__name(…)` call the worker does not have). The worker binds
 * each to a name of its own, so renaming by a minifier does not matter. test/server/ml/pool-reduction.test.ts runs
 * both sides on the real models.
 */

/**
 * The float32 tensor `[1, C, H, W]` made of interleaved 8-bit pixels (`C` bytes a pixel, `width × height`, at most
 * W × H): plane `c` holds byte `order[c]` of each pixel as `v · scale[c] − offset[c]`, top-left aligned; the rest of
 * each plane (the padding right and bottom) is 0.
 */
export function expandPixelPlanes(
  data: ArrayLike<number>,
  dims: readonly number[],
  pixels: { width: number; height: number; order: readonly number[]; scale: readonly number[]; offset: readonly number[] },
): Float32Array {
  const w = pixels.width;
  const h = pixels.height;
  const C = dims[1] as number;
  const H = dims[2] as number;
  const W = dims[3] as number;
  const plane = W * H;
  const out = new Float32Array(C * plane);
  for (let c = 0; c < C; c++) {
    const s = pixels.scale[c] as number;
    const o = pixels.offset[c] as number;
    const b = pixels.order[c] as number;
    for (let y = 0; y < h; y++) {
      let i = y * w * C + b;
      const end = c * plane + y * W + w;
      for (let k = c * plane + y * W; k < end; k++, i += C) out[k] = (data[i] as number) * s - o;
    }
  }
  return out;
}

/**
 * CTC greedy steps of an `[N, T, C]` probability tensor: per time step the first most likely class, its probability,
 * and the probability of class `space` (0 when `space` is not a class). 12 bytes a step instead of 4·C.
 */
export function ctcGreedySteps(
  data: ArrayLike<number>,
  dims: readonly number[],
  space: number,
): { best: Int32Array; bestP: Float32Array; spaceP: Float32Array } {
  const steps = (dims[0] as number) * (dims[1] as number);
  const classes = dims[2] as number;
  const best = new Int32Array(steps);
  const bestP = new Float32Array(steps);
  const spaceP = new Float32Array(steps);
  const hasSpace = space >= 0 && space < classes;
  for (let s = 0; s < steps; s++) {
    const base = s * classes;
    let b = 0;
    let p = data[base] as number;
    for (let c = 1; c < classes; c++) {
      const v = data[base + c] as number;
      if (v > p) {
        p = v;
        b = c;
      }
    }
    best[s] = b;
    bestP[s] = p;
    spaceP[s] = hasSpace ? (data[base + space] as number) : 0;
  }
  return { best, bestP, spaceP };
}
