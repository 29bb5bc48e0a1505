/**
 * Repositories: folders of media that Hearth indexes in place. The storage root (`<dataDir>/storage`)
 * holds the default primary repository, created on first start.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../platform/db/connection.ts';
import type { Logger } from '../../platform/logger.ts';
import { MARKER_FILE, SYSTEM_DIR, readMarker, writeMarker } from './marker.ts';

export interface RepositoryRow {
  repository_id: string;
  name: string;
  path: string;
  role: 'primary' | 'regular';
  created_at: number;
  updated_at: number;
}

export class RepositoriesService {
  constructor(
    private readonly db: Db,
    private readonly storageRoot: string,
    private readonly log: Logger,
  ) {}

  byId(id: string): RepositoryRow | undefined {
    return this.db.prepare('SELECT * FROM repositories WHERE repository_id = ?').get(id) as RepositoryRow | undefined;
  }

  primary(): RepositoryRow | undefined {
    return this.db.prepare("SELECT * FROM repositories WHERE role = 'primary'").get() as RepositoryRow | undefined;
  }

  /** Creates `<storage>/primary` with its marker and registers it, unless a primary exists. */
  ensurePrimary(): RepositoryRow {
    const existing = this.primary();
    if (existing) return existing;
    const dir = path.join(this.storageRoot, 'primary');
    fs.mkdirSync(path.join(dir, SYSTEM_DIR), { recursive: true });
    const marker = fs.existsSync(path.join(dir, MARKER_FILE))
      ? readMarker(dir)
      : { format: 'hearth-repository' as const, version: 1 as const, id: crypto.randomUUID(), name: 'Primary', created_at: new Date().toISOString() };
    if (!fs.existsSync(path.join(dir, MARKER_FILE))) writeMarker(dir, marker);
    const now = Date.now();
    this.db
      .prepare('INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(marker.id, marker.name, dir, 'primary', now, now);
    this.log.info({ repository_id: marker.id, path: dir }, 'primary repository created');
    return this.primary()!;
  }
}
