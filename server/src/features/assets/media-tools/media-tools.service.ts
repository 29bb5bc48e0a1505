/** The administrators' view of ffmpeg/ffprobe and of the files waiting for them (pipeline/waiting-for-tools.ts). */
import type { Actor } from '../../../platform/http/context.ts';
import type { Db } from '../../../platform/db/connection.ts';
import type { JobQueue } from '../../../platform/jobs/queue.ts';
import { mediaToolsReport, resumeWaitingAssets } from '../pipeline/waiting-for-tools.ts';

export class MediaToolsService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
  ) {}

  /** Administrators only (the route's access); the report names no member's files. */
  report(_actor: Actor) {
    return mediaToolsReport(this.db);
  }

  recheck(_actor: Actor) {
    const requeued = resumeWaitingAssets(this.db, this.jobs);
    return { ...mediaToolsReport(this.db), requeued };
  }
}
