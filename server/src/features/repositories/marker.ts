/**
 * The repository marker file `.hearth-repo` (JSON, UTF-8) at the root of every repository:
 *
 * ```json
 * { "format": "hearth-repository", "version": 1, "id": "<uuid>", "name": "Family photos", "created_at": "2026-11-21T10:00:00.000Z" }
 * ```
 *
 * - `format` and `version` identify the file; readers refuse other formats and newer versions.
 * - `id` is the repository's stable identity: the same folder keeps its id when it moves or the
 *   catalog is rebuilt.
 * - Hearth writes the marker once (when it creates a repository) and never rewrites media files.
 *   Beside it, the hidden folder `.hearth/` holds Hearth's own files (upload staging, edit sidecars).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SYSTEM_DIR } from '../../adapters/fs/paths.ts';

export { SYSTEM_DIR };
export const MARKER_FILE = '.hearth-repo';

export const MarkerSchema = z.object({
  format: z.literal('hearth-repository'),
  version: z.literal(1),
  id: z.uuid(),
  name: z.string().min(1).max(200),
  created_at: z.string(),
});
export type Marker = z.infer<typeof MarkerSchema>;

export function readMarker(dir: string): Marker {
  const raw = fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8');
  return MarkerSchema.parse(JSON.parse(raw));
}

export function writeMarker(dir: string, marker: Marker): void {
  fs.writeFileSync(path.join(dir, MARKER_FILE), `${JSON.stringify(marker, null, 2)}\n`, { flag: 'wx' });
}

/**
 * Replaces a folder's marker in one step (written beside it, then renamed over it): the only rewrite Hearth
 * makes, when a copy of a repository is registered as a repository of its own and gets a new id.
 */
export function replaceMarker(dir: string, marker: Marker): void {
  const tmp = path.join(dir, `${MARKER_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, `${JSON.stringify(marker, null, 2)}\n`);
  fs.renameSync(tmp, path.join(dir, MARKER_FILE));
}

/**
 * The storage root (`<dataDir>/storage`) carries its own marker, `.hearth-root` (JSON:
 * `{ "format": "hearth-storage-root", "version": 1, "id": "<uuid>", "created_at": "…" }`). Its id is
 * the `root_id` of the repositories that live under it (the primary repository and any other folder
 * inside the storage root); repositories registered elsewhere on the machine have no root (`null`).
 */
export const ROOT_MARKER_FILE = '.hearth-root';

export const RootMarkerSchema = z.object({
  format: z.literal('hearth-storage-root'),
  version: z.literal(1),
  id: z.uuid(),
  created_at: z.string(),
});
export type RootMarker = z.infer<typeof RootMarkerSchema>;

/** Reads the storage root's marker, writing one on first use. */
export function ensureRootMarker(dir: string, newId: () => string): RootMarker {
  const file = path.join(dir, ROOT_MARKER_FILE);
  try {
    return RootMarkerSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT') throw new Error(`${file} is not a Hearth storage root marker: ${(e as Error).message}`);
  }
  const marker: RootMarker = { format: 'hearth-storage-root', version: 1, id: newId(), created_at: new Date().toISOString() };
  try {
    fs.writeFileSync(file, `${JSON.stringify(marker, null, 2)}\n`, { flag: 'wx' });
  } catch (e) {
    if ((e as { code?: string }).code === 'EEXIST') return RootMarkerSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    throw e;
  }
  return marker;
}

/** A marker a user can paste into `.hearth-repo` to make a folder registerable. */
export function exampleMarker(id: string, name: string, now = new Date()): Marker {
  return { format: 'hearth-repository', version: 1, id, name, created_at: now.toISOString() };
}
