/**
 * The `embedding` channel: CLIP vectors nearest the query, above a cosine floor.
 *
 * Floors, for CLIP ViT-B/32 (the reference's 0.080–0.105 are SigLIP 2's, whose sigmoid-trained space puts
 * matching text–image pairs near 0.1; they do not transfer). CLIP is trained with a softmax at logit scale
 * 100, and its text–image cosines sit in a narrow band: a caption that fits its photo scores about
 * 0.25–0.35, an unrelated photo 0.10–0.20. 0.20 keeps the photos a query describes and drops the
 * unrelated bulk; a loose search (0.18) and a strict one (0.23) are a few hundredths away, as the
 * reference's loose/normal/strict are. Photo as the query (similar_to, search by image): image–image
 * cosines are much higher (unrelated photos 0.4–0.6, the same scene 0.85+), so the floor is 0.70.
 * The stand-in CLIP of the tests (colour only, scripts/models/make-clip-standin.ts) has a geometry of its
 * own, so it has floors of its own: every vector carries the same bias b (|b| = 0.25) beside the colour
 * shares, so a text with no colour word (b alone) has cosine 0.25/√(Σshare² + 0.0625) to every photo:
 * 0.24 to a one-colour photo, up to 0.64 to a photo spread over the palette. A colour word's text to a
 * photo half of that colour is about 0.73, three quarters about 0.93. Its text floor 0.70 keeps the
 * photos a colour query names and nothing for words it does not know, as CLIP's 0.20 does for CLIP.
 */
import type { NearestVectors } from './nearest-vectors.ts';
import { CHANNEL_CAP, type ChannelHit } from './channel.ts';

export interface CosineFloors {
  text: { loose: number; normal: number; strict: number };
  image: number;
}

const CLIP_VIT_B32: CosineFloors = { text: { loose: 0.18, normal: 0.2, strict: 0.23 }, image: 0.7 };
const CLIP_STANDIN: CosineFloors = { text: { loose: 0.65, normal: 0.7, strict: 0.75 }, image: 0.7 };

/** The floors for vectors of this model (features/semantic stores the model id with each vector). */
export function cosineFloors(modelId: string): CosineFloors {
  return modelId.startsWith('clip-standin') ? CLIP_STANDIN : CLIP_VIT_B32;
}

export interface EmbeddingQuery {
  /** One vector (a text, an image), or a video's frames: an asset counts by its best match to any. */
  vectors: Float32Array[];
  floor: number;
  /** Likeness from which a hit is a strong match (a "best result"): the strict floor for a text; absent, every hit is. */
  strongFloor?: number | undefined;
  why: string;
}

/**
 * `k`: how many nearest assets to ask for. The fused search asks for its candidate pool (at most 1,000):
 * an asset further down than the pool cannot enter the answer on its likeness alone, and a vector index
 * answers a small k much faster than the channel cap of 10,000.
 */
export function embeddingChannel(index: NearestVectors, q: EmbeddingQuery, allowed: Uint8Array, k = CHANNEL_CAP): ChannelHit[] {
  const best = new Map<number, ChannelHit>();
  for (const v of q.vectors) {
    for (const h of index.nearest(v, { k: Math.min(k, CHANNEL_CAP), allowed, minCosine: q.floor })) {
      const b = best.get(h.rowid);
      if (!b || h.cosine > b.rawScore) best.set(h.rowid, { rowid: h.rowid, rawScore: h.cosine, why: q.why, frameTsMs: h.frameTsMs >= 0 ? h.frameTsMs : null, strong: h.cosine >= (q.strongFloor ?? -Infinity) });
    }
  }
  return [...best.values()].sort((x, y) => y.rawScore - x.rawScore || x.rowid - y.rowid);
}
