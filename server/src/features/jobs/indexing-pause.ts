/**
 * "Pause indexing" on the home machine (the desktop app's tray, or the host channel): the CPU-heavy background
 * work stops so the machine is the household's again (a game, a video call), and resumes when asked.
 *
 * What pauses: the `media` queue (decoding, thumbnails, hashes of new files) and the `ml` queue (faces, text,
 * semantic and species indexing). Jobs running when the pause comes finish their work (nothing is cut off half
 * way); waiting ones stay queued and run after the resume, in order. Everything else goes on: uploads and
 * imports are received and stored, scans find new files (their processing waits), browsing and search answer.
 * The pause is kept in the settings, so it survives a restart until someone resumes.
 */
import type { SettingsStore } from '../../config/settings.ts';
import type { JobRunner } from '../../platform/jobs/runner.ts';

/** The queues "indexing" stands for. */
export const INDEXING_QUEUES = ['media', 'ml'] as const;

export interface IndexingPauseState {
  paused: boolean;
  /** ISO time of the pause, or null. */
  paused_at: string | null;
}

export class IndexingPause {
  constructor(
    private readonly runner: Pick<JobRunner, 'setPaused'>,
    private readonly settings: Pick<SettingsStore, 'indexingPausedAt' | 'setIndexingPausedAt'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** At start, before the runner claims anything: a pause from before the restart holds. */
  restore(): IndexingPauseState {
    const state = this.state();
    if (state.paused) this.runner.setPaused(INDEXING_QUEUES, true);
    return state;
  }

  state(): IndexingPauseState {
    const at = this.settings.indexingPausedAt();
    return { paused: at !== null, paused_at: at === null ? null : new Date(at).toISOString() };
  }

  /** Pauses or resumes; pausing again keeps the first pause's time. */
  set(paused: boolean): IndexingPauseState {
    if (paused && this.settings.indexingPausedAt() === null) this.settings.setIndexingPausedAt(this.now());
    if (!paused) this.settings.setIndexingPausedAt(null);
    this.runner.setPaused(INDEXING_QUEUES, paused);
    return this.state();
  }
}
