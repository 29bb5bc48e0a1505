/**
 * The intake's public face: the one door into the catalog (door.ts) every source calls, and the staging, hashing and
 * content detection the sources use to hand it files (see intake.ts). Other features import from here only.
 */
export { IntakeDoor } from './door.ts';
export type { Admission, AdmissionResult, CatalogDoor, IntakeFile, RepositoryRef, SourceFacts, SourcePair } from './door.contract.ts';
export { IntakeCommits, type CommitRecord } from './commits.store.ts';
export { Intake, type HashedFile, type IntakeStats } from './intake.ts';
export { blake3Backend, nativeBlake3Error, type Blake3Backend } from './blake3.ts';
export type { Digest, FileHasher } from './file-hasher.ts';
export { detectContent, detectFileContent, stillDetected, type DetectedType } from './content.ts';
export {
  ClientAborted,
  SESSION_ID,
  SESSIONS_DIR,
  STAGING_DIR,
  TooLargeError,
  UPLOADS_DIR,
  brokenOff,
  legacyChunkPath,
  newStagingFile,
  partialChunkPath,
  sanitizeFileName,
  sessionDataPath,
  sessionDir,
  stagingRoot,
  uploadFolder,
  type Received,
} from './staging.ts';
