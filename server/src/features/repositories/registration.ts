/**
 * Registration: the catalog of repositories. The default primary repository in the storage root,
 * registering an existing folder by its `.hearth-repo` marker (refusing copies, nesting and the data
 * folder), the views of repositories, and who owns the files found in one.
 *
 * This is the one door through which a folder becomes a repository. Administrators come in through
 * `create` (the folder must hold a marker already); a folder a person approved on the home machine
 * (features/host-actions) comes in through `open` (a marker is written when the folder has none, or
 * rewritten with a fresh id for a copy registered as its own repository) and `relocate` (a moved
 * repository repointed). `placementOf` tells that feature how a folder sits among the repositories
 * before it asks, so conflicts are answered by a person, never guessed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describeFsError, errnoCode, isSameOrInside, realOrResolved } from '../../adapters/fs/paths.ts';
import { tx } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, Invalid, NotFound } from '../../platform/http/errors.ts';
import { MARKER_FILE, MarkerSchema, SYSTEM_DIR, ensureRootMarker, exampleMarker, readMarker, replaceMarker, writeMarker, type Marker } from './marker.ts';
import type { RepositoriesContext } from './repositories.context.ts';
import type { RepositoryRow } from './repositories.store.ts';
import { toRepositoryView, type RepositoryView } from './repositories.view.ts';

export interface CreateRepositoryInput {
  name: string;
  path: string;
}

/** A folder chosen on the home machine, to register (RepositoryRegistry.open). */
export interface OpenFolderInput {
  /** Absolute path on this machine. */
  dir: string;
  name: string;
  /** Whose the files found in it are. */
  defaultOwnerId: number;
  /** Give the folder's marker a new id (a copy of a registered repository becomes its own). */
  freshIdentity?: boolean;
}

/** How a folder sits among the registered repositories (RepositoryRegistry.placementOf). */
export type FolderPlacement =
  | { kind: 'free'; marker: Marker | null }
  | { kind: 'same_folder'; repository: RepositoryRow }
  /** Its marker carries a registered repository's id at another place: moved there, or copied. */
  | { kind: 'copy_of'; repository: RepositoryRow; marker: Marker; originalPresent: boolean }
  | { kind: 'inside'; repository: RepositoryRow }
  | { kind: 'contains'; repository: RepositoryRow };

const badPath = (message: string, fieldMessage: string, code = 'invalid_repository_path') =>
  new Invalid(message, [{ field: 'body.path', message: fieldMessage, code }], code);

/**
 * The real path of a folder Hearth may read, or a 422 saying why not (no such folder, a file, no
 * permission, a symbolic link loop). The answers never repeat the path.
 */
export function resolveFolder(requested: string): string {
  try {
    const dir = fs.realpathSync.native(requested);
    if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    fs.readdirSync(dir);
    return dir;
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') throw badPath('There is no folder at this path on the server.', 'no such folder', 'folder_not_found');
    if (code === 'ENOTDIR') throw badPath('This path is a file, not a folder.', 'not a folder', 'not_a_folder');
    if (code === 'ELOOP') throw badPath('This path is a loop of symbolic links: it leads to no folder.', 'symbolic link loop', 'symlink_loop');
    if (code === 'EACCES' || code === 'EPERM') {
      throw badPath('Hearth may not read this folder (permission denied): give the user running Hearth read access.', 'permission denied', 'permission_denied');
    }
    throw badPath(`The folder cannot be opened (${describeFsError(e)}).`, describeFsError(e), 'folder_unreadable');
  }
}

/** The id in a folder's marker, or null when it has none that reads. */
function markerIdAt(dir: string): string | null {
  try {
    return readMarker(dir).id;
  } catch {
    return null;
  }
}

export class RepositoryRegistry {
  private rootIdCache: string | null = null;

  constructor(
    private readonly ctx: RepositoriesContext,
    /** A folder was just registered: the scheduler checks it and queues its first scan. */
    private readonly afterRegistered: (row: RepositoryRow, actor: Actor) => void,
    /** A repository was pointed at another folder: its watcher follows and a scan reconciles. */
    private readonly afterRelocated: (row: RepositoryRow, actor: Actor) => void,
  ) {}

  byId(id: string): RepositoryRow | undefined {
    return this.ctx.store.byId(id);
  }

  primary(): RepositoryRow | undefined {
    return this.ctx.db.prepare("SELECT * FROM repositories WHERE role = 'primary'").get() as RepositoryRow | undefined;
  }

