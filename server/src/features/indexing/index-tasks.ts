/**
 * The ML index tasks of an asset, what each applies to, and which setting turns it off.
 *
 * The contract names the tasks of the indexing stats (`bioclip`, `face`, `ocr`, `semantic`,
 * `video_semantic`) and says the rebuild accepts `semantic` and `ocr` "among others"; Hearth accepts
 * exactly these five everywhere. A task is *disabled* when the administrator turned it off in the
 * `ml` settings (a rebuild reports it in `disabled_tasks` and queues nothing for it); a task that is
 * enabled but has no installed model is *unavailable*: its jobs are queued and wait visibly as
 * `scheduled` with the reason, and run once the model is there (see indexing.jobs.ts).
 */
import type { SettingsStore } from '../../config/settings.ts';

export const INDEX_TASKS = ['semantic', 'ocr', 'face', 'bioclip', 'video_semantic'] as const;
export type IndexTask = (typeof INDEX_TASKS)[number];

type MlSettingKey = 'semantic_enabled' | 'ocr_enabled' | 'face_enabled' | 'species_enabled';

export const INDEX_TASK_INFO: Record<IndexTask, { assetType: 'PHOTO' | 'VIDEO'; setting: MlSettingKey; label: string }> = {
  semantic: { assetType: 'PHOTO', setting: 'semantic_enabled', label: 'semantic search (photos)' },
  ocr: { assetType: 'PHOTO', setting: 'ocr_enabled', label: 'text recognition' },
  face: { assetType: 'PHOTO', setting: 'face_enabled', label: 'faces' },
  bioclip: { assetType: 'PHOTO', setting: 'species_enabled', label: 'species' },
  video_semantic: { assetType: 'VIDEO', setting: 'semantic_enabled', label: 'semantic search (videos)' },
};

/** Tasks whose vectors a semantic reset wipes. */
export const SEMANTIC_TASKS: readonly IndexTask[] = ['semantic', 'video_semantic'];

export function isTaskEnabled(settings: Pick<SettingsStore, 'section'>, task: IndexTask): boolean {
  return settings.section('ml')[INDEX_TASK_INFO[task].setting];
}
