/**
 * What the parts of the uploads feature share: their dependencies, the store, the limits and the
 * clock (one `UploadsContext`, made by UploadsService), the target repository of an upload, and how
 * failures become the problem objects kept on receipts, sessions and batch results.
 */
import { DomainError, NotFound, PayloadTooLarge, Unavailable } from '../../platform/http/errors.ts';
import { problemTitle } from '../../platform/http/problem.ts';
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { CatalogDoor, Intake, IntakeCommits } from '../intake/index.ts';
import { TooLargeError } from '../intake/index.ts';
import type { UploadLimits } from './uploads.config.ts';
import type { StoredProblem, UploadsStore } from './uploads.store.ts';

export interface UploadsDeps {
  db: Db;
  /** Who may see and use which upload session, receipt and asset (platform/access decides ownership; uploads never does). */
  access: Access;
  log: Logger;
  jobs: JobQueue;
  /** The one door into the catalog (features/intake/door.ts). */
  door: CatalogDoor;
  /** The door's commit records: uploads settle their own at start-up (startup-recovery.ts). */
  commits: IntakeCommits;
  /** Staging, hashing, content detection and the no-overwrite commit (features/intake). */
  intake: Intake;
  primaryRepositoryId: () => string | undefined;
  limits: UploadLimits;
  now?: () => number;
}

export interface UploadsContext {
  deps: UploadsDeps;
  store: UploadsStore;
  limits: UploadLimits;
  log: Logger;
  now: () => number;
}

/** A repository uploads go into. */
export interface Repo {
  repository_id: string;
  path: string;
}

/** BLAKE3 as the clients announce it (X-Content-Hash, client_hash). */
export const HASH_HEX = /^[0-9a-f]{64}$/;

/** The repository an upload goes into: the given one, or the primary; it must be reachable. */
export function targetRepository(ctx: UploadsContext, id: string | undefined): Repo {
  const repoId = id ?? ctx.deps.primaryRepositoryId();
  if (!repoId) throw new Unavailable('There is no primary repository to upload into.', 'no_repository');
  const repo = ctx.store.repository(repoId);
  if (!repo) throw new NotFound(`Repository ${repoId} does not exist.`, 'repository_not_found');
  if (repo.status !== 'active') throw new Unavailable(`Repository ${repoId} cannot be reached right now (${repo.status}).`, 'repository_unavailable');
  return repo;
}

/** Turns anything thrown into the problem kept on a receipt or a batch result. */
export function toStoredProblem(e: unknown): StoredProblem {
  if (e instanceof TooLargeError) e = new PayloadTooLarge(`The file is larger than the limit of ${e.limit} bytes.`);
  if (e instanceof DomainError) {
    return { type: `urn:hearth:problem:${e.code}`, title: problemTitle(e.status), status: e.status, detail: e.message, code: e.code, retryable: e.extra.retryable ?? (e.status >= 500 || e.status === 429) };
  }
  return { type: 'urn:hearth:problem:upload_failed', title: problemTitle(500), status: 500, detail: 'The server could not store the file. Try again.', code: 'upload_failed', retryable: true };
}

export function toDomainError(e: unknown): unknown {
  return e instanceof TooLargeError ? new PayloadTooLarge(`The file is larger than the limit of ${e.limit} bytes.`) : e;
}