  all(): RepositoryRow[] {
    return this.ctx.store.all();
  }

  /**
   * The id of the data folder's storage root (its `.hearth-root` marker, written on first use); null
   * (and logged) when the marker cannot be read or written: root ids are informative, never fatal.
   */
  rootId(): string | null {
    if (this.rootIdCache === null) {
      try {
        this.rootIdCache = ensureRootMarker(this.ctx.storageRoot, () => crypto.randomUUID()).id;
      } catch (err) {
        this.ctx.log.error({ err }, 'the storage root marker cannot be read or written; repositories are listed without root_id');
        return null;
      }
    }
    return this.rootIdCache;
  }

  /** Creates `<storage>/primary` with its marker and registers it, unless a primary exists. */
  ensurePrimary(): RepositoryRow {
    this.rootId();
    const existing = this.primary();
    if (existing) return existing;
    const dir = path.join(this.ctx.storageRoot, 'primary');
    fs.mkdirSync(path.join(dir, SYSTEM_DIR), { recursive: true });
    const marker = fs.existsSync(path.join(dir, MARKER_FILE))
      ? readMarker(dir)
      : { format: 'hearth-repository' as const, version: 1 as const, id: crypto.randomUUID(), name: 'Primary', created_at: new Date().toISOString() };
    if (!fs.existsSync(path.join(dir, MARKER_FILE))) writeMarker(dir, marker);
    const now = this.ctx.now();
    this.ctx.db
      .prepare('INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(marker.id, marker.name, dir, 'primary', now, now);
    this.ctx.log.info({ repository_id: marker.id, path: dir }, 'primary repository created');
    return this.primary()!;
  }

  list(actor: Actor): { repositories: RepositoryView[] } {
    return { repositories: this.views(actor, this.ctx.store.all()) };
  }

  /** Repositories an index rebuild can be scoped to: those Hearth can read now. */
  listForReindex(actor: Actor): { repositories: RepositoryView[] } {
    return { repositories: this.views(actor, this.ctx.store.all().filter((r) => r.status === 'active')) };
  }

  view(actor: Actor, id: string): RepositoryView {
    const row = this.ctx.store.byId(id);
    if (!row) throw new NotFound('No such repository.', 'repository_not_found');
    return this.views(actor, [row])[0]!;
  }

  private views(actor: Actor, rows: RepositoryRow[]): RepositoryView[] {
    const scanning = this.ctx.store.scanningIds();
    const storage = realOrResolved(this.ctx.storageRoot);
    const rootId = this.rootId();
    return rows.map((r) =>
      toRepositoryView(r, {
        isAdmin: actor.role === 'admin',
        rootId: isSameOrInside(storage, realOrResolved(r.path)) ? rootId : null,
        scanning: scanning.has(r.repository_id),
      }),
    );
  }

  /**
   * Registers an existing folder that already holds a `.hearth-repo` marker. Refuses (409) a folder
   * already registered, a copy of a registered repository (same marker id), and a folder inside or
   * around another repository; refuses (422) a folder without a valid marker, explaining how to make
   * one. Creates only the hidden `.hearth/` folder, then starts watching and queues a first scan.
   */
  create(actor: Actor, input: CreateRepositoryInput): RepositoryView {
    const name = input.name.trim();
    const requested = input.path.trim();
    if (!path.isAbsolute(requested)) throw badPath("Give the folder's absolute path on the server, for example /srv/photos.", 'must be an absolute path');
    const dir = resolveFolder(requested);
    const existing = this.ctx.store.all();
    this.assertPlaceable(dir, existing);
    const marker = this.readMarkerForRegistration(dir, name || path.basename(dir));
    this.assertNewIdentity(marker, existing);
    this.register(actor, { dir, marker, name: name || marker.name, defaultOwnerId: null });
    return this.view(actor, marker.id);
  }

  /**
   * Where a folder (a real path, as `resolveFolder` gives it) sits among the registered repositories:
   * free (with its marker, if any), the very folder of one, a copy or a moved repository (its marker
   * carries a registered id, at another place), inside one, or around one. Throws 422 `marker_invalid`
   * when the folder holds a marker that is not a Hearth marker.
   */
  placementOf(dir: string): FolderPlacement {
    const existing = this.ctx.store.all();
    for (const r of existing) {
      const other = realOrResolved(r.path);
      if (other === dir) return { kind: 'same_folder', repository: r };
    }
    const marker = fs.existsSync(path.join(dir, MARKER_FILE)) ? this.readMarkerForRegistration(dir, path.basename(dir)) : null;
    const same = marker ? existing.find((r) => r.repository_id === marker.id) : undefined;
    if (same && marker) return { kind: 'copy_of', repository: same, marker, originalPresent: markerIdAt(same.path) === same.repository_id };
    for (const r of existing) {
      const other = realOrResolved(r.path);
      if (isSameOrInside(other, dir)) return { kind: 'inside', repository: r };
      if (isSameOrInside(dir, other)) return { kind: 'contains', repository: r };
    }
    return { kind: 'free', marker };
  }

  /**
   * Registers a folder a person chose on the home machine (features/host-actions). A folder without a
   * marker gets one (a new id and `name`); `freshIdentity` rewrites the marker of a copy with a new id, so
   * the copy becomes a repository of its own (the original keeps its id). `defaultOwnerId`: whose the files
   * found in it are (the member who asked). Refuses what `create` refuses; nothing is left half-registered
   * (a marker written here is taken back when the registration fails).
   */
  open(actor: Actor, input: OpenFolderInput): RepositoryRow {
    const dir = resolveFolder(input.dir);
    const existing = this.ctx.store.all();
    this.assertPlaceable(dir, existing);
    const current = fs.existsSync(path.join(dir, MARKER_FILE)) ? this.readMarkerForRegistration(dir, input.name) : null;
    let marker: Marker;
    let written: 'new' | 'replaced' | null = null;
    if (current && !input.freshIdentity) {
      marker = current;
    } else {
      marker = exampleMarker(crypto.randomUUID(), input.name, new Date(this.ctx.now()));
      try {
        if (current) replaceMarker(dir, marker);
        else writeMarker(dir, marker);
        written = current ? 'replaced' : 'new';
      } catch (e) {
        throw new Invalid(
          `Hearth cannot write its ${MARKER_FILE} marker into this folder (${describeFsError(e)}): give the user running Hearth write access to it.`,
          [{ field: 'path', message: 'marker not writable', code: 'marker_not_writable' }],
          'marker_not_writable',
        );
      }
    }
    try {
      this.assertNewIdentity(marker, existing);
      this.register(actor, { dir, marker, name: input.name, defaultOwnerId: input.defaultOwnerId });
    } catch (e) {
      // Nothing half-way: the folder goes back to how it was found.
      if (written === 'new') fs.rmSync(path.join(dir, MARKER_FILE), { force: true });
      else if (written === 'replaced' && current) replaceMarker(dir, current);
      throw e;
    }
    return this.ctx.store.byId(marker.id)!;
  }

  /**
   * Points a registered repository at the folder it was moved to (the folder's marker carries its id).
   * Its assets keep their ids (their paths are relative to the repository); the watcher follows the new
   * folder and a scan reconciles it. The primary repository is never relocated (it lives in the data folder).
   */
  relocate(actor: Actor, id: string, requested: string): RepositoryRow {
    const row = this.ctx.store.byId(id);
    if (!row) throw new NotFound('No such repository.', 'repository_not_found');
    if (row.role === 'primary') throw new Conflict('The primary repository lives in the data folder and is never moved.', 'primary_not_relocatable');
    const dir = resolveFolder(requested);
    if (markerIdAt(dir) !== id) throw new Conflict(`This folder's ${MARKER_FILE} marker is not the one of the repository "${row.name}".`, 'marker_mismatch');
    this.assertPlaceable(dir, this.ctx.store.all().filter((r) => r.repository_id !== id));
    this.ctx.store.setPath(id, dir, this.ctx.now());
    this.ctx.log.info({ repository_id: id, by: actor.userId }, 'repository relocated');
    const moved = this.ctx.store.byId(id)!;
    this.afterRelocated(moved, actor);
    return moved;
  }

  private assertNewIdentity(marker: Marker, existing: RepositoryRow[]): void {
    const same = existing.find((r) => r.repository_id === marker.id);
    if (same) {
      throw new Conflict(
        `This folder's ${MARKER_FILE} carries the id of the repository "${same.name}", which is already registered. If the folder is a copy, give its marker a new id (any new UUID) and add it again.`,
        'repository_already_registered',
      );
    }
  }

  /** The row, its `.hearth/` folder, the log line and the first scan: the same for every way in. */
  private register(actor: Actor, r: { dir: string; marker: Marker; name: string; defaultOwnerId: number | null }): void {
    const now = this.ctx.now();
    try {
      tx(this.ctx.db, () => {
        this.ctx.store.insert({
          repository_id: r.marker.id,
          name: r.name,
          path: r.dir,
          role: 'regular',
          default_owner_id: r.defaultOwnerId,
          created_at: now,
          updated_at: now,
        });
      });
    } catch (e) {
      if (/UNIQUE|PRIMARYKEY/i.test((e as { code?: string }).code ?? '')) throw new Conflict('This repository was registered meanwhile.', 'repository_already_registered');
      throw e;
    }
    try {
      fs.mkdirSync(path.join(r.dir, SYSTEM_DIR), { recursive: true });
    } catch (e) {
      this.ctx.log.warn({ repository_id: r.marker.id, err: describeFsError(e) }, 'cannot create .hearth/ in the repository (read-only?): uploads and edits to it will fail');
    }
    // The path only at debug: the info line is the one an administrator reads in the usual log.
    this.ctx.log.debug({ repository_id: r.marker.id, path: r.dir }, 'repository folder');
    this.ctx.log.info({ repository_id: r.marker.id, by: actor.userId }, 'repository registered');
    this.afterRegistered(this.ctx.store.byId(r.marker.id)!, actor);
  }

  private assertPlaceable(dir: string, existing: RepositoryRow[]): void {
    for (const r of existing) {
      const other = realOrResolved(r.path);
      if (other === dir) throw new Conflict(`This folder is already registered as the repository "${r.name}".`, 'path_already_registered');
      if (isSameOrInside(other, dir)) {
        throw new Conflict(`This folder is inside the repository "${r.name}": a file can belong to one repository only.`, 'repository_nested');
      }
      if (isSameOrInside(dir, other)) {
        throw new Conflict(`This folder contains the repository "${r.name}": a file can belong to one repository only.`, 'repository_nested');
      }
    }
    const dataDir = this.ctx.deps?.dataDir ? realOrResolved(this.ctx.deps.dataDir) : null;
    if (dataDir && isSameOrInside(dataDir, dir) && !isSameOrInside(realOrResolved(this.ctx.storageRoot), dir)) {
      throw new Conflict("This folder is inside Hearth's data folder (catalog, caches, backups): choose a folder of your own.", 'inside_data_folder');
    }
    if (dataDir && isSameOrInside(dir, dataDir)) {
      throw new Conflict("This folder contains Hearth's data folder: choose a folder of your own.", 'repository_nested');
    }
  }

  private readMarkerForRegistration(dir: string, name: string): Marker {
    const how = `Create a file named ${MARKER_FILE} in the folder with this content (any new UUID as id): ${JSON.stringify(
      exampleMarker(crypto.randomUUID(), name),
    )} and add the folder again. Hearth indexes the files where they are and never moves or rewrites them.`;
    let raw: string;
    try {
      raw = fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8');
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') {
        throw new Invalid(
          `This folder has no ${MARKER_FILE} marker, so it cannot be registered as a repository. ${how}`,
          [{ field: 'body.path', message: `has no ${MARKER_FILE} marker`, code: 'marker_missing' }],
          'marker_missing',
        );
      }
      throw new Invalid(`The ${MARKER_FILE} marker cannot be read (${describeFsError(e)}).`, [{ field: 'body.path', message: 'marker unreadable', code: 'marker_invalid' }], 'marker_invalid');
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new Invalid(`The ${MARKER_FILE} marker is not valid JSON. ${how}`, [{ field: 'body.path', message: 'marker is not JSON', code: 'marker_invalid' }], 'marker_invalid');
    }
    const parsed = MarkerSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'marker'}: ${i.message}`).join('; ');
      throw new Invalid(`The ${MARKER_FILE} marker is not a Hearth repository marker (${issues}). ${how}`, [{ field: 'body.path', message: 'marker is invalid', code: 'marker_invalid' }], 'marker_invalid');
    }
    return parsed.data;
  }

  /** Who owns files found in a repository: its default owner, else the oldest active administrator. */
  ownerFor(row: RepositoryRow): number | undefined {
    if (row.default_owner_id !== null && this.ctx.store.userIsActive(row.default_owner_id)) return row.default_owner_id;
    return this.ctx.store.firstAdminId();
  }
}
