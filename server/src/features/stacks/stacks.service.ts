/** Stacks of media items: bursts detected at ingest and on request, manual stacks (see stacks.routes.ts). */
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';

export class StacksService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
  ) {}
}
