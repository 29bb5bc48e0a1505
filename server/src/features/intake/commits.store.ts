/**
 * Commit records (table intake_commits; before the one door, uploads' upload_commits): the owner of a committed
 * file is known from the commit itself. Before a staged file is linked to a name in the repository, a row says
 * which source and reference (an upload's receipt), member, content and name it is, with the source's facts; the
 * transaction that catalogues the file (whoever runs it: the door itself, the watcher, a scan, start-up recovery)
 * takes the row (`claim`, CommitClaims) and removes it.
 *
 * Why: a crash between the link and the catalog write left a file that only the next scan found, and a scan gives
 * files to the repository's default owner (an administrator): the member lost the photo and their retry was answered
 * "duplicate". With the row, any indexing of that path with that content gives the asset to its committer.
 *
 * The row also reserves the name: (repository, path) is unique, so two commits of different files with the same
 * name never aim at the same path.
 */
import type { Db } from '../../platform/db/connection.ts';
import { prepared } from '../../platform/db/prepared.ts';
import type { ClaimedCommit, CommitClaims, IngestSource, SourceFacts } from '../assets/index.ts';

export interface CommitRecord {
  ref: string;
  source: IngestSource;
  owner_id: number;
  repository_id: string;
  rel_path: string;
  content_hash: string;
  size: number;
  original_filename: string;
  /** SourceFacts as JSON, or null. */
  facts: string | null;
  /** The source's own id of the item as JSON ({source, id, version}), or null. */
  source_ref: string | null;
  created_at: number;
}

export class IntakeCommits implements CommitClaims {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Records (or moves) the commit `ref` to `rel_path`. False when another commit holds that name: try the next. */
  reserve(r: Omit<CommitRecord, 'created_at'>): boolean {
    try {
      prepared(
        this.db,
          `INSERT INTO intake_commits (ref, source, owner_id, repository_id, rel_path, content_hash, size, original_filename, facts, source_ref, created_at)
           VALUES (@ref, @source, @owner_id, @repository_id, @rel_path, @content_hash, @size, @original_filename, @facts, @source_ref, @now)
           ON CONFLICT (ref) DO UPDATE SET repository_id = excluded.repository_id, rel_path = excluded.rel_path`,
        )
        .run({ ...r, now: this.now() });
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw e;
    }
  }

  /** The commit did not end in the catalog (duplicate, unsupported, failed), or its source settled it. */
  drop(ref: string): void {
    prepared(this.db, 'DELETE FROM intake_commits WHERE ref = ?').run(ref);
  }

  /** Every record, oldest first; `source`: only that source's. */
  all(source?: IngestSource): CommitRecord[] {
    const rows = this.db.prepare('SELECT * FROM intake_commits ORDER BY created_at').all() as CommitRecord[];
    return source ? rows.filter((r) => r.source === source) : rows;
  }

  get(ref: string): CommitRecord | undefined {
    return this.db.prepare('SELECT * FROM intake_commits WHERE ref = ?').get(ref) as CommitRecord | undefined;
  }

  claim(repositoryId: string, relPath: string, hash: string, size: number): ClaimedCommit | undefined {
    // Kept prepared (platform/db/prepared.ts): every file the catalog writer writes asks this, committed or not.
    const row = prepared(this.db, 'SELECT * FROM intake_commits WHERE repository_id = ? AND rel_path = ?').get(repositoryId, relPath) as CommitRecord | undefined;
    // Another file at that name (the link never happened and someone else's file is there): not ours.
    if (!row || row.content_hash !== hash || row.size !== size) return undefined;
    prepared(this.db, 'DELETE FROM intake_commits WHERE ref = ?').run(row.ref);
    return { source: row.source, ref: row.ref, ownerId: row.owner_id, originalFilename: row.original_filename, ...(row.facts ? { facts: JSON.parse(row.facts) as SourceFacts } : {}) };
  }
}
