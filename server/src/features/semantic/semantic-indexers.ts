/**
 * Builds the `semantic` and `video_semantic` indexers when CLIP's image tower is installed and verified (null
 * otherwise: their jobs wait, and getCapabilities says why). Zero-shot tags also need the text tower and the
 * tokenizer; without them vectors are made and tags are not.
 */
import type { ClipEncoder, MlRuntime } from '../../adapters/ml/index.ts';
import type { SettingsStore } from '../../config/settings.ts';
import { SemanticIndexer } from './semantic-indexer.ts';
import type { SemanticStore } from './semantic.store.ts';
import type { VideoSampling } from './video-frames.ts';
import type { ClassifierDefinition } from './zero-shot/classifiers.ts';
import { ZeroShotClassifier } from './zero-shot/zero-shot.ts';
import { ZeroShotTagStore } from './zero-shot/zeroshot-tags.store.ts';

export interface SemanticIndexers {
  photo: SemanticIndexer;
  video: SemanticIndexer;
  /** Whether zero-shot tags are given (the text tower is installed). */
  classifies: boolean;
}

/** The video sampling of the `ml` settings. */
export function samplingFrom(settings: Pick<SettingsStore, 'section'>): VideoSampling {
  const ml = settings.section('ml');
  return { maxFrames: ml.video_max_frames, longThresholdS: ml.video_long_threshold_s, sceneThreshold: ml.video_scene_threshold };
}

export async function createSemanticIndexers(
  ml: MlRuntime,
  encoder: ClipEncoder,
  store: SemanticStore,
  opts: {
    db: ConstructorParameters<typeof ZeroShotTagStore>[0];
    settings: Pick<SettingsStore, 'section'>;
    mediumThumbnail(assetId: string): string;
    webVideo(assetId: string): string;
    /** The classifiers (default: the seeded ones). */
    classifiers?: readonly ClassifierDefinition[];
  },
): Promise<SemanticIndexers | null> {
  const ready = async (id: string) => (await ml.catalog.status(id)).state === 'ready';
  if (!(await ready(encoder.models.vision))) return null;
  const classifies = (await ready(encoder.models.text)) && (await ready(encoder.models.tokenizer));
  const deps = {
    encoder,
    store,
    tags: new ZeroShotTagStore(opts.db),
    zeroShot: classifies ? new ZeroShotClassifier(encoder, opts.classifiers) : null,
    mediumThumbnail: opts.mediumThumbnail,
    webVideo: opts.webVideo,
    sampling: () => samplingFrom(opts.settings),
  };
  return { photo: new SemanticIndexer('semantic', deps), video: new SemanticIndexer('video_semantic', deps), classifies };
}
