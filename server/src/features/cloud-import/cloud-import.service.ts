/**
 * Cloud import's face to the container: the credentials (credentials.service.ts) and the runs with their sources
 * (runs.service.ts), built together because each needs the other (a disconnect cancels runs; a run reads its
 * credential's sealed state), and the Takeout parts members upload from the browser (takeout-uploads.service.ts).
 */
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CloudProvider } from '../../adapters/cloud/provider.ts';
import type { CatalogDoor, Intake } from '../intake/index.ts';
import { CredentialsService } from './credentials.service.ts';
import { ProviderRegistry } from './providers.ts';
import { ImportRunsService, type RunsDeps } from './runs.service.ts';
import { TakeoutUploadsService } from './takeout-uploads.service.ts';

export interface CloudImportDeps {
  db: Db;
  /** The repositories (features/repositories): where runs import, their paths and reachability. */
  repositories: RunsDeps['repositories'];
  access: Access;
  jobs: JobQueue;
  door: CatalogDoor;
  intake: Pick<Intake, 'hashFile'>;
  providers: readonly CloudProvider[];
  sealKey: Buffer;
  log: Logger;
  now?: () => number;
  executor?: RunsDeps['executor'];
  /** The source's trash and people, applied for the member (assets and tags features). */
  followUps?: RunsDeps['followUps'];
}

export class CloudImportService {
  readonly providers: ProviderRegistry;
  readonly credentials: CredentialsService;
  readonly runs: ImportRunsService;
  readonly takeoutUploads: TakeoutUploadsService;

  constructor(deps: CloudImportDeps) {
    this.providers = new ProviderRegistry(deps.providers);
    this.credentials = new CredentialsService({
      db: deps.db,
      access: deps.access,
      providers: this.providers,
      sealKey: deps.sealKey,
      log: deps.log,
      cancelRunsOf: (id, reason) => this.runs.cancelRunsOf(id, reason),
      ...(deps.now ? { now: deps.now } : {}),
    });
    this.runs = new ImportRunsService({
      db: deps.db,
      repositories: deps.repositories,
      access: deps.access,
      jobs: deps.jobs,
      credentials: this.credentials,
      providers: this.providers,
      door: deps.door,
      intake: deps.intake,
      log: deps.log,
      ...(deps.now ? { now: deps.now } : {}),
      ...(deps.executor ? { executor: deps.executor } : {}),
      ...(deps.followUps ? { followUps: deps.followUps } : {}),
    });
    this.takeoutUploads = new TakeoutUploadsService({ db: deps.db, repositories: deps.repositories, access: deps.access, log: deps.log, ...(deps.now ? { now: deps.now } : {}) });
  }
}
