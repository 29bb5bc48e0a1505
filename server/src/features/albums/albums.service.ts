/** Albums: per-user, ordered membership, covers (see albums.routes.ts for the operations). */
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';

export class AlbumsService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue,
  ) {}
}
