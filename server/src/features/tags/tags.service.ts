/** Tags: shared names, per-asset links with a source (see tags.routes.ts for the operations). */
import type { Db } from '../../platform/db/connection.ts';

export class TagsService {
  constructor(private readonly db: Db) {}
}
