/**
 * IntakeDoor: the one door into the catalog (door.contract.ts). Two ways in:
 *
 * - a staged file (uploads, importers): under a lock per (repository, content), ONE content lookup
 *   (`CatalogWriter.byContent`) decides: the owner's own copy → `duplicate` for an upload (a trashed own copy is
 *   brought back: the member asked for the file); for any other source its facts are heard again
 *   (`CatalogWriter.refreshFacts`, fact-precedence.ts "Re-runs": a re-run whose item changed, or another item of the
 *   source with the same content) → `updated` when they were new, `unchanged` when they were not (a re-run of the
 *   same facts writes nothing, and a person's deletion stands: a copy in the Trash is not touched); else the file is committed under a free name without ever overwriting (as another
 *   name of a file already holding these bytes when one is there: stored once), recorded first with its owner and
 *   facts (commits.ts) so a crash keeps it theirs, then written by the catalog writer;
 * - an in-place file (scans, the watcher, start-up recovery): under a lock per (repository, path): stat, detect,
 *   hash, then the writer. A file that is as catalogued is `unchanged`, unless its source (not an upload) handed
 *   new facts for it: `updated`, as above.
 *
 * Duplicates are per owner: another member's copy of the bytes never makes an upload a duplicate (nothing in the
 * answer hints at it); the uploader gets an asset of their own at its own path.
 *
 * Where committed files go: uploads under `uploads/YYYY/MM/`, every other source under `imports/YYYY/MM/` (arrival
 * time, server-local calendar): a household sees what came from where when it browses the folder.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { failpoint } from '../../platform/failpoints.ts';
import type { Logger } from '../../platform/logger.ts';
import { FileChangingError, resolveInRepository, type CatalogWriter, type ContentHolders, type IndexFileRequest, type IndexOutcome, type Ingest } from '../assets/index.ts';
import type { IntakeCommits } from './commits.store.ts';
import { commitAsCopyOf, commitStaged } from './commit-file.ts';
import { detectContent, detectFileContent } from './content.ts';
import type { Admission, AdmissionResult, CatalogDoor, IntakeFile, RepositoryRef, SourceFacts, SourcePair } from './door.contract.ts';
import type { Intake } from './intake.ts';
import { KeyedLock } from './keyed-lock.ts';
import { OwnCommits } from './own-commits.ts';
import { UPLOADS_DIR } from './staging.ts';

const rm = (p: string) => fs.promises.rm(p, { recursive: true, force: true }).catch(() => undefined);

type Staged = Extract<IntakeFile, { kind: 'staged' }>;

/** What the staged path hands the in-place path after the commit. */
interface Known {
  hash: string;
  type?: IntakeFile['type'];
  content?: ContentHolders;
}

export class IntakeDoor implements CatalogDoor {
  private readonly contentLock = new KeyedLock();
  /** One indexing at a time per (repository, path): a commit and the watcher's event for the same new file must not both insert it. */
  private readonly pathLocks = new Map<string, Promise<unknown>>();
  /** The names this door is committing files at, for the watcher to pass over (own-commits.ts). */
  private readonly ownCommits = new OwnCommits();

