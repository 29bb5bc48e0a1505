/**
 * Zero-shot tags after each embedding: no model call per asset, only the margin against prototypes that are
 * computed once per text model with the CLIP text tower and kept (a failure is retried at the next asset).
 */
import type { FrameVector } from '../semantic.store.ts';
import { BACKGROUND_PROMPTS, SEEDED_CLASSIFIERS, type ClassifierDefinition } from './classifiers.ts';
import { classifierScores, prototypeOf, type ClassifierPrototypes } from './margin.ts';

export interface TextEncoder {
  embedTexts(texts: string[]): Promise<Float32Array[]>;
  /** Names the text tower: prototypes are kept per model. */
  readonly models: { text: string };
}

export interface ZeroShotTag {
  tag: string;
  score: number;
  confidence: number;
  frameTsMs: number;
}

/** The prototypes of a classifier's positive and negative (or background) prompts, in one text-tower call. */
export async function buildPrototypes(encoder: Pick<TextEncoder, 'embedTexts'>, def: Pick<ClassifierDefinition, 'positive' | 'negative'>): Promise<ClassifierPrototypes> {
  const negative = def.negative?.length ? def.negative : BACKGROUND_PROMPTS;
  if (!def.positive.length) throw new RangeError('a classifier needs at least one positive prompt');
  const vectors = await encoder.embedTexts([...def.positive, ...negative]);
  return { positive: prototypeOf(vectors.slice(0, def.positive.length)), negative: prototypeOf(vectors.slice(def.positive.length)) };
}

export class ZeroShotClassifier {
  private cache: { model: string; prototypes: Promise<ClassifierPrototypes[]> } | null = null;

  constructor(
    private readonly encoder: TextEncoder,
    readonly definitions: readonly ClassifierDefinition[] = SEEDED_CLASSIFIERS,
  ) {}

  /** Every classifier's prototypes for the current text model (computed once). */
  prototypes(): Promise<ClassifierPrototypes[]> {
    const model = this.encoder.models.text;
    if (this.cache?.model !== model) {
      const prototypes = this.computeAll().catch((e: unknown) => {
        if (this.cache?.prototypes === prototypes) this.cache = null;
        throw e;
      });
      this.cache = { model, prototypes };
    }
    return this.cache.prototypes;
  }

  /** The tags an asset's vectors earn (a video: its best frame per classifier). */
  async classify(frames: readonly FrameVector[]): Promise<ZeroShotTag[]> {
    const prototypes = await this.prototypes();
    const out: ZeroShotTag[] = [];
    this.definitions.forEach((def, i) => {
      const s = classifierScores(frames, prototypes[i]!, def.threshold);
      if (s?.matched) out.push({ tag: def.tag, score: s.score, confidence: s.confidence, frameTsMs: s.frameTsMs });
    });
    return out;
  }

  private async computeAll(): Promise<ClassifierPrototypes[]> {
    const out: ClassifierPrototypes[] = [];
    for (const def of this.definitions) out.push(await buildPrototypes(this.encoder, def));
    return out;
  }
}
