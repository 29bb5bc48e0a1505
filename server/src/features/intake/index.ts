/**
 * The intake's public face: what uploads, scans, the watcher and the ingest use (see intake.ts).
 * Other features import from here only.
 */
export { Intake, type HashedFile, type IntakeStats } from './intake.ts';
export { blake3Backend, nativeBlake3Error, type Blake3Backend } from './blake3.ts';
export type { Digest, FileHasher } from './file-hasher.ts';
export { detectContent, detectFileContent, stillDetected, type DetectedType } from './content.ts';
export { commitAsCopyOf, commitStaged, numberedName, type CommitPlacement, type CommitReservation } from './commit-file.ts';
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