  constructor(
    /** The assets feature's writer: the only code that writes asset rows for ingest. */
    readonly writer: CatalogWriter,
    /** The commit records (crash safety), claimed by the writer. */
    readonly commits: IntakeCommits,
    /** Hashing (native BLAKE3 on a worker) for files found on disk. */
    private readonly intake: Pick<Intake, 'hashFile'>,
    /** Repositories by id (scans and recovery name only the id). */
    private readonly repositories: { byId(id: string): RepositoryRef | undefined },
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  admit(a: Admission): Promise<AdmissionResult> {
    return a.file.kind === 'staged' ? this.admitStaged(a, a.file) : this.inPlace(a, a.file.relPath, a.file.hash === undefined ? undefined : { hash: a.file.hash, type: a.file.type });
  }

  missing(repositoryId: string, relPath: string): boolean {
    return this.writer.markMissing(repositoryId, relPath);
  }

  pair(p: SourcePair): boolean {
    return this.writer.pair(p);
  }

  ownCommit(repositoryId: string, relPath: string): boolean {
    return this.ownCommits.take(repositoryId, relPath);
  }

  /**
   * The commits a stop left recorded and not catalogued, of every source but uploads (whose start-up recovery also
   * settles receipts and sessions: features/uploads/startup-recovery.ts): a file at its name with its size and content
   * is catalogued for its committer; a record whose file never got there is forgotten. Never throws.
   */
  async recoverCommitted(): Promise<void> {
    for (const r of this.commits.all().filter((c) => c.source !== 'upload')) {
      try {
        const repo = this.repositories.byId(r.repository_id);
        const abs = repo ? path.join(repo.path, ...r.rel_path.split('/')) : null;
        const st = abs ? await fs.promises.stat(abs).catch(() => null) : null;
        const hash = abs && st?.isFile() && st.size === r.size ? await this.intake.hashFile(abs, st.size).then((h) => h.hash, () => null) : null;
        if (!repo || hash !== r.content_hash) {
          // The no-hard-link commit reserves the name with an empty file first: that placeholder is ours.
          if (abs && st?.isFile() && st.size === 0) await rm(abs);
          this.commits.drop(r.ref);
          continue;
        }
        const facts = r.facts ? (JSON.parse(r.facts) as SourceFacts) : undefined;
        const out = await this.admit({ source: r.source, ownerId: r.owner_id, repository: repo, file: { kind: 'in-place', relPath: r.rel_path, hash }, facts, ref: r.ref });
        this.log.info({ ref: r.ref, source: r.source, outcome: out.outcome }, 'a file committed before the last stop was catalogued for its committer');
      } catch (e) {
        this.log.error({ err: e, ref: r.ref }, 'cataloguing a file committed before the last stop failed');
      }
    }
  }

  /** @deprecated The door's older face (`Ingest.indexFile`), for tests and benches: one in-place admission. */
  asIngest(): Ingest {
    return {
      indexFile: (req) => this.indexFile(req),
      markMissing: (repositoryId, relPath) => this.missing(repositoryId, relPath),
    };
  }

  private async indexFile(req: IndexFileRequest): Promise<IndexOutcome> {
    const repository = req.repository?.repository_id === req.repositoryId ? req.repository : this.repositories.byId(req.repositoryId);
    if (!repository) throw new Error(`unknown repository ${req.repositoryId}`);
    const facts: SourceFacts = { ...(req.originalFilename ? { originalName: req.originalFilename } : {}), ...(req.fileModified !== undefined ? { fileModified: req.fileModified } : {}) };
    const known = req.knownHash === undefined ? undefined : { hash: req.knownHash, type: req.knownType };
    const out = await this.inPlace({ source: req.source, ownerId: req.ownerId, repository, file: { kind: 'in-place', relPath: req.relPath }, facts, ref: req.receiptId }, req.relPath, known, req.knownType);
    return toIndexOutcome(out);
  }

  private async admitStaged(a: Admission, file: Staged): Promise<AdmissionResult> {
    const repo = a.repository;
    const name = a.facts?.originalName ?? path.basename(file.path);
    const type = file.type !== undefined ? file.type : detectContent(file.head, name);
    if (!type) {
      await rm(file.path);
      return { outcome: 'unsupported', reason: 'not a photo, video or audio file Hearth can read' };
    }
    const fileName = path.extname(name) ? name : `${name}.${type.ext}`;
    return this.contentLock.run(`${repo.repository_id}:${file.hash}`, async () => {
      const holders = this.writer.byContent(repo.repository_id, file.hash, file.size);
      const own = holders.ownCopy(a.ownerId);
      if (own && a.source !== 'upload') {
        await rm(file.path);
        const heard = !own.inTrash && a.facts !== undefined && this.writer.refreshFacts(own.row.asset_id, a.ownerId, a.source, a.facts);
        return { outcome: heard ? 'updated' : 'unchanged', assetId: own.row.asset_id, relPath: own.row.storage_path };
      }
      if (own && (!own.inTrash || this.writer.restore(own.row.asset_id))) {
        await rm(file.path);
        return { outcome: 'duplicate', assetId: own.row.asset_id, restoredFromTrash: own.inTrash };
      }
      const ref = a.ref ?? crypto.randomUUID();
      let relPath: string;
      try {
        relPath = await this.commit(a, file, holders, fileName, ref, name);
      } catch (e) {
        this.commits.drop(ref);
        throw e;
      }
      failpoint('intake.after-commit');
      if (a.source === 'upload') failpoint('upload.after-commit');
      // Taking a committed file back out: the record goes after the file, so a crash in between
      // leaves a record without a file (dropped at the next start), never a file without its owner.
      const takeBack = async () => {
        await rm(path.join(repo.path, relPath));
        this.commits.drop(ref);
        // The name is free again: a file someone puts there next is the watcher's, not this commit's.
        this.ownCommits.forget(repo.repository_id, relPath);
      };
      let out: AdmissionResult;
      try {
        out = await this.inPlace({ ...a, ref }, relPath, { hash: file.hash, type, content: holders });
      } catch (e) {
        await takeBack(); // not catalogued: take it back out, the source may retry
        throw e;
      }
      if (out.outcome === 'unsupported') await takeBack();
      else this.commits.drop(ref); // claimed by the catalog write already
      return out;
    });
  }

  /**
   * Commits the staged file under the source's folder: as another name of a file of the repository that already
   * holds these bytes (stored once), or the staged file itself. Returns the repository-relative path.
   */
  private async commit(a: Admission, file: Staged, holders: ContentHolders, fileName: string, ref: string, name: string): Promise<string> {
    const repo = a.repository;
    const at = new Date(this.now());
    const folder = `${a.source === 'upload' ? UPLOADS_DIR : 'imports'}/${at.getFullYear()}/${String(at.getMonth() + 1).padStart(2, '0')}`;
    // A path the catalog holds for another member (its file went missing) is theirs: indexing the
    // commit there would hand it to their asset.
    const othersPath = (relPath: string) => {
      const owner = this.writer.ownerOfPath(repo.repository_id, relPath);
      return owner !== undefined && owner !== a.ownerId;
    };
    // Each name is recorded with its committer before the file appears under it (commits.ts).
    const record = {
      ref,
      source: a.source,
      owner_id: a.ownerId,
      repository_id: repo.repository_id,
      content_hash: file.hash,
      size: file.size,
      original_filename: name,
      facts: a.facts ? JSON.stringify(a.facts) : null,
      source_ref: a.facts?.sourceRef ? JSON.stringify(a.facts.sourceRef) : null,
    };
    // Every name reserved is noted for the watcher before the file can appear under it; the ones not used are
    // forgotten once the commit has its name (or failed).
    const noted: string[] = [];
    const reserve = (rel: string) => {
      if (!this.commits.reserve({ ...record, rel_path: rel })) return false;
      this.ownCommits.note(repo.repository_id, rel);
      noted.push(rel);
      return true;
    };
    const placement = { skip: othersPath, reservation: { reserve, release: () => this.commits.drop(ref) } };
    let relPath: string | null = null;
    try {
      const same = holders.linkSource(file.size);
      relPath = same ? await commitAsCopyOf(repo.path, same, folder, fileName, placement) : null;
      if (relPath) await rm(file.path);
      else relPath = await commitStaged(repo.path, file.path, folder, fileName, placement);
      return relPath;
    } finally {
      for (const rel of noted) if (rel !== relPath) this.ownCommits.forget(repo.repository_id, rel);
    }
  }

  private inPlace(a: Admission, relPath: string, known?: Known, knownType?: IntakeFile['type']): Promise<AdmissionResult> {
    const rel = relPath.replace(/\\/g, '/');
    const key = `${a.repository.repository_id}\0${rel}`;
    const previous = this.pathLocks.get(key) ?? Promise.resolve();
    const run = previous.then(
      () => this.inPlaceNow(a, rel, known, knownType),
      () => this.inPlaceNow(a, rel, known, knownType),
    );
    this.pathLocks.set(key, run);
    void run
      .finally(() => {
        if (this.pathLocks.get(key) === run) this.pathLocks.delete(key);
      })
      .catch(() => undefined);
    return run;
  }

  private async inPlaceNow(a: Admission, relPath: string, known: Known | undefined, knownType: IntakeFile['type']): Promise<AdmissionResult> {
    const repo = a.repository;
    const abs = resolveInRepository(repo.path, relPath);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(abs);
    } catch {
      this.writer.markMissing(repo.repository_id, relPath);
      return { outcome: 'unsupported', reason: 'the file is gone' };
    }
    if (!stat.isFile()) return { outcome: 'unsupported', reason: 'not a regular file' };
    const mtime = Math.floor(stat.mtimeMs);
    const unchanged = this.writer.unchanged(repo.repository_id, relPath, stat.size, mtime, a.source);
    if (unchanged) {
      const heard = a.source !== 'upload' && a.facts !== undefined && this.writer.refreshFacts(unchanged, a.ownerId, a.source, a.facts);
      return { outcome: heard ? 'updated' : 'unchanged', assetId: unchanged, relPath };
    }
    if (stat.size === 0) return { outcome: 'unsupported', reason: 'the file is empty' };
    const given = known?.type ?? knownType ?? (a.file.kind === 'in-place' ? a.file.type : undefined);
    const type = given ?? (await detectFileContent(abs));
    if (!type) return { outcome: 'unsupported', reason: 'not a photo, video or audio file Hearth can read' };
    let hash = known?.hash;
    let hashError: unknown = null;
    if (hash === undefined) hash = await this.intake.hashFile(abs, stat.size).then((h) => h.hash, (e: unknown) => ((hashError = e), ''));
    // Still being written (a copy in progress): the hash is of half a file. Not catalogued now; the
    // watcher reports the file again once it is quiet, and a scan waits for it.
    const after = await fs.promises.stat(abs).catch(() => null);
    if (!after || after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) throw new FileChangingError(relPath);
    if (hashError) throw hashError;
    const facts = a.facts;
    const out = this.writer.write({
      repository: repo,
      relPath,
      ownerId: a.ownerId,
      source: a.source,
      size: stat.size,
      mtime,
      type,
      hash,
      ...(facts?.originalName !== undefined ? { originalFilename: facts.originalName } : {}),
      ...(facts && 'fileModified' in facts ? { fileModified: facts.fileModified ?? null } : {}),
      ...(a.source === 'upload' && a.ref ? { receiptId: a.ref } : {}),
      ...(facts ? { facts } : {}),
      ...(known?.content ? { content: known.content } : {}),
    });
    return toAdmission(out, relPath);
  }
}

function toAdmission(out: IndexOutcome, relPath: string): AdmissionResult {
  if (out.outcome === 'unsupported') return out;
  if (out.outcome === 'duplicate') return { outcome: 'duplicate', assetId: out.asset_id, restoredFromTrash: false };
  return { outcome: out.outcome, assetId: out.asset_id, relPath };
}

function toIndexOutcome(out: AdmissionResult): IndexOutcome {
  if (out.outcome === 'unsupported') return out;
  if (out.outcome === 'duplicate') return { outcome: 'duplicate', asset_id: out.assetId };
  return { outcome: out.outcome, asset_id: out.assetId };
}
