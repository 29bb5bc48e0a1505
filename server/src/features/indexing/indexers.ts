/**
 * Where ML features plug in the code that indexes one asset for one task (embed it, read its text,
 * find its faces…). A task with no registered indexer has no model installed: its jobs wait. The
 * ML issues register theirs at start; until then the registry is empty and every task reports zero
 * indexed assets, truthfully.
 */
import type { IndexTask } from './index-tasks.ts';
import { PhotoPixels } from './photo-pixels.ts';

export interface IndexTarget {
  asset_id: string;
  type: 'PHOTO' | 'VIDEO' | 'AUDIO';
  /** Absolute path of the original. */
  file: string;
}

export interface Indexer {
  /** Stored with each entry, so that a model upgrade can find what it has not seen. */
  readonly modelId: string;
  /** Indexes one asset (idempotent: replaces its earlier results for this task). */
  index(target: IndexTarget, signal: AbortSignal): Promise<void>;
  /** Removes every result of this task (semantic reset). */
  reset?(): void;
}

export class IndexerRegistry {
  private readonly byTask = new Map<IndexTask, Indexer>();
  /** The decoded pixels the indexers of a photo share (one decode for its face and text jobs). */
  readonly pixels = new PhotoPixels();
  private readonly pending: Promise<void>[] = [];

  register(task: IndexTask, indexer: Indexer): this {
    this.byTask.set(task, indexer);
    return this;
  }

  get(task: IndexTask): Indexer | undefined {
    return this.byTask.get(task);
  }

  available(task: IndexTask): boolean {
    return this.byTask.has(task);
  }

  /**
   * A registration under way (at start, the models are verified before their indexer is registered). Index
   * jobs wait for these before deciding that a task has no model, so a job taken right after a start does not
   * wait an hour for a model that was being checked. A registration that fails registers nothing.
   */
  registering(work: Promise<unknown>): void {
    this.pending.push(work.then(
      () => undefined,
      () => undefined,
    ));
  }

  /** Resolves when every registration under way has ended (registered or not). */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }
}
